/* net.cuh — Level 3 networks written once, run on three backends. Header-only.
 *
 * A task's network is a template over a backend B,
 *
 *     template <class B> static int forward(B &b, const struct cua_tensor *in, ...)
 *
 * instantiated three times:
 *     cua_net_naive   float activations, naive one-thread-per-output kernels: the
 *                     task's cua_solve (the nvcc baseline)
 *     cua_net_oracle  double activations from the same fp32 inputs and weights:
 *                     cua_oracle. Convolutions run on conv-oracle.cuh's tiled fp64
 *                     implicit GEMM and linears on gemm.cuh's tiled cua_gemm_f64, so
 *                     an oracle of the largest L3 CNN costs well under a second
 *     cua_net_lib     cuDNN / cuBLAS (baselines/cudnn/net-lib.cuh): the library
 *                     baseline
 * An op is a free function over the backend: a template here that every backend
 * gets (elementwise, pooling, BatchNorm...), and, where a backend computes it
 * differently, a plain overload for that backend type, which C++ prefers to the
 * template (conv2d and linear here for naive and oracle; net-lib.cuh overloads
 * what cuDNN does). Family-specific ops live in their own headers (net-seq.cuh:
 * RNN and attention) so nobody edits another family's file.
 *
 * Activations are struct cua_act<T> (T = B::T): NCHW or [rows, features],
 * contiguous device memory. An op allocates its output with cudaMallocAsync on
 * the backend's stream; the network frees what it no longer needs
 * (cua_net_free), and cua_net_finish frees whatever is left. A network's input
 * tensor is wrapped without a copy where T is float (not owned: ops never write
 * into an activation they do not own; in-place ops copy first).
 *
 * Ops follow PyTorch exactly:
 *     conv2d      stride, padding, dilation, groups, optional bias (zero padding)
 *     batchnorm   training-mode BatchNorm2d/1d: batch statistics per channel over
 *                 (N, H, W), biased variance, eps (1e-5 by default), then the
 *                 affine weight and bias; running statistics are not kept
 *     relu, relu6, add (optionally fused with ReLU), concat (channels), flatten
 *     maxpool2d / avgpool2d (floor mode; avg with count_include_pad, PyTorch's
 *                 default), adaptive_avgpool2d (PyTorch's floor/ceil windows)
 *     linear      y = x·Wᵀ + b, W [out, in] as nn.Linear stores it
 *     softmax     over the last dimension
 *     dropout     the identity: every KernelBench L3 dropout has p = 0.0, so the
 *                 identity is exact; p != 0 is refused (CUA_CHECK_E_PARAM)
 * Each returns 0 or a non-zero code (a negative cua_check_error, or a positive
 * cudaError_t); CUA_CHECK() returns it from the forward. */
#ifndef CUA_COMMON_NET_CUH
#define CUA_COMMON_NET_CUH

#include <math.h>
#include <string.h>
#include "check.cuh"
#include "conv-oracle.cuh"
#include "gemm.cuh"
#include "params.cuh"
#include "pool2d.cuh"
#include "rowreduce.cuh"

#define CUA_NET_MAX_LIVE 64     /* activations alive at once per forward */
#define CUA_NET_THREADS 256

/* ---- activations and backends ------------------------------------------------- */

template <typename T>
struct cua_act {
	T *p;
	int nd;                 /* 2 ([rows, features]), 3 or 4 (NCHW) */
	int64_t s[4];
	bool owned;             /* allocated by an op; freed by cua_net_free */
	int64_t numel() const
	{
		int64_t n = 1;
		for (int i = 0; i < nd; i++)
			n *= s[i];
		return n;
	}
	int64_t hw() const { return nd == 4 ? s[2] * s[3] : nd == 3 ? s[2] : 1; }
};

/* What every backend has: its stream and the activations it allocated. */
struct cua_net_base {
	cudaStream_t stream;
	void *live[CUA_NET_MAX_LIVE];
	int n_live;
};

struct cua_net_naive : cua_net_base {
	typedef float T;
};

struct cua_net_oracle : cua_net_base {
	typedef double T;
};

template <class B>
static inline void cua_net_start(B &b, cudaStream_t stream)
{
	memset((cua_net_base *)&b, 0, sizeof(cua_net_base));
	b.stream = stream;
}

