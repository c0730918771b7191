/* epilogue.cuh — the operators that follow the main GEMM or convolution in the
 * Level-2 tasks, each as its own naive kernel (one launch per operator, reading
 * and writing device memory, as eager PyTorch runs them). Header-only.
 *
 * Every kernel is templated on Acc (the arithmetic type), In (what it reads)
 * and Out (what it writes): the fp32 reference runs Acc = In = Out = float, the
 * fp64 oracle Acc = Out = double with intermediates in double, so one chain of
 * calls serves both builds. The parameter vectors of a task (biases, norm
 * weights, scales) are read as given (float) and converted to Acc.
 *
 * Elementwise functors (T = Acc; every constant is converted to T first):
 *     cua_ep_relu         max(x, 0)
 *     cua_ep_leaky_relu   x ≥ 0 ? x : slope·x
 *     cua_ep_gelu_erf     0.5·x·(1 + erf(x/√2))                  (F.gelu, default)
 *     cua_ep_gelu_tanh    0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))
 *                                                                 (approximate='tanh')
 *     cua_ep_sigmoid      1 / (1 + exp(−x))
 *     cua_ep_swish        x · sigmoid(x)                          (SiLU)
 *     cua_ep_softplus     x > 20 ? x : log1p(exp(x))              (F.softplus, beta 1,
 *                                                                  threshold 20)
 *     cua_ep_mish         x · tanh(softplus(x))
 *     cua_ep_hardswish    x · min(max(x + 3, 0), 6) / 6
 *     cua_ep_tanh         tanh(x)
 *     cua_ep_clamp        min(max(x, lo), hi)                     (also Hardtanh)
 *     cua_ep_add_s        x + s        cua_ep_sub_s   x − s
 *     cua_ep_mul_s        x · s        cua_ep_div_s   x / s
 * Binary functors f(a, b) for a tensor a and a tensor or broadcast vector b:
 *     cua_ep_add  a + b   cua_ep_sub  a − b   cua_ep_mul  a · b   cua_ep_div  a / b
 *     cua_ep_minb min(a, b)               cua_ep_maxb max(a, b)
 *
 * Launchers (n elements, grid-stride, one thread per element):
 *     cua_ep_unary(n, f, x, y)              y[i] = f(x[i])
 *     cua_ep_binary(n, f, a, b, y)          y[i] = f(a[i], b[i])      (a, b any types)
 *     cua_ep_bcast(n, C, inner, f, a, v, y) y[i] = f(a[i], v[(i / inner) % C])
 *         a per-feature vector of a [rows, F] GEMM output: C = F, inner = 1;
 *         a per-channel vector of NC·S (conv) data: C = channels, inner = S;
 *         a per-row value (a keepdim reduction) of [rows, D]: C = rows, inner = D.
 *
 * Reductions over the middle axis of x viewed as [outer, R, inner] (contiguous),
 * y [outer, inner] (the reduced dim removed or kept as 1: same memory):
 *     CUA_EP_SUM   Σ_r x          CUA_EP_MEAN  (Σ_r x) / R
 *     CUA_EP_MAX   max_r x        CUA_EP_MIN   min_r x
 *     CUA_EP_LSE   m + log(Σ_r exp(x − m)), m = max_r x      (torch.logsumexp)
 * cua_ep_reduce() runs one block per row when inner == 1 (a reduction over
 * the last dim: threads stride over r, then a block reduction) and one thread
 * per output otherwise (a loop over r in order).
 *     cua_ep_softmax(x, y, outer, R, inner): y = exp(x − m) / Σ_r exp(x − m) over
 *     r, m = max_r x, same shape as x; same two schedules.
 *
 * Normalisations (biased variance, eps inside the square root, two passes:
 * mean, then the centred sum of squares):
 *     cua_ep_groupnorm(x, w, b, y, N, C, S, G, eps): x [N, C, S] (S = ∏ spatial,
 *         1 after a GEMM), G groups of Cg = C/G channels; statistics per (n, g)
 *         over its Cg·S elements; y = (x − mean)/sqrt(var + eps)·w[c] + b[c]
 *         (w, b [C], or both NULL for no affine). InstanceNorm is G = C;
 *         LayerNorm over the last dim D of [rows, D] is N = rows, C = D, S = 1,
 *         G = 1 (w, b [D]).
 *     cua_ep_batchnorm_train(x, w, b, y, N, C, S, eps): BatchNorm with batch
 *         statistics (training mode, as KernelBench runs it): per channel c,
 *         over the N·S elements x[n, c, s]: y = (x − mean_c)/sqrt(var_c + eps)
 *         ·w[c] + b[c]. The running statistics are not computed (no output
 *         depends on them).
 * Both run one block (CUA_NORM_THREADS) per group or channel; sums go through
 * cua_strided_sum (norm.cuh) in chunks, then a block sum.
 *
 * Every launcher only enqueues on the given stream; the caller validates the
 * extents (all ≥ 1, G divides C) and checks cudaGetLastError().
 *
 * Napkin math: each elementwise kernel moves (inputs + 1)·n·sizeof elements;
 * the reductions and norms read their input 1–3 times (from L2 when a row or
 * group fits) and write once. These are naive by design: a fused candidate
 * saves every intermediate round trip. */
