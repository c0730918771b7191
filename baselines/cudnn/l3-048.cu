/* baselines/cudnn/l3-048.cu — library baseline for L3/048-mamba2-return-y: Mamba2 SSD, chunked (returns Y).
 * The task's forward (tasks/common/net-vit.cuh) on the library backend (net-lib.cuh,
 * net-lib-vit.cuh): Y_diag's per-head [64,64]·[64,64] products and the chunk states (Xᵀ·(B·decay)) as cublasSgemmStridedBatched (one call per head over every batch and chunk), net-vit.cuh's kernels for the cumulative sums, the C·B·exp(segsum) factor, the chunk states, the inter-chunk recurrence and Y_off. Strict fp32 throughout (no TF32).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o b.so baselines/cudnn/l3-048.cu -lcudnn -lcublas
 * Unmeasured. */
#include "net-lib-vit.cuh"

template <class B>
static int forward(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out)
{
	return cua_net_mamba2_task(b, 8, 64, 16, false, in, n_in, out, n_out);
}

CUA_NET_LIB_ENTRY_POINT(forward)