static inline int cua_net_last_error(void)
{
	cudaError_t e = cudaGetLastError();
	return e == cudaSuccess ? 0 : (int)e;
}

/* A new owned activation of the given extents. */
template <class B>
static inline int cua_net_alloc(B &b, int nd, const int64_t *s, cua_act<typename B::T> *a)
{
	typedef typename B::T T;
	memset(a, 0, sizeof(*a));
	if (nd < 1 || nd > 4)
		return CUA_CHECK_E_NDIM;
	a->nd = nd;
	for (int i = 0; i < nd; i++) {
		if (s[i] < 1)
			return CUA_CHECK_E_SHAPE;
		a->s[i] = s[i];
	}
	if (b.n_live == CUA_NET_MAX_LIVE)
		return CUA_CHECK_E_COUNT;
	cudaError_t e = cudaMallocAsync((void **)&a->p, (size_t)a->numel() * sizeof(T), b.stream);
	if (e != cudaSuccess)
		return (int)e;
	a->owned = true;
	b.live[b.n_live++] = a->p;
	return 0;
}

template <class B>
static inline int cua_net_alloc4(B &b, int64_t n, int64_t c, int64_t h, int64_t w,
                                 cua_act<typename B::T> *a)
{
	const int64_t s[4] = {n, c, h, w};
	return cua_net_alloc(b, 4, s, a);
}

template <class B>
static inline int cua_net_alloc2(B &b, int64_t rows, int64_t cols, cua_act<typename B::T> *a)
{
	const int64_t s[2] = {rows, cols};
	return cua_net_alloc(b, 2, s, a);
}

/* Frees a (when owned) and clears it; a NULL or borrowed activation is a no-op. */
template <class B>
static inline void cua_net_free(B &b, cua_act<typename B::T> *a)
{
	if (a->owned && a->p) {
		for (int i = 0; i < b.n_live; i++)
			if (b.live[i] == a->p) {
				b.live[i] = b.live[--b.n_live];
				break;
			}
		cudaFreeAsync(a->p, b.stream);
	}
	memset(a, 0, sizeof(*a));
}

/* Frees everything still alive; rc passes through (use: return cua_net_finish(b, rc)). */
template <class B>
static inline int cua_net_finish(B &b, int rc)
{
	for (int i = 0; i < b.n_live; i++)
		cudaFreeAsync(b.live[i], b.stream);
	b.n_live = 0;
	int e = cua_net_last_error();
	return rc ? rc : e;
}

template <typename In, typename Out>
__global__ void net_convert_kernel(const In *__restrict__ x, Out *__restrict__ y, int64_t n)
{
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		y[i] = (Out)x[i];
}

/* The network's input: t (f32, rank nd, checked) as an activation. Borrowed
 * (no copy) where T is float; converted into an owned double copy for the oracle. */
template <class B>
static inline int cua_net_input(B &b, const struct cua_tensor *t, int nd,
                                cua_act<typename B::T> *a)
{
	typedef typename B::T T;
	memset(a, 0, sizeof(*a));
	CUA_CHECK(cua_check_tensor(t, CUA_F32, nd));
	if (nd > 4)
		return CUA_CHECK_E_NDIM;
	if constexpr (std::is_same<T, float>::value) {
		a->p = (float *)t->data;
		a->nd = nd;
		memcpy(a->s, t->shape, (size_t)nd * sizeof(int64_t));
		return 0;
	} else {
		CUA_CHECK(cua_net_alloc(b, nd, t->shape, a));
		const int64_t n = a->numel();
		net_convert_kernel<float, T><<<cua_blocks_1d(n, CUA_NET_THREADS), CUA_NET_THREADS, 0,
		                                b.stream>>>((const float *)t->data, a->p, n);
		return cua_net_last_error();
	}
}

/* Copies a into the task's output t, whose dtype is T's (f32 for cua_solve,
 * f64 for cua_oracle) and whose element count matches. */
template <class B>
static inline int cua_net_output(B &b, const cua_act<typename B::T> &a, struct cua_tensor *t)
{
	typedef typename B::T T;
	if (t->dtype != cua_dtype_of<T>::value)
		return CUA_CHECK_E_DTYPE;
	if (t->data == NULL)
		return CUA_CHECK_E_NULL;
	if (cua_numel(t) != a.numel())
		return CUA_CHECK_E_SHAPE;
	cudaError_t e = cudaMemcpyAsync(t->data, a.p, (size_t)a.numel() * sizeof(T),
	                                cudaMemcpyDeviceToDevice, b.stream);
	return e == cudaSuccess ? 0 : (int)e;
}

