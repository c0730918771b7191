/* baselines/cudnn/l3-049.cu — library baseline for L3/049-mamba2-return-final-state: Mamba2 SSD, chunked (returns the final state).
 * The task's forward (tasks/common/net-vit.cuh) on the library backend (net-lib.cuh,
 * net-lib-vit.cuh): the chunk states as per-head cublasSgemmStridedBatched over every batch and chunk (Xᵀ·(B·decay)), net-vit.cuh's kernels for the cumulative sums and the inter-chunk recurrence.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o b.so baselines/cudnn/l3-049.cu -lcudnn -lcublas
 * Unmeasured. */
#include "net-lib-vit.cuh"

template <class B>
static int forward(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out)
{
	return cua_net_mamba2_task(b, 8, 64, 16, true, in, n_in, out, n_out);
}

CUA_NET_LIB_ENTRY_POINT(forward)
