/* rowreduce.cuh — block-per-row helpers: warp-shuffle and whole-block sum/max.
 * Header-only. Used by row ops (softmax, layernorm) where one block owns one
 * row at a time:
 *
 *     for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {   // uniform per block
 *         T s = 0;
 *         for (int64_t j = threadIdx.x; j < D; j += blockDim.x) s += row[j];
 *         s = cua_block_sum(s);                                   // every thread gets it
 *     }
 *
 * Contract of cua_block_*: blockDim.x is a multiple of 32 and at most 1024,
 * blockDim.y == blockDim.z == 1, and every thread of the block calls it (it
 * contains __syncthreads()); back-to-back calls are safe. T is float or double.
 *
 * Napkin math: a row op that reads its row p times moves p·D·sizeof(T) bytes
 * per row from L2/HBM; a row of 32768 f32 (128 KiB) does not stay in L1. */
#ifndef CUA_COMMON_ROWREDUCE_CUH
#define CUA_COMMON_ROWREDUCE_CUH

#include <math.h>
#include "check.cuh"

#define CUA_ROW_THREADS 256

struct cua_sum_op {
	template <typename T> __device__ T operator()(T a, T b) const { return a + b; }
};
struct cua_max_op {
	template <typename T> __device__ T operator()(T a, T b) const { return a > b ? a : b; }
};
struct cua_min_op {
	template <typename T> __device__ T operator()(T a, T b) const { return a < b ? a : b; }
};

/* Reduces v over the 32 lanes of a full warp; every lane gets the result. */
template <typename T, typename Op>
__device__ __forceinline__ T cua_warp_reduce(T v, Op op)
{
	for (int o = 16; o > 0; o >>= 1)
		v = op(v, __shfl_xor_sync(0xffffffffu, v, o));
	return v;
}

/* Reduces v over the block (see the contract above); identity is op's neutral
 * element, used for the unused warp slots. */
template <typename T, typename Op>
__device__ T cua_block_reduce(T v, Op op, T identity)
{
	__shared__ T warp_vals[32];
	const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	const int nwarps = blockDim.x >> 5;
	v = cua_warp_reduce(v, op);
	__syncthreads();                 /* a previous call may still read warp_vals[0] */
	if (lane == 0)
		warp_vals[warp] = v;
	__syncthreads();
	if (warp == 0) {
		v = lane < nwarps ? warp_vals[lane] : identity;
		v = cua_warp_reduce(v, op);
		if (lane == 0)
			warp_vals[0] = v;        /* all of warp 0 has read its slot already */
	}
	__syncthreads();
	return warp_vals[0];
}

template <typename T>
__device__ __forceinline__ T cua_block_sum(T v)
{
	return cua_block_reduce(v, cua_sum_op(), T(0));
}

template <typename T>
__device__ __forceinline__ T cua_block_max(T v)
{
	return cua_block_reduce(v, cua_max_op(), T(-INFINITY));
}

/* Rows per grid: one block per row up to a cap; kernels loop past it. */
static inline unsigned int cua_blocks_rows(int64_t rows)
{
	return cua_blocks_1d(rows, 1);
}

#endif /* CUA_COMMON_ROWREDUCE_CUH */