/* An owned copy of a, for an in-place op on a borrowed activation. */
template <class B>
static inline int cua_net_own(B &b, cua_act<typename B::T> *a)
{
	typedef typename B::T T;
	if (a->owned)
		return 0;
	cua_act<T> c;
	CUA_CHECK(cua_net_alloc(b, a->nd, a->s, &c));
	cudaError_t e = cudaMemcpyAsync(c.p, a->p, (size_t)a->numel() * sizeof(T),
	                                cudaMemcpyDeviceToDevice, b.stream);
	*a = c;
	return e == cudaSuccess ? 0 : (int)e;
}

/* ---- convolution -------------------------------------------------------------- */

/* Hyper-parameters of a conv2d; cua_conv() fills the common square case. */
struct cua_conv_p {
	int64_t F, KH, KW, SH, SW, PH, PW, DH, DW, G;
};

static inline struct cua_conv_p cua_conv(int64_t F, int64_t k, int64_t s = 1, int64_t p = 0,
                                         int64_t d = 1, int64_t g = 1)
{
	struct cua_conv_p c = {F, k, k, s, s, p, p, d, d, g};
	return c;
}

/* The full description (shapes included) of conv cp on x; checked. */
template <typename T>
static inline int cua_net_conv_desc(const cua_act<T> &x, const struct cua_conv_p &cp,
                                    struct cua_conv_oracle_desc *d)
{
	if (x.nd != 4)
		return CUA_CHECK_E_NDIM;
	memset(d, 0, sizeof(*d));
	d->transposed = false;
	d->N = x.s[0], d->C = x.s[1], d->H = x.s[2], d->W = x.s[3];
	d->F = cp.F, d->KH = cp.KH, d->KW = cp.KW;
	d->SH = cp.SH, d->SW = cp.SW, d->PH = cp.PH, d->PW = cp.PW;
	d->DH = cp.DH, d->DW = cp.DW, d->G = cp.G;
	d->OH = cua_conv_oracle_out(*d, d->H, d->KH, d->SH, d->PH, d->DH, 0);
	d->OW = cua_conv_oracle_out(*d, d->W, d->KW, d->SW, d->PW, d->DW, 0);
	return cua_conv_oracle_validate(*d);
}

/* One thread per output; a warp spans adjacent ow of one (n, f, oh), so the
 * weights are a broadcast and x loads are (strided) neighbours. Sums in c, kh,
 * kw order in T, the bias first. */
template <typename T>
__global__ void net_conv2d_naive_kernel(const T *__restrict__ x, const float *__restrict__ w,
                                        const float *__restrict__ bias, T *__restrict__ y,
                                        struct cua_conv_oracle_desc d)
{
	const int64_t total = d.N * d.F * d.OH * d.OW;
	const int64_t Cg = d.C / d.G, Fg = d.F / d.G;
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total;
	     i += (int64_t)gridDim.x * blockDim.x) {
		int64_t ow = i % d.OW, t = i / d.OW;
		int64_t oh = t % d.OH;
		t /= d.OH;
		int64_t f = t % d.F, n = t / d.F, g = f / Fg;
		T acc = bias ? (T)bias[f] : (T)0;
		const T *xg = x + (n * d.C + g * Cg) * d.H * d.W;
		const float *wf = w + f * Cg * d.KH * d.KW;
		for (int64_t c = 0; c < Cg; c++) {
			for (int64_t kh = 0; kh < d.KH; kh++) {
				int64_t ih = oh * d.SH - d.PH + kh * d.DH;
				if (ih < 0 || ih >= d.H)
					continue;
				for (int64_t kw = 0; kw < d.KW; kw++) {
					int64_t iw = ow * d.SW - d.PW + kw * d.DW;
					if (iw < 0 || iw >= d.W)
						continue;
					acc += xg[(c * d.H + ih) * d.W + iw] *
					       (T)wf[(c * d.KH + kh) * d.KW + kw];
				}
			}
		}
		y[i] = acc;
	}
}