#ifndef CUA_COMMON_EPILOGUE_CUH
#define CUA_COMMON_EPILOGUE_CUH

#include <math.h>
#include "elementwise.cuh"   /* cua_exp, cua_tanh, cua_erf, cua_log1p, cua_log */
#include "norm.cuh"          /* cua_strided_sum, cua_sqrt, cua_block_sum, cua_block_max */

#define CUA_EP_THREADS 256

/* ---- elementwise functors ---- */

struct cua_ep_relu {
	template <typename T> __host__ __device__ T operator()(T x) const
	{
		return x > T(0) ? x : T(0);
	}
};

struct cua_ep_leaky_relu {
	double slope;
	template <typename T> __host__ __device__ T operator()(T x) const
	{
		return x >= T(0) ? x : T(slope) * x;
	}
};

struct cua_ep_gelu_erf {
	template <typename T> __host__ __device__ T operator()(T x) const
	{
		return T(0.5) * x * (T(1) + cua_erf(x * T(0.70710678118654752440)));
	}
};

struct cua_ep_gelu_tanh {
	template <typename T> __host__ __device__ T operator()(T x) const
	{
		const T inner = T(0.79788456080286535588) * (x + T(0.044715) * x * x * x);
		return T(0.5) * x * (T(1) + cua_tanh(inner));
	}
};

struct cua_ep_sigmoid {
	template <typename T> __host__ __device__ T operator()(T x) const
	{
		return T(1) / (T(1) + cua_exp(-x));
	}
};

struct cua_ep_swish {
	template <typename T> __host__ __device__ T operator()(T x) const
	{
		return x / (T(1) + cua_exp(-x));
	}
};

struct cua_ep_softplus {
	template <typename T> __host__ __device__ T operator()(T x) const
	{
		return x > T(20) ? x : cua_log1p(cua_exp(x));
	}
};

struct cua_ep_mish {
	template <typename T> __host__ __device__ T operator()(T x) const
	{
		return x * cua_tanh(cua_ep_softplus()(x));
	}
};

struct cua_ep_hardswish {
	template <typename T> __host__ __device__ T operator()(T x) const
	{
		T r = x + T(3);
		r = r < T(0) ? T(0) : (r > T(6) ? T(6) : r);
		return x * r / T(6);
	}
};

struct cua_ep_tanh {
	template <typename T> __host__ __device__ T operator()(T x) const { return cua_tanh(x); }
};

/* Hardtanh(lo, hi) is the same clamp. */
struct cua_ep_clamp {
	double lo, hi;
	template <typename T> __host__ __device__ T operator()(T x) const
	{
		return x < T(lo) ? T(lo) : (x > T(hi) ? T(hi) : x);
	}
};

struct cua_ep_add_s {
	double s;
	template <typename T> __host__ __device__ T operator()(T x) const { return x + T(s); }
};
struct cua_ep_sub_s {
	double s;
	template <typename T> __host__ __device__ T operator()(T x) const { return x - T(s); }
};
struct cua_ep_mul_s {
	double s;
	template <typename T> __host__ __device__ T operator()(T x) const { return x * T(s); }
};
struct cua_ep_div_s {
	double s;
	template <typename T> __host__ __device__ T operator()(T x) const { return x / T(s); }
};

/* ---- binary functors ---- */

