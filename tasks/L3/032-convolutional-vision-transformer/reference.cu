/* L3/032 reference: Convolutional Vision Transformer (see task.json's description).
 * The network is tasks/common/net-vit.cuh's task forward over a backend: cua_solve on the naive
 * float kernels (the nvcc baseline), cua_oracle the same in double (gemm.cuh's tiled fp64 GEMM
 * for the matrix products). The library baseline baselines/cudnn/l3-032.cu is the same forward
 * on cua_net_lib.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o r.so tasks/L3/032-convolutional-vision-transformer/reference.cu */
#include "cuarena.h"
#include "net-vit.cuh"

template <class B>
static int forward(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out)
{
	return cua_net_cvit_task(b, 32, 4, 128, 6, 4, 512, 1000, in, n_in, out, n_out);
}

CUA_NET_ENTRY_POINTS(forward)