/* y = conv2d(x, w) + bias: w [F, C/G, KH, KW] and bias [F] (or NULL) from params. */
static inline int cua_net_conv2d(cua_net_naive &b, const cua_act<float> &x, const float *w,
                                 const float *bias, const struct cua_conv_p &cp,
                                 cua_act<float> *y)
{
	struct cua_conv_oracle_desc d;
	if (!w)
		return CUA_CHECK_E_NULL;
	CUA_CHECK(cua_net_conv_desc(x, cp, &d));
	CUA_CHECK(cua_net_alloc4(b, d.N, d.F, d.OH, d.OW, y));
	net_conv2d_naive_kernel<float><<<cua_blocks_1d(y->numel(), CUA_NET_THREADS),
	                                 CUA_NET_THREADS, 0, b.stream>>>(x.p, w, bias, y->p, d);
	return cua_net_last_error();
}

static inline int cua_net_conv2d(cua_net_oracle &b, const cua_act<double> &x, const float *w,
                                 const float *bias, const struct cua_conv_p &cp,
                                 cua_act<double> *y)
{
	struct cua_conv_oracle_desc d;
	if (!w)
		return CUA_CHECK_E_NULL;
	CUA_CHECK(cua_net_conv_desc(x, cp, &d));
	CUA_CHECK(cua_net_alloc4(b, d.N, d.F, d.OH, d.OW, y));
	cua_conv_oracle<double>(x.p, w, bias, y->p, d, b.stream);
	return cua_net_last_error();
}

/* ---- linear ------------------------------------------------------------------- */

template <typename T>
__global__ void net_bias_rows_kernel(T *__restrict__ y, const float *__restrict__ bias,
                                     int64_t rows, int64_t cols)
{
	const int64_t n = rows * cols;
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		y[i] += (T)bias[i % cols];
}

/* Checks x [rows, in] (a 4-D x must be flattened first) and allocates y [rows, out]. */
template <class B>
static inline int cua_net_linear_prep(B &b, const cua_act<typename B::T> &x, const float *w,
                                      int64_t out, cua_act<typename B::T> *y)
{
	if (!w)
		return CUA_CHECK_E_NULL;
	if (x.nd != 2)
		return CUA_CHECK_E_NDIM;
	return cua_net_alloc2(b, x.s[0], out, y);
}

/* y [rows, out] = x [rows, in] · wᵀ + bias; w [out, in] (nn.Linear), bias [out] or NULL. */
static inline int cua_net_linear(cua_net_naive &b, const cua_act<float> &x, const float *w,
                                 const float *bias, int64_t out, cua_act<float> *y)
{
	CUA_CHECK(cua_net_linear_prep(b, x, w, out, y));
	const struct cua_gemm_desc d = cua_gemm_desc_packed(x.s[0], out, x.s[1], false, true);
	cua_gemm_naive_dot<float, float, float>(x.p, w, y->p, d, 1.0f, b.stream);
	if (bias)
		net_bias_rows_kernel<float><<<cua_blocks_1d(y->numel(), CUA_NET_THREADS),
		                              CUA_NET_THREADS, 0, b.stream>>>(y->p, bias, x.s[0], out);
	return cua_net_last_error();
}

static inline int cua_net_linear(cua_net_oracle &b, const cua_act<double> &x, const float *w,
                                 const float *bias, int64_t out, cua_act<double> *y)
{
	CUA_CHECK(cua_net_linear_prep(b, x, w, out, y));
	const struct cua_gemm_desc d = cua_gemm_desc_packed(x.s[0], out, x.s[1], false, true);
	cua_gemm_f64<double, float, double>(x.p, w, y->p, d, 1.0, b.stream);
	if (bias)
		net_bias_rows_kernel<double><<<cua_blocks_1d(y->numel(), CUA_NET_THREADS),
		                               CUA_NET_THREADS, 0, b.stream>>>(y->p, bias, x.s[0], out);
	return cua_net_last_error();
}

/* ---- elementwise -------------------------------------------------------------- */

enum cua_net_act { CUA_NET_NONE = 0, CUA_NET_RELU = 1, CUA_NET_RELU6 = 2 };

template <typename T>
__device__ __forceinline__ T net_activate(T v, int act)
{
	if (act == CUA_NET_RELU)
		return v > (T)0 ? v : (T)0;
	if (act == CUA_NET_RELU6)
		return v < (T)0 ? (T)0 : v > (T)6 ? (T)6 : v;
	return v;
}