struct cua_ep_add {
	template <typename T> __host__ __device__ T operator()(T a, T b) const { return a + b; }
};
struct cua_ep_sub {
	template <typename T> __host__ __device__ T operator()(T a, T b) const { return a - b; }
};
struct cua_ep_mul {
	template <typename T> __host__ __device__ T operator()(T a, T b) const { return a * b; }
};
struct cua_ep_div {
	template <typename T> __host__ __device__ T operator()(T a, T b) const { return a / b; }
};
struct cua_ep_minb {
	template <typename T> __host__ __device__ T operator()(T a, T b) const
	{
		return b < a ? b : a;
	}
};
struct cua_ep_maxb {
	template <typename T> __host__ __device__ T operator()(T a, T b) const
	{
		return b > a ? b : a;
	}
};

/* ---- elementwise launchers ---- */

template <typename Acc, typename F, typename In, typename Out>
__global__ void ep_unary_kernel(int64_t n, F f, const In *x, Out *y)
{
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		y[i] = (Out)f((Acc)x[i]);
}

/* y[i] = f(x[i]), i < n (x == y is allowed: each element is read, then written). */
template <typename Acc, typename F, typename In, typename Out>
static inline void cua_ep_unary(int64_t n, F f, const In *x, Out *y, cudaStream_t stream)
{
	ep_unary_kernel<Acc><<<cua_blocks_1d(n, CUA_EP_THREADS), CUA_EP_THREADS, 0, stream>>>(
		n, f, x, y);
}

/* y[i] = f(a[i], v[(i / inner) % C]): with C = n, inner = 1 a plain binary op.
 * a == y is allowed (not restrict: each element is read, then written). */
template <typename Acc, typename F, typename InA, typename InV, typename Out>
__global__ void ep_bcast_kernel(int64_t n, int64_t C, int64_t inner, F f,
                                const InA *a, const InV *__restrict__ v, Out *y)
{
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		y[i] = (Out)f((Acc)a[i], (Acc)v[(i / inner) % C]);
}

template <typename Acc, typename F, typename InA, typename InV, typename Out>
static inline void cua_ep_bcast(int64_t n, int64_t C, int64_t inner, F f, const InA *a,
                                const InV *v, Out *y, cudaStream_t stream)
{
	ep_bcast_kernel<Acc><<<cua_blocks_1d(n, CUA_EP_THREADS), CUA_EP_THREADS, 0, stream>>>(
		n, C, inner, f, a, v, y);
}

/* y[i] = f(a[i], b[i]), i < n. */
template <typename Acc, typename F, typename InA, typename InB, typename Out>
static inline void cua_ep_binary(int64_t n, F f, const InA *a, const InB *b, Out *y,
                                 cudaStream_t stream)
{
	cua_ep_bcast<Acc>(n, n, 1, f, a, b, y, stream);
}

/* ---- reductions over a middle axis ---- */

enum cua_ep_red { CUA_EP_SUM, CUA_EP_MEAN, CUA_EP_MAX, CUA_EP_MIN, CUA_EP_LSE };

/* One thread per output (o, i): a loop over r in order. */
template <typename Acc, typename In, typename Out>
__global__ void ep_reduce_mid_kernel(enum cua_ep_red kind, const In *__restrict__ x,
                                     Out *__restrict__ y, int64_t outer, int64_t R,
                                     int64_t inner)
{
	const int64_t total = outer * inner;
	for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < total;
	     t += (int64_t)gridDim.x * blockDim.x) {
		const int64_t o = t / inner, i = t % inner;
		const In *xp = x + o * R * inner + i;
		Acc acc = (Acc)xp[0];
		if (kind == CUA_EP_SUM || kind == CUA_EP_MEAN) {
			for (int64_t r = 1; r < R; r++)
				acc += (Acc)xp[r * inner];
			if (kind == CUA_EP_MEAN)
				acc /= (Acc)R;
		} else {
			const bool lo = kind == CUA_EP_MIN;
			for (int64_t r = 1; r < R; r++) {
				const Acc v = (Acc)xp[r * inner];
				acc = lo ? (v < acc ? v : acc) : (v > acc ? v : acc);
			}
			if (kind == CUA_EP_LSE) {
				const Acc m = acc;
				Acc s = 0;
				for (int64_t r = 0; r < R; r++)
					s += cua_exp((Acc)xp[r * inner] - m);
				acc = m + cua_log(s);
			}
		}
		y[t] = (Out)acc;
	}
}

