/* L1/095-crossentropyloss reference: loss = (1/B) Σ_b (logsumexp(predictions[b,:]) −
 * predictions[b, targets[b]]) (torch.nn.functional.cross_entropy, reduction 'mean'),
 * predictions (the logits) [B,C] f32, targets (the labels) [B] i64 in [0, C), loss [1] f32.
 * cua_solve is the nvcc baseline: ≤ 1024 blocks of 256 threads, one block per
 * row at a time (grid-stride over rows), three block passes over the row (max,
 * Σ exp(x − max), then thread 0 gathers the label's logit) with warp-shuffle
 * block reductions; thread 0 adds the row losses of its block into a static
 * partials array and one more block sums them and divides by B (loss.cuh;
 * deterministic, no atomics). A label outside [0, C) gives NaN (PyTorch raises).
 * cua_oracle runs the same launches in double (exp/log in double), writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o cross-entropy.so \
 *        tasks/L1/095-crossentropyloss/reference.cu
 * Napkin math (timed B=32768, C=4096): 537 MFLOP, 537 MB moved at the floor (0.12 ms at 4.3 TB/s).
 * Tolerance atol 0, rtol 2e-06 (task.json; the reasons are in its description and
 * tools/l1-tasks.py). */
#include "cuarena.h"
#include "loss.cuh"

template <typename Acc>
__global__ void cross_entropy_rows_kernel(const float *__restrict__ logits,
                                          const int64_t *__restrict__ labels, int64_t B,
                                          int64_t C)
{
	Acc acc = 0;                                   /* used by thread 0 only */
	for (int64_t r = blockIdx.x; r < B; r += gridDim.x) {
		const float *xr = logits + r * C;
		Acc m = (Acc)-INFINITY;
		for (int64_t j = threadIdx.x; j < C; j += blockDim.x) {
			Acc v = (Acc)xr[j];
			m = v > m ? v : m;
		}
		m = cua_block_max(m);
		Acc s = 0;
		for (int64_t j = threadIdx.x; j < C; j += blockDim.x)
			s += loss_exp((Acc)xr[j] - m);
		s = cua_block_sum(s);
		if (threadIdx.x == 0) {
			const int64_t label = labels[r];
			const Acc picked = label >= 0 && label < C ? (Acc)xr[label] : (Acc)NAN;
			acc += (loss_log(s) + m) - picked;
		}
	}
	if (threadIdx.x == 0)
		cua_loss_partials<Acc>()[blockIdx.x] = acc;
}

template <typename Acc, typename Out>
static int cross_entropy(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 2, out, n_out, 1));
	const struct cua_tensor *logits = &in[0], *labels = &in[1];
	struct cua_tensor *loss = &out[0];
	CUA_CHECK(cua_check_tensor(logits, CUA_F32, 2));
	CUA_CHECK(cua_check_tensor(labels, CUA_I64, 1));
	const int64_t B = logits->shape[0], C = logits->shape[1];
	CUA_CHECK(cua_check_dim(labels, 0, B));
	CUA_CHECK(cua_check_tensor(loss, cua_dtype_of<Out>::value, 1));
	CUA_CHECK(cua_check_dim(loss, 0, 1));

	const unsigned int nb = cua_loss_blocks(B, 1);
	cross_entropy_rows_kernel<Acc><<<nb, CUA_LOSS_THREADS, 0, stream>>>(
		(const float *)logits->data, (const int64_t *)labels->data, B, C);
	cua_loss_finish<Acc, Out>(nb, B, (Out *)loss->data, stream);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return cross_entropy<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return cross_entropy<double, double>(in, n_in, out, n_out, stream);
}
