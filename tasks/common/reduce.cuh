/* reduce.cuh — reduction over a middle axis, one thread per output element.
 * Header-only. x is viewed as [outer, R, inner] (contiguous) and
 *
 *     y[o, i] = op-reduction over r < R of x[o, r, i]     (in r order, in Acc)
 *
 * Consecutive threads take consecutive i, so every step over r is a coalesced
 * load; suited to inner >= 32. For a reduction over the last axis (inner == 1)
 * use the block-per-row helpers of rowreduce.cuh instead.
 *
 * Napkin math: reads outer·R·inner elements once, writes outer·inner; the
 * ceiling is HBM bandwidth when outer·inner threads fill the GPU. */
#ifndef CUA_COMMON_REDUCE_CUH
#define CUA_COMMON_REDUCE_CUH

#include "rowreduce.cuh"   /* cua_sum_op, cua_max_op */

#define CUA_REDUCE_THREADS 256

template <typename In, typename Acc, typename Out, typename Op>
__global__ void reduce_mid_kernel(const In *__restrict__ x, Out *__restrict__ y, int64_t outer,
                                  int64_t R, int64_t inner, Op op, Acc identity)
{
	const int64_t total = outer * inner;
	for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < total;
	     t += (int64_t)gridDim.x * blockDim.x) {
		int64_t o = t / inner, i = t % inner;
		const In *xp = x + o * R * inner + i;
		Acc acc = identity;
		for (int64_t r = 0; r < R; r++)
			acc = op(acc, (Acc)xp[r * inner]);
		y[t] = (Out)acc;
	}
}

/* Enqueue on stream; the caller validates extents (>= 1) and checks
 * cudaGetLastError(). */
template <typename In, typename Acc, typename Out, typename Op>
static inline void cua_reduce_mid(const In *x, Out *y, int64_t outer, int64_t R, int64_t inner,
                                  Op op, Acc identity, cudaStream_t stream)
{
	reduce_mid_kernel<In, Acc, Out, Op><<<cua_blocks_1d(outer * inner, CUA_REDUCE_THREADS),
	                                      CUA_REDUCE_THREADS, 0, stream>>>(x, y, outer, R,
	                                                                      inner, op, identity);
}

#endif /* CUA_COMMON_REDUCE_CUH */