/* One block per row of [outer, R] (inner == 1). blockDim.x = CUA_ROW_THREADS. */
template <typename Acc, typename In, typename Out>
__global__ void ep_reduce_row_kernel(enum cua_ep_red kind, const In *__restrict__ x,
                                     Out *__restrict__ y, int64_t rows, int64_t R)
{
	for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
		const In *xr = x + row * R;
		Acc res;
		if (kind == CUA_EP_SUM || kind == CUA_EP_MEAN) {
			Acc s = cua_strided_sum<Acc>(xr, threadIdx.x, R, blockDim.x, cua_term_id());
			res = cua_block_sum(s);
			if (kind == CUA_EP_MEAN)
				res /= (Acc)R;
		} else if (kind == CUA_EP_MIN) {
			Acc m = (Acc)INFINITY;
			for (int64_t j = threadIdx.x; j < R; j += blockDim.x) {
				const Acc v = (Acc)xr[j];
				m = v < m ? v : m;
			}
			res = cua_block_reduce(m, cua_min_op(), (Acc)INFINITY);
		} else {
			Acc m = (Acc)-INFINITY;
			for (int64_t j = threadIdx.x; j < R; j += blockDim.x) {
				const Acc v = (Acc)xr[j];
				m = v > m ? v : m;
			}
			res = cua_block_max(m);
			if (kind == CUA_EP_LSE) {
				Acc s = 0;
				for (int64_t j = threadIdx.x; j < R; j += blockDim.x)
					s += cua_exp((Acc)xr[j] - res);
				res = res + cua_log(cua_block_sum(s));
			}
		}
		if (threadIdx.x == 0)
			y[row] = (Out)res;
	}
}

/* y[o, i] = kind-reduction over r of x[o, r, i]; see the header comment. */
template <typename Acc, typename In, typename Out>
static inline void cua_ep_reduce(enum cua_ep_red kind, const In *x, Out *y, int64_t outer,
                                 int64_t R, int64_t inner, cudaStream_t stream)
{
	if (inner == 1)
		ep_reduce_row_kernel<Acc, In, Out><<<cua_blocks_rows(outer), CUA_ROW_THREADS, 0,
		                                     stream>>>(kind, x, y, outer, R);
	else
		ep_reduce_mid_kernel<Acc, In, Out><<<cua_blocks_1d(outer * inner, CUA_EP_THREADS),
		                                     CUA_EP_THREADS, 0, stream>>>(kind, x, y, outer,
		                                                                  R, inner);
}

/* ---- softmax over a middle axis ---- */

template <typename Acc, typename In, typename Out>
__global__ void ep_softmax_mid_kernel(const In *__restrict__ x, Out *__restrict__ y,
                                      int64_t outer, int64_t R, int64_t inner)
{
	const int64_t total = outer * inner;
	for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < total;
	     t += (int64_t)gridDim.x * blockDim.x) {
		const int64_t o = t / inner, i = t % inner;
		const int64_t base = o * R * inner + i;
		Acc m = (Acc)x[base];
		for (int64_t r = 1; r < R; r++) {
			const Acc v = (Acc)x[base + r * inner];
			m = v > m ? v : m;
		}
		Acc s = 0;
		for (int64_t r = 0; r < R; r++)
			s += cua_exp((Acc)x[base + r * inner] - m);
		for (int64_t r = 0; r < R; r++)
			y[base + r * inner] = (Out)(cua_exp((Acc)x[base + r * inner] - m) / s);
	}
}

template <typename Acc, typename In, typename Out>
__global__ void ep_softmax_row_kernel(const In *__restrict__ x, Out *__restrict__ y,
                                      int64_t rows, int64_t R)
{
	for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
		const In *xr = x + row * R;
		Out *yr = y + row * R;
		Acc m = (Acc)-INFINITY;
		for (int64_t j = threadIdx.x; j < R; j += blockDim.x) {
			const Acc v = (Acc)xr[j];
			m = v > m ? v : m;
		}
		m = cua_block_max(m);
		Acc s = 0;
		for (int64_t j = threadIdx.x; j < R; j += blockDim.x)
			s += cua_exp((Acc)xr[j] - m);
		s = cua_block_sum(s);
		for (int64_t j = threadIdx.x; j < R; j += blockDim.x)
			yr[j] = (Out)(cua_exp((Acc)xr[j] - m) / s);
	}
}

