/* L1/098-kldivloss reference: KernelBench's kl_div(log(predictions), targets,
 * reduction='batchmean'): loss = (1/B) Σ_b Σ_d targets[b,d]·(log targets[b,d] −
 * log predictions[b,d]), predictions, targets [B,D] f32 (positive), loss [1] f32.
 * cua_solve is the nvcc baseline: ≤ 1024 blocks of 256 threads, one block per row at a
 * time (grid-stride over rows), one pass over both rows with logf, a warp-shuffle block
 * sum; thread 0 adds the row values of its block into a static partials array and one
 * more block sums them and divides by B (loss.cuh; deterministic, no atomics).
 * cua_oracle runs the same launches in double (log in double), writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-098.so tasks/L1/098-kldivloss/reference.cu
 * Napkin math (timed B=16384, D=16384): 1.07 GFLOP, 2.15 GB moved at the floor (0.5 ms at 4.3 TB/s).
 * Tolerance atol 0, rtol 5e-06 (task.json; the reasons are in its description and
 * tools/l1-tasks.py). */
#include "cuarena.h"
#include "loss.cuh"

/* One block per row: Σ_d t·(log t − log p), the row's sum added on thread 0. */
template <typename Acc>
__global__ void kl_div_rows_kernel(const float *__restrict__ pred, const float *__restrict__ tgt,
                                   int64_t B, int64_t D)
{
	Acc acc = 0;                                   /* used by thread 0 only */
	for (int64_t r = blockIdx.x; r < B; r += gridDim.x) {
		const float *pr = pred + r * D, *tr = tgt + r * D;
		Acc kl = 0;
		for (int64_t j = threadIdx.x; j < D; j += blockDim.x) {
			const Acc t = (Acc)tr[j];
			kl += t * (loss_log(t) - loss_log((Acc)pr[j]));
		}
		kl = cua_block_sum(kl);
		if (threadIdx.x == 0)
			acc += kl;
	}
	if (threadIdx.x == 0)
		cua_loss_partials<Acc>()[blockIdx.x] = acc;
}

template <typename Acc, typename Out>
static int kl_div(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 2, out, n_out, 1));
	const struct cua_tensor *pl = &in[0], *tl = &in[1];   /* predictions, targets */
	struct cua_tensor *loss = &out[0];
	CUA_CHECK(cua_check_tensor(pl, CUA_F32, 2));
	CUA_CHECK(cua_check_tensor(tl, CUA_F32, 2));
	CUA_CHECK(cua_check_same_shape(pl, tl));
	CUA_CHECK(cua_check_tensor(loss, cua_dtype_of<Out>::value, 1));
	CUA_CHECK(cua_check_dim(loss, 0, 1));

	const int64_t B = pl->shape[0], D = pl->shape[1];
	const unsigned int nb = cua_loss_blocks(B, 1);
	kl_div_rows_kernel<Acc><<<nb, CUA_LOSS_THREADS, 0, stream>>>(
		(const float *)pl->data, (const float *)tl->data, B, D);
	cua_loss_finish<Acc, Out>(nb, B, (Out *)loss->data, stream);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return kl_div<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return kl_div<double, double>(in, n_in, out, n_out, stream);
}
