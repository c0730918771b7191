/* norm.cuh — helpers for the normalisation references: a two-level strided sum
 * that keeps the fp32 rounding chain short, a block-per-row "divide by a norm
 * of the row" kernel, and a block-per-group GroupNorm kernel (InstanceNorm is
 * GroupNorm with one channel per group and no affine). Header-only.
 *
 * cua_strided_sum<Acc>(x, first, n, step, f) = Σ f((Acc)x[j]) over
 * j = first, first + step, ... < n. Terms are summed in chunks of
 * CUA_SUM_CHUNK consecutive ones, and chunk sums added to the total: a
 * thread's longest chain of dependent roundings is CUA_SUM_CHUNK + (number of
 * chunks) adds instead of (number of terms). With a block reduction on top
 * (rowreduce.cuh, +log2(blockDim) adds) the worst-case relative error of a
 * same-sign fp32 sum stays near (64 + terms/(64·threads) + 10)·6e-8.
 *
 * cua_rowscale(): y = x / fin(Σ term(x)) per row of [rows, D] (L1, L2 norms).
 *
 * GroupNorm, NCHW, G groups, Cg = C/G channels per group, HW = H·W:
 *     row r = n·G + g is the contiguous slice of Cg·HW elements of group g of
 *     sample n; mean_r = Σ x / (Cg·HW), var_r = Σ (x − mean_r)² / (Cg·HW)
 *     (biased), y = (x − mean_r) / sqrt(var_r + eps) [· w[c] + b[c]],
 *     c = g·Cg + j / HW for element j of the row.
 * One block per row, three passes over it (mean, centred variance, write), in
 * Acc, stored as Out: the fp32 reference and the fp64 oracle share the kernel.
 *
 * Napkin math: 8 bytes per element at the floor (read once, write once); this
 * kernel reads each row three times, from L2 when a row (Cg·HW·4 bytes) times
 * the resident blocks fits in it, else from HBM: ≤ 16 bytes per element. */
#ifndef CUA_COMMON_NORM_CUH
#define CUA_COMMON_NORM_CUH

#include <math.h>
#include "rowreduce.cuh"

#define CUA_SUM_CHUNK 64
#define CUA_NORM_THREADS 512

static __device__ __forceinline__ float cua_sqrt(float v) { return sqrtf(v); }
static __device__ __forceinline__ double cua_sqrt(double v) { return sqrt(v); }

/* Term functors for cua_strided_sum. */
struct cua_term_id {
	template <typename T> __device__ T operator()(T v) const { return v; }
};
struct cua_term_abs {
	template <typename T> __device__ T operator()(T v) const { return v < T(0) ? -v : v; }
};
struct cua_term_sq {
	template <typename T> __device__ T operator()(T v) const { return v * v; }
};
template <typename T> struct cua_term_centred_sq {
	T mean;
	__device__ T operator()(T v) const
	{
		T c = v - mean;
		return c * c;
	}
};

/* Σ f((Acc)x[j]) for j = first, first + step, ... < n, in chunks (see above).
 * first >= 0, step >= 1. */
template <typename Acc, typename In, typename F>
__device__ Acc cua_strided_sum(const In *__restrict__ x, int64_t first, int64_t n, int64_t step,
                               F f)
{
	Acc total = 0;
	const int64_t span = (int64_t)CUA_SUM_CHUNK * step;
	for (int64_t base = first; base < n; base += span) {
		const int64_t end = n - base < span ? n : base + span;
		Acc chunk = 0;
		for (int64_t j = base; j < end; j += step)
			chunk += f((Acc)x[j]);
		total += chunk;
	}
	return total;
}

struct cua_groupnorm_desc {
	int64_t N, C, HW;    /* x is [N, C, HW...] */
	int64_t G;           /* groups: divides C */
};