/* a = act(a (+ r)); r NULL for a plain activation. */
template <typename T>
__global__ void net_eltwise_kernel(T *__restrict__ a, const T *__restrict__ r, int64_t n, int act)
{
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		a[i] = net_activate(r ? a[i] + r[i] : a[i], act);
}

/* In place: a = act(a). */
template <class B>
static inline int cua_net_activate(B &b, cua_act<typename B::T> *a, int act)
{
	CUA_CHECK(cua_net_own(b, a));
	net_eltwise_kernel<typename B::T><<<cua_blocks_1d(a->numel(), CUA_NET_THREADS),
	                                    CUA_NET_THREADS, 0, b.stream>>>(a->p, NULL, a->numel(),
	                                                                    act);
	return cua_net_last_error();
}

template <class B>
static inline int cua_net_relu(B &b, cua_act<typename B::T> *a)
{
	return cua_net_activate(b, a, CUA_NET_RELU);
}

template <class B>
static inline int cua_net_relu6(B &b, cua_act<typename B::T> *a)
{
	return cua_net_activate(b, a, CUA_NET_RELU6);
}

/* In place: a = act(a + r), r of a's extents (a residual connection). */
template <class B>
static inline int cua_net_add(B &b, cua_act<typename B::T> *a, const cua_act<typename B::T> &r,
                              int act = CUA_NET_NONE)
{
	if (a->numel() != r.numel() || a->nd != r.nd)
		return CUA_CHECK_E_SHAPE;
	CUA_CHECK(cua_net_own(b, a));
	net_eltwise_kernel<typename B::T><<<cua_blocks_1d(a->numel(), CUA_NET_THREADS),
	                                    CUA_NET_THREADS, 0, b.stream>>>(a->p, r.p, a->numel(),
	                                                                    act);
	return cua_net_last_error();
}

/* Dropout in evaluation of a KernelBench model: p must be 0 (see the top). */
template <class B>
static inline int cua_net_dropout(B &b, cua_act<typename B::T> *a, double p)
{
	return p == 0.0 ? 0 : CUA_CHECK_E_PARAM;
}

/* [N, C, H, W] -> [N, C·H·W], no copy (torch.flatten(x, 1)). */
template <typename T>
static inline void cua_net_flatten(cua_act<T> *a)
{
	const int64_t n = a->s[0], rest = a->numel() / a->s[0];
	a->nd = 2;
	a->s[0] = n;
	a->s[1] = rest;
	a->s[2] = a->s[3] = 0;
}

/* ---- BatchNorm (batch statistics) --------------------------------------------- */

/* One block per channel: mean, then the centred (biased) variance, then
 * y = (x - mean) / sqrt(var + eps) · gamma + beta, in place. Sums in T, per
 * thread then across the block. */
template <typename T>
__global__ void net_batchnorm_kernel(T *__restrict__ x, const float *__restrict__ gamma,
                                     const float *__restrict__ beta, int64_t N, int64_t C,
                                     int64_t HW, double eps)
{
	for (int64_t c = blockIdx.x; c < C; c += gridDim.x) {
		const int64_t count = N * HW;
		T s = 0;
		for (int64_t j = threadIdx.x; j < count; j += blockDim.x)
			s += x[((j / HW) * C + c) * HW + j % HW];
		const T mean = cua_block_sum(s) / (T)count;
		T q = 0;
		for (int64_t j = threadIdx.x; j < count; j += blockDim.x) {
			T v = x[((j / HW) * C + c) * HW + j % HW] - mean;
			q += v * v;
		}
		const T var = cua_block_sum(q) / (T)count;
		const T scale = (T)gamma[c] / sqrt(var + (T)eps), shift = (T)beta[c] - mean * scale;
		for (int64_t j = threadIdx.x; j < count; j += blockDim.x) {
			T *p = &x[((j / HW) * C + c) * HW + j % HW];
			*p = *p * scale + shift;
		}
		__syncthreads();
	}
}

/* In place on x [N, C, H, W] (or [N, C]): BatchNorm with batch statistics;
 * gamma and beta [C] from params; then act. */
