/* baselines/cudnn/l3-031.cu — library baseline for L3/031-vision-attention: Vision attention block (MultiheadAttention, residual, LayerNorm).
 * The task's forward (tasks/common/net-seq.cuh) on the library backend (net-lib.cuh,
 * net-lib-seq.cuh): cuBLAS GEMMs (linears; scores and P·V as cublasSgemmBatched), net-seq.cuh's softmax, LayerNorm and transpose kernels. Strict fp32 throughout (no TF32). cuDNN's fused attention is not
 * used: it has no fp32 mode (net-lib-seq.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o b.so baselines/cudnn/l3-031.cu -lcudnn -lcublas
 * Unmeasured. */
#include "net-lib-seq.cuh"

template <class B>
static int forward(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out)
{
	return cua_net_vision_attention_task(b, 128, 4, in, n_in, out, n_out);
}

CUA_NET_LIB_ENTRY_POINT(forward)
