/* L3/050 reference: causal ReLU self-attention (see task.json's description).
 * The network is tasks/common/net-seq.cuh's task forward over a backend: cua_solve on the naive
 * float kernels (the nvcc baseline: naive GEMMs, scores materialised, one kernel per operator
 * as eager PyTorch runs them), cua_oracle the same in double (gemm.cuh's tiled fp64 GEMM).
 * The library baseline baselines/cudnn/l3-050.cu is the same forward on cua_net_lib.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o r.so tasks/L3/050-relu-self-attention/reference.cu */
#include "cuarena.h"
#include "net-seq.cuh"

template <class B>
static int forward(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out)
{
	return cua_net_gpt_attention_task(b, 768, 12, SEQ_ATT_CAUSAL_RELU, false, in, n_in, out, n_out);
}

CUA_NET_ENTRY_POINTS(forward)