template <class B>
static inline int cua_net_batchnorm(B &b, cua_act<typename B::T> *x, const float *gamma,
                                    const float *beta, int act = CUA_NET_NONE,
                                    double eps = 1e-5)
{
	if (!gamma || !beta)
		return CUA_CHECK_E_NULL;
	if (x->nd < 2)
		return CUA_CHECK_E_NDIM;
	CUA_CHECK(cua_net_own(b, x));
	const int64_t C = x->s[1];
	net_batchnorm_kernel<typename B::T><<<cua_blocks_yz(C, 1), CUA_NET_THREADS, 0, b.stream>>>(
		x->p, gamma, beta, x->s[0], C, x->hw(), eps);
	CUA_CHECK(cua_net_last_error());
	return act ? cua_net_activate(b, x, act) : 0;
}

/* ---- pooling ------------------------------------------------------------------ */

template <typename T>
static inline int net_pool_desc(const cua_act<T> &x, int64_t k, int64_t s, int64_t p,
                                bool include_pad, struct cua_pool2d_desc *d)
{
	if (x.nd != 4)
		return CUA_CHECK_E_NDIM;
	d->N = x.s[0], d->C = x.s[1], d->H = x.s[2], d->W = x.s[3];
	d->KH = d->KW = k;
	d->SH = d->SW = s;
	d->PH = d->PW = p;
	d->DH = d->DW = 1;
	d->count_include_pad = include_pad;
	d->OH = cua_pool_out_size(d->H, k, s, p, 1);
	d->OW = cua_pool_out_size(d->W, k, s, p, 1);
	return cua_pool2d_validate(*d);
}

/* y = max_pool2d(x, k, stride s, padding p) (floor mode). */
template <class B>
static inline int cua_net_maxpool2d(B &b, const cua_act<typename B::T> &x, int64_t k, int64_t s,
                                    int64_t p, cua_act<typename B::T> *y)
{
	typedef typename B::T T;
	struct cua_pool2d_desc d;
	CUA_CHECK(net_pool_desc(x, k, s, p, false, &d));
	CUA_CHECK(cua_net_alloc4(b, d.N, d.C, d.OH, d.OW, y));
	cua_maxpool2d<T, T, T>(x.p, y->p, d, b.stream);
	return cua_net_last_error();
}

/* y = avg_pool2d(x, k, s, p) with count_include_pad (PyTorch's default). */
template <class B>
static inline int cua_net_avgpool2d(B &b, const cua_act<typename B::T> &x, int64_t k, int64_t s,
                                    int64_t p, cua_act<typename B::T> *y)
{
	typedef typename B::T T;
	struct cua_pool2d_desc d;
	CUA_CHECK(net_pool_desc(x, k, s, p, true, &d));
	CUA_CHECK(cua_net_alloc4(b, d.N, d.C, d.OH, d.OW, y));
	cua_avgpool2d<T, T, T>(x.p, y->p, d, b.stream);
	return cua_net_last_error();
}

/* PyTorch's adaptive windows: [floor(i·H/OH), ceil((i+1)·H/OH)). */
template <typename T>
__global__ void net_adaptive_avg_kernel(const T *__restrict__ x, T *__restrict__ y, int64_t NC,
                                        int64_t H, int64_t W, int64_t OH, int64_t OW)
{
	const int64_t total = NC * OH * OW;
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total;
	     i += (int64_t)gridDim.x * blockDim.x) {
		int64_t ow = i % OW, t = i / OW, oh = t % OH, nc = t / OH;
		int64_t h0 = oh * H / OH, h1 = ((oh + 1) * H + OH - 1) / OH;
		int64_t w0 = ow * W / OW, w1 = ((ow + 1) * W + OW - 1) / OW;
		const T *xp = x + nc * H * W;
		T s = 0;
		for (int64_t h = h0; h < h1; h++)
			for (int64_t w = w0; w < w1; w++)
				s += xp[h * W + w];
		y[i] = s / (T)((h1 - h0) * (w1 - w0));
	}
}

/* y [N, C, OH, OW] = adaptive_avg_pool2d(x, (OH, OW)). */
template <class B>
static inline int cua_net_adaptive_avgpool2d(B &b, const cua_act<typename B::T> &x, int64_t OH,
                                             int64_t OW, cua_act<typename B::T> *y)
{
	if (x.nd != 4)
		return CUA_CHECK_E_NDIM;
	if (OH < 1 || OW < 1)
		return CUA_CHECK_E_PARAM;
	CUA_CHECK(cua_net_alloc4(b, x.s[0], x.s[1], OH, OW, y));
	net_adaptive_avg_kernel<typename B::T><<<cua_blocks_1d(y->numel(), CUA_NET_THREADS),
	                                         CUA_NET_THREADS, 0, b.stream>>>(
		x.p, y->p, x.s[0] * x.s[1], x.s[2], x.s[3], OH, OW);
	return cua_net_last_error();
}

