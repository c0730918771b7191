/* scan.cuh — block-per-row scans (cumulative sum / product) over the last axis.
 * Header-only. x is viewed as [rows, L] (contiguous) and, for each row,
 *
 *     inclusive:  y[j] = v[0] ∘ v[1] ∘ … ∘ v[j]
 *     exclusive:  y[j] = v[0] ∘ … ∘ v[j-1]      (y[0] = identity of ∘)
 *     reverse:    the same with positions counted from the end of the row
 *                 (inclusive reverse: y[j] = v[j] ∘ v[j+1] ∘ … ∘ v[L-1])
 *     v[j] = x[j], or, with a mask, x[j] where mask[j] != 0 and the identity elsewhere
 *
 * One block owns one row at a time and walks it in tiles of blockDim.x
 * elements: a tile is scanned with warp shuffles plus a scan of the warp
 * totals (cua_block_scan), offset by the running carry of the earlier tiles,
 * and the carry grows by the tile total. The scan runs in Acc and stores Out,
 * so the fp32 reference (Acc = Out = float) and the fp64 oracle (Acc = Out =
 * double, inputs still float) share the kernel.
 *
 * This is the nvcc baseline, deliberately simple: one coalesced load and store
 * per element, but three __syncthreads per tile of 256 elements, so a
 * block has only 1 KiB of loads in flight and the kernel is latency-bound at a
 * fraction of HBM bandwidth (the floor is 8 bytes per element, 9 with a mask).
 * Rounding: the carry takes one rounding per tile and a tile element about
 * log2(blockDim.x) + 1 more, far fewer than a serial scan's one per element. */
#ifndef CUA_COMMON_SCAN_CUH
#define CUA_COMMON_SCAN_CUH

#include "check.cuh"

#define CUA_SCAN_THREADS 256

struct cua_scan_sum {
	template <typename T> __device__ T operator()(T a, T b) const { return a + b; }
	template <typename T> __device__ static T identity() { return T(0); }
};
struct cua_scan_prod {
	template <typename T> __device__ T operator()(T a, T b) const { return a * b; }
	template <typename T> __device__ static T identity() { return T(1); }
};

/* Scans v over the block in thread order: *inc = v_0 ∘ … ∘ v_t, *exc = v_0 ∘ … ∘
 * v_{t-1} (identity for thread 0), *total = the whole block's combination, all
 * in the left-to-right order of threads. Contract as for cua_block_reduce in
 * rowreduce.cuh: blockDim.x a multiple of 32, at most 1024, blockDim.y ==
 * blockDim.z == 1, every thread calls it; back-to-back calls are safe. */
template <typename T, typename Op>
__device__ void cua_block_scan(T v, Op op, T identity, T *inc, T *exc, T *total)
{
	__shared__ T warp_tot[32];
	const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	const int nwarps = blockDim.x >> 5;

	T x = v;                                 /* inclusive scan within the warp */
	for (int o = 1; o < 32; o <<= 1) {
		T y = __shfl_up_sync(0xffffffffu, x, o);
		if (lane >= o)
			x = op(y, x);
	}
	T e = __shfl_up_sync(0xffffffffu, x, 1); /* exclusive: the lane below's */
	if (lane == 0)
		e = identity;

	__syncthreads();                         /* a previous call may still read warp_tot */
	if (lane == 31)
		warp_tot[warp] = x;
	__syncthreads();
	if (warp == 0) {                         /* inclusive scan of the warp totals */
		T w = lane < nwarps ? warp_tot[lane] : identity;
		for (int o = 1; o < 32; o <<= 1) {
			T y = __shfl_up_sync(0xffffffffu, w, o);
			if (lane >= o)
				w = op(y, w);
		}
		warp_tot[lane] = w;              /* each lane rewrites only its own slot */
	}
	__syncthreads();
	const T pre = warp > 0 ? warp_tot[warp - 1] : identity;
	*inc = op(pre, x);
	*exc = op(pre, e);
	*total = warp_tot[nwarps - 1];
}

/* One block per row (grid-stride over rows), tiles of blockDim.x elements.
 * mask may be NULL (no mask). */
template <typename Acc, typename Out, typename Op, bool Reverse, bool Exclusive>
__global__ void scan_rows_kernel(const float *__restrict__ x, const uint8_t *__restrict__ mask,
                                 Out *__restrict__ y, int64_t rows, int64_t L, Op op)
{
	const Acc identity = Op::template identity<Acc>();
	for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
		const float *xr = x + r * L;
		const uint8_t *mr = mask != NULL ? mask + r * L : NULL;
		Out *yr = y + r * L;
		Acc carry = identity;
		for (int64_t base = 0; base < L; base += blockDim.x) {
			const int64_t k = base + threadIdx.x;       /* position in scan order */
			const int64_t j = Reverse ? L - 1 - k : k;  /* element of the row */
			Acc v = identity;
			if (k < L) {
				v = (Acc)xr[j];
				if (mr != NULL && mr[j] == 0)
					v = identity;
			}
			Acc inc, exc, total;
			cua_block_scan(v, op, identity, &inc, &exc, &total);
			if (k < L)
				yr[j] = (Out)op(carry, Exclusive ? exc : inc);
			carry = op(carry, total);
		}
	}
}

/* Enqueue on stream; the caller validates rows, L >= 1 and checks
 * cudaGetLastError(). */
template <typename Acc, typename Out, typename Op, bool Reverse, bool Exclusive>
static inline void cua_scan_rows(const float *x, const uint8_t *mask, Out *y, int64_t rows,
                                 int64_t L, Op op, cudaStream_t stream)
{
	scan_rows_kernel<Acc, Out, Op, Reverse, Exclusive>
		<<<cua_blocks_1d(rows, 1), CUA_SCAN_THREADS, 0, stream>>>(x, mask, y, rows, L, op);
}

#endif /* CUA_COMMON_SCAN_CUH */
