/* L1/097-kl-div reference: batch-mean KL divergence between row softmaxes,
 *     P = softmax(pred_logits[b,:]),  Q = softmax(target_logits[b,:]),
 *     loss = (1/B) Σ_b Σ_d Q[b,d]·(log Q[b,d] − log P[b,d])
 * (torch.nn.functional.kl_div(log P, Q, reduction='batchmean')), pred_logits,
 * target_logits [B,D] f32, loss [1] f32.
 * cua_solve is the nvcc baseline: ≤ 1024 blocks of 256 threads, one block per
 * row at a time (grid-stride over rows), three block passes over both rows
 * (maxima; Σ exp(x − max) for log-sum-exps; Σ Q·(log Q − log P) with
 * log Q = t − lse_t, log P = p − lse_p), warp-shuffle block reductions; thread
 * 0 adds the row values of its block into a static partials array and one more
 * block sums them and divides by B (loss.cuh; deterministic, no atomics).
 * cua_oracle runs the same launches in double (exp/log in double), writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o kl-div.so tasks/L1/097-kl-div/reference.cu
 * Napkin math (timed B=15168, D=32768): 8·B·D = 3.98 GB read at the floor:
 * 0.93 ms at 4.26 TB/s, ~1.2 ms for a good kernel (one pass with online
 * max/sums: Σ e^(t−m)·(t − p) gives the KL without a third pass); ~10·B·D flops
 * by convention, 2 exp per element (0.25 ms of MUFU at most). This kernel reads
 * both 128 KB rows three times (partly from L2): ~4-6 ms.
 * Tolerance (logits N(0,1): KL ≈ 1 per row): the fp32 log-sum-exps are ~10.9
 * and round to ~5e-7 absolute, which shifts a row's KL by about as much, with
 * random signs across rows; the mean errs by ≲ 1e-7 relative at the timed shape
 * and ≲ 1e-6 at the 3-row check shape. rtol 1e-5.
 * Non-degeneracy at the timed shape: a new seed for one input moves the mean
 * of 15168 row KLs by ~1e-4 relative (rms), so B was chosen with the exact
 * losses computed on the host for the selftest's seeds 1 and 2: the changes
 * are 10.8x (seeds), 7.6x (pred_logits alone) and 18.8x (target_logits alone)
 * the tolerance. */
#include "cuarena.h"
#include "loss.cuh"

template <typename Acc>
__global__ void kl_div_rows_kernel(const float *__restrict__ pl, const float *__restrict__ tl,
                                   int64_t B, int64_t D)
{
	Acc acc = 0;                                   /* used by thread 0 only */
	for (int64_t r = blockIdx.x; r < B; r += gridDim.x) {
		const float *pr = pl + r * D, *tr = tl + r * D;
		Acc mp = (Acc)-INFINITY, mt = (Acc)-INFINITY;
		for (int64_t j = threadIdx.x; j < D; j += blockDim.x) {
			Acc p = (Acc)pr[j], t = (Acc)tr[j];
			mp = p > mp ? p : mp;
			mt = t > mt ? t : mt;
		}
		mp = cua_block_max(mp);
		mt = cua_block_max(mt);
		Acc sp = 0, st = 0;
		for (int64_t j = threadIdx.x; j < D; j += blockDim.x) {
			sp += loss_exp((Acc)pr[j] - mp);
			st += loss_exp((Acc)tr[j] - mt);
		}
		const Acc lse_p = mp + loss_log(cua_block_sum(sp));
		const Acc lse_t = mt + loss_log(cua_block_sum(st));
		Acc kl = 0;
		for (int64_t j = threadIdx.x; j < D; j += blockDim.x) {
			const Acc log_q = (Acc)tr[j] - lse_t, log_p = (Acc)pr[j] - lse_p;
			kl += loss_exp(log_q) * (log_q - log_p);
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
	const struct cua_tensor *pl = &in[0], *tl = &in[1];
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