/* y = softmax of x over r, x and y [outer, R, inner]. x != y. */
template <typename Acc, typename In, typename Out>
static inline void cua_ep_softmax(const In *x, Out *y, int64_t outer, int64_t R, int64_t inner,
                                  cudaStream_t stream)
{
	if (inner == 1)
		ep_softmax_row_kernel<Acc, In, Out><<<cua_blocks_rows(outer), CUA_ROW_THREADS, 0,
		                                      stream>>>(x, y, outer, R);
	else
		ep_softmax_mid_kernel<Acc, In, Out><<<cua_blocks_1d(outer * inner, CUA_EP_THREADS),
		                                      CUA_EP_THREADS, 0, stream>>>(x, y, outer, R,
		                                                                   inner);
}

/* ---- normalisations ---- */

/* One block per (n, g): the group is the contiguous slice of Cg·S elements. */
template <typename Acc, typename In, typename Out>
__global__ void ep_groupnorm_kernel(const In *__restrict__ x, const float *__restrict__ w,
                                    const float *__restrict__ b, Out *__restrict__ y, int64_t N,
                                    int64_t C, int64_t S, int64_t G, Acc eps)
{
	const int64_t Cg = C / G, D = Cg * S;
	for (int64_t r = blockIdx.x; r < N * G; r += gridDim.x) {
		const In *xr = x + r * D;
		Out *yr = y + r * D;
		const Acc mean = cua_block_sum(cua_strided_sum<Acc>(xr, threadIdx.x, D, blockDim.x,
		                                                    cua_term_id())) / (Acc)D;
		cua_term_centred_sq<Acc> csq;
		csq.mean = mean;
		const Acc var = cua_block_sum(cua_strided_sum<Acc>(xr, threadIdx.x, D, blockDim.x,
		                                                   csq)) / (Acc)D;
		const Acc rstd = Acc(1) / cua_sqrt(var + eps);
		const int64_t c0 = (r % G) * Cg;
		for (int64_t j = threadIdx.x; j < D; j += blockDim.x) {
			Acc v = ((Acc)xr[j] - mean) * rstd;
			if (w != NULL)
				v = v * (Acc)w[c0 + j / S] + (Acc)b[c0 + j / S];
			yr[j] = (Out)v;
		}
	}
}

template <typename Acc, typename In, typename Out>
static inline void cua_ep_groupnorm(const In *x, const float *w, const float *b, Out *y,
                                    int64_t N, int64_t C, int64_t S, int64_t G, double eps,
                                    cudaStream_t stream)
{
	ep_groupnorm_kernel<Acc, In, Out><<<cua_blocks_rows(N * G), CUA_NORM_THREADS, 0, stream>>>(
		x, w, b, y, N, C, S, G, (Acc)eps);
}

/* The elements of channel c of [N, C, S] in (n, s) order, as a strided view for
 * cua_strided_sum-like loops: element j is x[(j / S)·C·S + c·S + j % S]. */
template <typename Acc, typename In, typename F>
__device__ Acc ep_channel_sum(const In *__restrict__ x, int64_t c, int64_t N, int64_t C,
                              int64_t S, F f)
{
	const int64_t D = N * S;
	Acc total = 0;
	const int64_t span = (int64_t)CUA_SUM_CHUNK * blockDim.x;
	for (int64_t base = threadIdx.x; base < D; base += span) {
		const int64_t end = D - base < span ? D : base + span;
		Acc chunk = 0;
		for (int64_t j = base; j < end; j += blockDim.x)
			chunk += f((Acc)x[(j / S) * C * S + c * S + j % S]);
		total += chunk;
	}
	return cua_block_sum(total);
}

/* One block per channel c. */
template <typename Acc, typename In, typename Out>
__global__ void ep_batchnorm_train_kernel(const In *__restrict__ x, const float *__restrict__ w,
                                          const float *__restrict__ b, Out *__restrict__ y,
                                          int64_t N, int64_t C, int64_t S, Acc eps)
{
	const int64_t D = N * S;
	for (int64_t c = blockIdx.x; c < C; c += gridDim.x) {
		const Acc mean = ep_channel_sum<Acc>(x, c, N, C, S, cua_term_id()) / (Acc)D;
		cua_term_centred_sq<Acc> csq;
		csq.mean = mean;
		const Acc var = ep_channel_sum<Acc>(x, c, N, C, S, csq) / (Acc)D;
		const Acc scale = (Acc)w[c] / cua_sqrt(var + eps), shift = (Acc)b[c];
		for (int64_t j = threadIdx.x; j < D; j += blockDim.x) {
			const int64_t idx = (j / S) * C * S + c * S + j % S;
			y[idx] = (Out)(((Acc)x[idx] - mean) * scale + shift);
		}
	}
}

