/* baselines/cublas/l3-003.cu — library baseline for L3/003-deep-narrow-mlp: the reference's
 * network (tasks/common/net-classic.cuh) on the library backend of
 * baselines/cudnn/net-lib.cuh: cuBLAS strict fp32 SGEMMs (CUBLAS_DEFAULT_MATH), the bias and ReLU as net.cuh's kernels.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o b.so baselines/cublas/l3-003.cu -lcublas */
#define CUA_NET_LIB_NO_CUDNN      /* the MLPs need cuBLAS only */
#include "../cudnn/net-lib.cuh"
#include "net-classic.cuh"

static const int64_t widths[] = {1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024,
                                 1024, 1024, 1024, 1024, 1024, 1024, 8192};

template <class B>
static int forward(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out)
{
	return cua_net_mlp(b, in, n_in, out, n_out, 8192, widths, 17);
}

CUA_NET_LIB_ENTRY_POINT(forward)