/* Checks the group count against C. */
static inline int cua_groupnorm_validate(const struct cua_groupnorm_desc &d)
{
	if (d.G < 1 || d.C % d.G != 0)
		return CUA_CHECK_E_PARAM;
	return 0;
}

/* w and b are [C] or both NULL (no affine). blockDim.x = CUA_NORM_THREADS. */
template <typename Acc, typename Out>
__global__ void groupnorm_kernel(const float *__restrict__ x, const float *__restrict__ w,
                                 const float *__restrict__ b, Out *__restrict__ y,
                                 struct cua_groupnorm_desc d, Acc eps)
{
	const int64_t Cg = d.C / d.G, D = Cg * d.HW, rows = d.N * d.G;
	for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
		const float *xr = x + r * D;
		Out *yr = y + r * D;
		Acc s = cua_strided_sum<Acc>(xr, threadIdx.x, D, blockDim.x, cua_term_id());
		const Acc mean = cua_block_sum(s) / (Acc)D;
		cua_term_centred_sq<Acc> csq;
		csq.mean = mean;
		Acc q = cua_strided_sum<Acc>(xr, threadIdx.x, D, blockDim.x, csq);
		const Acc var = cua_block_sum(q) / (Acc)D;
		const Acc rstd = Acc(1) / cua_sqrt(var + eps);
		const int64_t c0 = (r % d.G) * Cg;
		for (int64_t j = threadIdx.x; j < D; j += blockDim.x) {
			Acc v = ((Acc)xr[j] - mean) * rstd;
			if (w != NULL) {
				const int64_t c = c0 + j / d.HW;
				v = v * (Acc)w[c] + (Acc)b[c];
			}
			yr[j] = (Out)v;
		}
	}
}

/* Enqueue on stream; the caller validates d and checks cudaGetLastError(). */
template <typename Acc, typename Out>
static inline void cua_groupnorm(const float *x, const float *w, const float *b, Out *y,
                                 const struct cua_groupnorm_desc &d, Acc eps, cudaStream_t stream)
{
	groupnorm_kernel<Acc, Out><<<cua_blocks_rows(d.N * d.G), CUA_NORM_THREADS, 0, stream>>>(
		x, w, b, y, d, eps);
}

/* Row scaling by a norm of the row, x and y [rows, D]:
 *     y[r, j] = x[r, j] / fin(Σ_{k<D} term(x[r, k]))
 * (L1: term = |·|, fin = identity; L2: term = ·², fin = sqrt). One block per
 * row, two passes (the sum, the write). */
struct cua_fin_id {
	template <typename T> __device__ T operator()(T v) const { return v; }
};
struct cua_fin_sqrt {
	template <typename T> __device__ T operator()(T v) const { return cua_sqrt(v); }
};

template <typename Acc, typename Out, typename Term, typename Fin>
__global__ void rowscale_kernel(const float *__restrict__ x, Out *__restrict__ y, int64_t rows,
                                int64_t D, Term term, Fin fin)
{
	for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
		const float *xr = x + r * D;
		Out *yr = y + r * D;
		Acc s = cua_strided_sum<Acc>(xr, threadIdx.x, D, blockDim.x, term);
		const Acc den = fin(cua_block_sum(s));
		for (int64_t j = threadIdx.x; j < D; j += blockDim.x)
			yr[j] = (Out)((Acc)xr[j] / den);
	}
}

/* Enqueue on stream with CUA_ROW_THREADS per block; the caller validates the
 * extents and checks cudaGetLastError(). */
template <typename Acc, typename Out, typename Term, typename Fin>
static inline void cua_rowscale(const float *x, Out *y, int64_t rows, int64_t D, Term term,
                                Fin fin, cudaStream_t stream)
{
	rowscale_kernel<Acc, Out, Term, Fin><<<cua_blocks_rows(rows), CUA_ROW_THREADS, 0, stream>>>(
		x, y, rows, D, term, fin);
}

#endif /* CUA_COMMON_NORM_CUH */