template <typename Acc, typename In, typename Out>
static inline void cua_ep_batchnorm_train(const In *x, const float *w, const float *b, Out *y,
                                          int64_t N, int64_t C, int64_t S, double eps,
                                          cudaStream_t stream)
{
	ep_batchnorm_train_kernel<Acc, In, Out><<<cua_blocks_rows(C), CUA_NORM_THREADS, 0,
	                                          stream>>>(x, w, b, y, N, C, S, (Acc)eps);
}

/* ---- appended: masked scale, two-vector broadcast, pooling over the last dim ----
 *     cua_ep_masked_scale{s}  f(a, keep) = keep ≠ 0 ? a·s : 0   (dropout with a
 *                             declared keep-mask, s = 1/(1 − p))
 *     cua_ep_bcast2(n, f, a, Ca, ia, v, Cv, iv, y)
 *                             y[i] = f(a[(i / ia) % Ca], v[(i / iv) % Cv])  (an outer
 *                             sum or product of two broadcast tensors)
 *     cua_ep_pool_last(max, x, y, rows, L, k)
 *                             x [rows, L] → y [rows, L/k] (floor): window j is
 *                             x[r, j·k .. j·k + k − 1] (kernel = stride = k, no
 *                             padding: MaxPool1d / AvgPool1d(k) on [rows, 1, L]);
 *                             max, or the window sum / k. */
struct cua_ep_masked_scale {
	double s;
	template <typename T> __host__ __device__ T operator()(T a, T keep) const
	{
		return keep != T(0) ? a * T(s) : T(0);
	}
};

template <typename Acc, typename F, typename InA, typename InV, typename Out>
__global__ void ep_bcast2_kernel(int64_t n, F f, const InA *__restrict__ a, int64_t Ca,
                                 int64_t ia, const InV *__restrict__ v, int64_t Cv, int64_t iv,
                                 Out *__restrict__ y)
{
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		y[i] = (Out)f((Acc)a[(i / ia) % Ca], (Acc)v[(i / iv) % Cv]);
}

template <typename Acc, typename F, typename InA, typename InV, typename Out>
static inline void cua_ep_bcast2(int64_t n, F f, const InA *a, int64_t Ca, int64_t ia,
                                 const InV *v, int64_t Cv, int64_t iv, Out *y,
                                 cudaStream_t stream)
{
	ep_bcast2_kernel<Acc><<<cua_blocks_1d(n, CUA_EP_THREADS), CUA_EP_THREADS, 0, stream>>>(
		n, f, a, Ca, ia, v, Cv, iv, y);
}

/* One thread per output window, in window order. */
template <typename Acc, typename In, typename Out>
__global__ void ep_pool_last_kernel(bool is_max, const In *__restrict__ x, Out *__restrict__ y,
                                    int64_t rows, int64_t L, int64_t k)
{
	const int64_t P = L / k, total = rows * P;
	for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < total;
	     t += (int64_t)gridDim.x * blockDim.x) {
		const In *w = x + (t / P) * L + (t % P) * k;
		Acc acc = (Acc)w[0];
		for (int64_t j = 1; j < k; j++) {
			const Acc v = (Acc)w[j];
			acc = is_max ? (v > acc ? v : acc) : acc + v;
		}
		y[t] = (Out)(is_max ? acc : acc / (Acc)k);
	}
}

/* L >= k >= 1. */
template <typename Acc, typename In, typename Out>
static inline void cua_ep_pool_last(bool is_max, const In *x, Out *y, int64_t rows, int64_t L,
                                    int64_t k, cudaStream_t stream)
{
	ep_pool_last_kernel<Acc, In, Out><<<cua_blocks_1d(rows * (L / k), CUA_EP_THREADS),
	                                    CUA_EP_THREADS, 0, stream>>>(is_max, x, y, rows, L, k);
}

#endif /* CUA_COMMON_EPILOGUE_CUH */
