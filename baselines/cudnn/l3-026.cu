/* baselines/cudnn/l3-026.cu — library baseline for L3/026-shufflenet: the reference's
 * network (tasks/common/net-cnn.cuh) on the library backend of baselines/cudnn/net-lib.cuh
 * and net-lib-cnn.cuh: cuDNN convolutions (grouped and depthwise included; strict fp32,
 * algorithm by Find), cuDNN BatchNorm, pooling and activations, cuBLAS strict fp32 GEMMs
 * for the linears.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o b.so baselines/cudnn/l3-026.cu -lcudnn -lcublas */
#include "net-lib-cnn.cuh"

template <class B>
static int forward(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out)
{
	return cua_cnn_shufflenet(b, in, n_in, out, n_out, 1000);
}

CUA_NET_LIB_ENTRY_POINT(forward)
