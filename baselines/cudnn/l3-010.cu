/* baselines/cudnn/l3-010.cu — library baseline for L3/010-resnet101: the reference's
 * network (tasks/common/net-classic.cuh) on the library backend of
 * baselines/cudnn/net-lib.cuh: cuDNN convolutions (strict fp32, algorithm by Find), cuDNN BatchNorm, pooling and
 * activations, cuBLAS strict fp32 GEMMs for the linears.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o b.so baselines/cudnn/l3-010.cu -lcudnn -lcublas */
#include "net-lib.cuh"
#include "net-classic.cuh"

static const int blocks[4] = {3, 4, 23, 3};

template <class B>
static int forward(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out)
{
	return cua_net_resnet(b, in, n_in, out, n_out, blocks, true, 1000);
}

CUA_NET_LIB_ENTRY_POINT(forward)
