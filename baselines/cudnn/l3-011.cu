/* baselines/cudnn/l3-011.cu — library baseline for L3/011-vgg16: the reference's
 * network (tasks/common/net-classic.cuh) on the library backend of
 * baselines/cudnn/net-lib.cuh: cuDNN convolutions (strict fp32, algorithm by Find), cuDNN BatchNorm, pooling and
 * activations, cuBLAS strict fp32 GEMMs for the linears.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o b.so baselines/cudnn/l3-011.cu -lcudnn -lcublas */
#include "net-lib.cuh"
#include "net-classic.cuh"

/* output channels of each 3x3 conv; 0 = max pool 2/2 */
static const int cfg[18] = {64, 64, 0, 128, 128, 0, 256, 256, 256, 0, 512, 512, 512, 0,
                            512, 512, 512, 0};

template <class B>
static int forward(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out)
{
	return cua_net_vgg(b, in, n_in, out, n_out, cfg, 18, 1000);
}

CUA_NET_LIB_ENTRY_POINT(forward)
