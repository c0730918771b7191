/* reduce.cuh — reduction over a middle axis, one thread per output element.
 * Header-only. x is viewed as [outer, R, inner] (contiguous) and
 *
 *     y[o, i] = op-reduction over r < R of x[o, r, i]     (in r order, in Acc)
 *
 * Consecutive threads take consecutive i, so every step over r is a coalesced
 * load; suited to inner >= 32. For a reduction over the last axis (inner == 1)
 * use the block-per-row helpers of rowreduce.cuh instead.
 *
 * Variants: cua_reduce_mid_post() applies a functor to each reduced value
 * before the store (mean = sum, then ·1/R); cua_argreduce_mid() stores the
 * int64 index r of the first extreme element (argmax/argmin, ties to the
 * lowest r, as torch).
 *
 * Napkin math: reads outer·R·inner elements once, writes outer·inner; the
 * ceiling is HBM bandwidth when outer·inner threads fill the GPU. */
#ifndef CUA_COMMON_REDUCE_CUH
#define CUA_COMMON_REDUCE_CUH

#include "rowreduce.cuh"   /* cua_sum_op, cua_max_op, cua_min_op */

#define CUA_REDUCE_THREADS 256

/* The post functor of plain reductions: the value unchanged. */
struct cua_no_post {
	template <typename T> __device__ T operator()(T v) const { return v; }
};

template <typename In, typename Acc, typename Out, typename Op, typename Post>
__global__ void reduce_mid_kernel(const In *__restrict__ x, Out *__restrict__ y, int64_t outer,
                                  int64_t R, int64_t inner, Op op, Acc identity, Post post)
{
	const int64_t total = outer * inner;
	for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < total;
	     t += (int64_t)gridDim.x * blockDim.x) {
		int64_t o = t / inner, i = t % inner;
		const In *xp = x + o * R * inner + i;
		Acc acc = identity;
		for (int64_t r = 0; r < R; r++)
			acc = op(acc, (Acc)xp[r * inner]);
		y[t] = (Out)post(acc);
	}
}

/* Enqueue on stream; the caller validates extents (>= 1) and checks
 * cudaGetLastError(). */
template <typename In, typename Acc, typename Out, typename Op>
static inline void cua_reduce_mid(const In *x, Out *y, int64_t outer, int64_t R, int64_t inner,
                                  Op op, Acc identity, cudaStream_t stream)
{
	reduce_mid_kernel<In, Acc, Out, Op, cua_no_post>
		<<<cua_blocks_1d(outer * inner, CUA_REDUCE_THREADS), CUA_REDUCE_THREADS, 0, stream>>>(
			x, y, outer, R, inner, op, identity, cua_no_post());
}

/* Same, storing post(reduced value): post is a functor with a __device__
 * Acc operator()(Acc). */
template <typename In, typename Acc, typename Out, typename Op, typename Post>
static inline void cua_reduce_mid_post(const In *x, Out *y, int64_t outer, int64_t R,
                                       int64_t inner, Op op, Acc identity, Post post,
                                       cudaStream_t stream)
{
	reduce_mid_kernel<In, Acc, Out, Op, Post>
		<<<cua_blocks_1d(outer * inner, CUA_REDUCE_THREADS), CUA_REDUCE_THREADS, 0, stream>>>(
			x, y, outer, R, inner, op, identity, post);
}

/* Comparators of cua_argreduce_mid: true when a candidate replaces the best so
 * far. Strict, so the first of equal extremes (lowest r) is kept. */
struct cua_greater_op {
	template <typename T> __device__ bool operator()(T cand, T best) const { return cand > best; }
};
struct cua_less_op {
	template <typename T> __device__ bool operator()(T cand, T best) const { return cand < best; }
};

/* idx[o, i] = the r of the first element of x[o, :, i] that no later element
 * beats under better (argmax: cua_greater_op, argmin: cua_less_op). Elements
 * are compared as In (exact); NaN inputs are not handled (the tasks' inputs
 * are finite). */
template <typename In, typename Better>
__global__ void argreduce_mid_kernel(const In *__restrict__ x, int64_t *__restrict__ idx,
                                     int64_t outer, int64_t R, int64_t inner, Better better)
{
	const int64_t total = outer * inner;
	for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < total;
	     t += (int64_t)gridDim.x * blockDim.x) {
		int64_t o = t / inner, i = t % inner;
		const In *xp = x + o * R * inner + i;
		In best = xp[0];
		int64_t arg = 0;
		for (int64_t r = 1; r < R; r++) {
			In v = xp[r * inner];
			if (better(v, best)) {
				best = v;
				arg = r;
			}
		}
		idx[t] = arg;
	}
}

/* Enqueue on stream; the caller validates extents (>= 1) and checks
 * cudaGetLastError(). */
template <typename In, typename Better>
static inline void cua_argreduce_mid(const In *x, int64_t *idx, int64_t outer, int64_t R,
                                     int64_t inner, Better better, cudaStream_t stream)
{
	argreduce_mid_kernel<In, Better>
		<<<cua_blocks_1d(outer * inner, CUA_REDUCE_THREADS), CUA_REDUCE_THREADS, 0, stream>>>(
			x, idx, outer, R, inner, better);
}

#endif /* CUA_COMMON_REDUCE_CUH */
