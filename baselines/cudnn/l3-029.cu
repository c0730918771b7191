/* baselines/cudnn/l3-029.cu — library baseline for L3/029-swin-mlp: Swin MLP.
 * The task's forward (tasks/common/net-vit.cuh) on the library backend (net-lib.cuh,
 * net-lib-seq.cuh, net-lib-vit.cuh): cuDNN for the patch convolution, cuBLAS GEMMs for every linear (fc1, fc2, the reductions, the head), net-vit.cuh's kernels for the windowed spatial MLP (the grouped 1×1 Conv1d over each window, padding and crop folded into its indexing), PatchMerging's gather and the pooling, net-seq.cuh's LayerNorm. Strict fp32 throughout (no TF32).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o b.so baselines/cudnn/l3-029.cu -lcudnn -lcublas
 * Unmeasured. */
#include "net-lib-vit.cuh"

template <class B>
static int forward(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out)
{
	return cua_net_swin_mlp_task(b, in, n_in, out, n_out);
}

CUA_NET_LIB_ENTRY_POINT(forward)
