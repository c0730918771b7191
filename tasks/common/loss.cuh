/* loss.cuh — deterministic two-stage reductions of a loss to one scalar.
 * Header-only. Stage 1 writes one partial sum per block into a static device
 * array (no per-call allocation, no float atomics); stage 2, one block, sums the
 * partials in a fixed order and stores total / divisor:
 *
 *     elementwise terms:   cua_loss_mean<Acc, Out>(n, term, n, out, stream)
 *         with a functor  struct t { template <typename Acc> __device__ Acc at(int64_t i) const; };
 *     row losses:          a task kernel, one block per row (grid-stride over rows,
 *         at most CUA_LOSS_MAX_BLOCKS blocks), adds each row's loss on thread 0 and
 *         stores the block's total to cua_loss_partials<Acc>()[blockIdx.x]; then
 *         cua_loss_finish<Acc, Out>(nblocks, divisor, out, stream).
 *
 * The same code serves the fp32 reference (Acc = Out = float) and the fp64
 * oracle (Acc = Out = double, inputs still float); each Acc has its own scratch.
 * The scratch is shared by every call of one Acc: calls must not overlap (the
 * harness makes one at a time, on one stream).
 *
 * Napkin math: stage 1 reads every input once (the HBM floor); stage 2 reads
 * ≤ CUA_LOSS_MAX_BLOCKS partials. Rounding of a mean of n same-sign terms: a
 * thread sums ~n/262144 terms serially, then log2(256) tree levels per block,
 * then 4 serial + 8 tree levels over the partials: ~1e-7 relative, dominated by
 * the final fp32 rounding of the result. */
#ifndef CUA_COMMON_LOSS_CUH
#define CUA_COMMON_LOSS_CUH

#include <math.h>
#include "rowreduce.cuh"   /* cua_block_sum, cua_block_max */

#define CUA_LOSS_THREADS 256
#define CUA_LOSS_MAX_BLOCKS 1024

static __device__ float cua_loss_partials_f[CUA_LOSS_MAX_BLOCKS];
static __device__ double cua_loss_partials_d[CUA_LOSS_MAX_BLOCKS];

template <typename Acc> __device__ __forceinline__ Acc *cua_loss_partials();
template <> __device__ __forceinline__ float *cua_loss_partials<float>() { return cua_loss_partials_f; }
template <> __device__ __forceinline__ double *cua_loss_partials<double>() { return cua_loss_partials_d; }

/* exp/log/sqrt in the accumulation type (expf for the fp32 reference). */
static __device__ __forceinline__ float loss_exp(float v) { return expf(v); }
static __device__ __forceinline__ double loss_exp(double v) { return exp(v); }
static __device__ __forceinline__ float loss_log(float v) { return logf(v); }
static __device__ __forceinline__ double loss_log(double v) { return log(v); }
static __device__ __forceinline__ float loss_sqrt(float v) { return sqrtf(v); }
static __device__ __forceinline__ double loss_sqrt(double v) { return sqrt(v); }

/* Blocks for stage 1: one per `per_block` items, capped at CUA_LOSS_MAX_BLOCKS
 * (elements: per_block = CUA_LOSS_THREADS; rows, a block each: per_block = 1). */
static inline unsigned int cua_loss_blocks(int64_t items, int per_block)
{
	unsigned int b = cua_blocks_1d(items, per_block);
	return b < CUA_LOSS_MAX_BLOCKS ? b : CUA_LOSS_MAX_BLOCKS;
}

/* Stage 1 for elementwise terms: grid-stride sum of term.at<Acc>(i), i < n. */
template <typename Acc, typename Term>
__global__ void loss_terms_kernel(int64_t n, Term term)
{
	Acc s = 0;
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		s += term.template at<Acc>(i);
	s = cua_block_sum(s);
	if (threadIdx.x == 0)
		cua_loss_partials<Acc>()[blockIdx.x] = s;
}

/* Stage 2, one block: out[0] = (Σ of the first nparts partials) / divisor. */
template <typename Acc, typename Out>
__global__ void loss_finish_kernel(int nparts, Acc divisor, Out *__restrict__ out)
{
	const Acc *part = cua_loss_partials<Acc>();
	Acc s = 0;
	for (int i = threadIdx.x; i < nparts; i += blockDim.x)
		s += part[i];
	s = cua_block_sum(s);
	if (threadIdx.x == 0)
		out[0] = (Out)(s / divisor);
}

/* Enqueue stage 2 on stream; nparts ≤ CUA_LOSS_MAX_BLOCKS. The caller checks
 * cudaGetLastError(). */
template <typename Acc, typename Out>
static inline void cua_loss_finish(unsigned int nparts, int64_t divisor, Out *out,
                                   cudaStream_t stream)
{
	loss_finish_kernel<Acc, Out><<<1, CUA_LOSS_THREADS, 0, stream>>>((int)nparts,
	                                                                (Acc)divisor, out);
}

/* out[0] = (Σ_{i<n} term.at<Acc>(i)) / divisor, both stages. n >= 1. */
template <typename Acc, typename Out, typename Term>
static inline void cua_loss_mean(int64_t n, Term term, int64_t divisor, Out *out,
                                 cudaStream_t stream)
{
	unsigned int nb = cua_loss_blocks(n, CUA_LOSS_THREADS);
	loss_terms_kernel<Acc, Term><<<nb, CUA_LOSS_THREADS, 0, stream>>>(n, term);
	cua_loss_finish<Acc, Out>(nb, divisor, out, stream);
}

#endif /* CUA_COMMON_LOSS_CUH */
