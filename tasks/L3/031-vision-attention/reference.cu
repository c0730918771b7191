/* L3/031 reference: Vision attention block (MultiheadAttention, residual, LayerNorm) (see task.json's description).
 * The network is tasks/common/net-seq.cuh's task forward over a backend: cua_solve on the naive
 * float kernels (the nvcc baseline: naive GEMMs, scores materialised, one kernel per operator
 * as eager PyTorch runs them), cua_oracle the same in double (gemm.cuh's tiled fp64 GEMM).
 * The library baseline baselines/cudnn/l3-031.cu is the same forward on cua_net_lib.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o r.so tasks/L3/031-vision-attention/reference.cu */
#include "cuarena.h"
#include "net-seq.cuh"

template <class B>
static int forward(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out)
{
	return cua_net_vision_attention_task(b, 128, 4, in, n_in, out, n_out);
}

CUA_NET_ENTRY_POINTS(forward)