/* ---- concat and softmax ------------------------------------------------------- */

/* y = cat(xs[0..n), dim=1): every x of one rank and equal extents but dim 1. */
template <class B>
static inline int cua_net_concat(B &b, const cua_act<typename B::T> *xs, int n,
                                 cua_act<typename B::T> *y)
{
	typedef typename B::T T;
	if (n < 1)
		return CUA_CHECK_E_COUNT;
	int64_t s[4];
	memcpy(s, xs[0].s, sizeof(s));
	s[1] = 0;
	for (int i = 0; i < n; i++) {
		if (xs[i].nd != xs[0].nd || xs[i].s[0] != xs[0].s[0] || xs[i].hw() != xs[0].hw())
			return CUA_CHECK_E_SHAPE;
		s[1] += xs[i].s[1];
	}
	CUA_CHECK(cua_net_alloc(b, xs[0].nd, s, y));
	const int64_t inner = xs[0].hw();
	int64_t at = 0;
	for (int i = 0; i < n; i++) {
		const size_t width = (size_t)(xs[i].s[1] * inner) * sizeof(T);
		cudaError_t e = cudaMemcpy2DAsync(y->p + at * inner, (size_t)(s[1] * inner) * sizeof(T),
		                                  xs[i].p, width, width, (size_t)s[0],
		                                  cudaMemcpyDeviceToDevice, b.stream);
		if (e != cudaSuccess)
			return (int)e;
		at += xs[i].s[1];
	}
	return 0;
}

/* One block per row: max, Σ exp(x - max), then the quotient. */
template <typename T>
__global__ void net_softmax_kernel(T *__restrict__ x, int64_t rows, int64_t cols)
{
	for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
		T *row = x + r * cols;
		T m = (T)-INFINITY;
		for (int64_t j = threadIdx.x; j < cols; j += blockDim.x)
			m = row[j] > m ? row[j] : m;
		m = cua_block_max(m);
		T s = 0;
		for (int64_t j = threadIdx.x; j < cols; j += blockDim.x)
			s += exp(row[j] - m);
		s = cua_block_sum(s);
		for (int64_t j = threadIdx.x; j < cols; j += blockDim.x)
			row[j] = exp(row[j] - m) / s;
		__syncthreads();
	}
}

/* In place: softmax over the last dimension. */
template <class B>
static inline int cua_net_softmax(B &b, cua_act<typename B::T> *a)
{
	CUA_CHECK(cua_net_own(b, a));
	const int64_t cols = a->s[a->nd - 1], rows = a->numel() / cols;
	net_softmax_kernel<typename B::T><<<cua_blocks_rows(rows), CUA_NET_THREADS, 0, b.stream>>>(
		a->p, rows, cols);
	return cua_net_last_error();
}

/* ---- the entry points ----------------------------------------------------------- */

/* cua_solve and cua_oracle of a reference.cu whose network is
 * `template <class B> static int FORWARD(B &b, const struct cua_tensor *in, int n_in,
 *  struct cua_tensor *out, int n_out)`: each runs it on its backend and frees what
 * it left. (The library baseline does the same with cua_net_lib.) */
#define CUA_NET_ENTRY_POINTS(FORWARD)                                                     \
	extern "C" CUA_EXPORT int cua_solve(const struct cua_tensor *in, int n_in,            \
	                                    struct cua_tensor *out, int n_out,                \
	                                    cudaStream_t stream)                              \
	{                                                                                     \
		cua_net_naive b;                                                                  \
		cua_net_start(b, stream);                                                         \
		return cua_net_finish(b, FORWARD(b, in, n_in, out, n_out));                       \
	}                                                                                     \
	extern "C" CUA_EXPORT int cua_oracle(const struct cua_tensor *in, int n_in,           \
	                                     struct cua_tensor *out, int n_out,               \
	                                     cudaStream_t stream)                             \
	{                                                                                     \
		cua_net_oracle b;                                                                 \
		cua_net_start(b, stream);                                                         \
		return cua_net_finish(b, FORWARD(b, in, n_in, out, n_out));                       \
	}

#endif /* CUA_COMMON_NET_CUH */
