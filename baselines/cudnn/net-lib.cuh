/* net-lib.cuh — the library backend of tasks/common/net.cuh: a Level 3 network on
 * cuDNN and cuBLAS, in strict fp32, as PyTorch eager runs it. Header-only; a
 * baseline is its task's forward (the same template as the reference's) plus
 * CUA_NET_LIB_ENTRY_POINT(forward).
 *
 *     conv2d      cudnnConvolutionForward, CUDNN_FMA_MATH, the algorithm chosen by
 *                 measurement (cudnnFindConvolutionForwardAlgorithmEx on the first
 *                 call per shape, tensor-op results and fp32-inaccurate Winograd
 *                 for filters over 3 skipped: algo-common.cuh), one cached plan
 *                 per shape (conv-common.cuh with CONV_MAX_PLANS raised); the bias
 *                 as its own kernel, as eager adds it
 *     batchnorm   cudnnBatchNormalizationForwardTraining, spatial mode: batch
 *                 statistics, no running averages kept
 *     max/avg pooling  cudnnPoolingForward (deterministic max; average counting
 *                 the padding, PyTorch's default)
 *     relu, relu6 cudnnActivationForward (RELU; CLIPPED_RELU at 6)
 *     softmax     cudnnSoftmaxForward (accurate, per instance over the last dim)
 *     linear      cublasSgemm, CUBLAS_DEFAULT_MATH (no TF32), then the bias
 * and net.cuh's own kernels for the rest (residual add, concat, adaptive pooling).
 * Nothing is set up per call: the handles, every descriptor (per shape or setting:
 * net_lib_cached) and every convolution's plan are made on the first call that needs
 * them and kept, and the activations come from a pool that keeps its memory
 * (../common/mempool-common.cuh), so a call after the first at a shape only enqueues.
 * Define CUA_NET_LIB_NO_CUDNN before including it for a cuBLAS-only baseline
 * (the MLPs, baselines/cublas/l3-NNN.cu): conv and the cuDNN ops are left out.
 * Every status is checked; failures return non-zero, never abort. */
#ifndef BASELINES_CUDNN_NET_LIB_CUH
#define BASELINES_CUDNN_NET_LIB_CUH

#include <cublas_v2.h>
#include "../common/mempool-common.cuh"
#include "net.cuh"
#ifndef CUA_NET_LIB_NO_CUDNN
#define CONV_MAX_PLANS 256         /* every conv shape of a network stays planned */
#include "conv-common.cuh"
#endif

struct cua_net_lib : cua_net_base {
	typedef float T;
};

/* Handles made on the first call (the harness warms up before timing), kept for the
 * life of the process. */
static cublasHandle_t net_blas;

static inline int net_lib_blas(cudaStream_t stream)
{
	cublasStatus_t st;
	if (net_blas == NULL) {
		cublasHandle_t h;
		if ((st = cublasCreate(&h)) != CUBLAS_STATUS_SUCCESS)
			return (int)st;
		if ((st = cublasSetMathMode(h, CUBLAS_DEFAULT_MATH)) != CUBLAS_STATUS_SUCCESS) {
			cublasDestroy(h);
			return (int)st;
		}
		net_blas = h;
	}
	return (int)cublasSetStream(net_blas, stream);
}

/* y [rows, out] = x·wᵀ + bias. cuBLAS is column-major: yᵀ [out, rows] = w·xᵀ, with
 * w stored [out, in] row-major = column-major [in, out] (op T) and x [rows, in]
 * row-major = column-major xᵀ [in, rows] (op N). */
static inline int cua_net_linear(cua_net_lib &b, const cua_act<float> &x, const float *w,
                                 const float *bias, int64_t out, cua_act<float> *y)
{
	CUA_CHECK(cua_net_linear_prep(b, x, w, out, y));
	const int64_t rows = x.s[0], in = x.s[1];
	if (rows > INT32_MAX || in > INT32_MAX || out > INT32_MAX)
		return CUA_CHECK_E_SHAPE;
	CUA_CHECK(net_lib_blas(b.stream));
	const float one = 1.0f, zero = 0.0f;
	cublasStatus_t st = cublasSgemm(net_blas, CUBLAS_OP_T, CUBLAS_OP_N, (int)out, (int)rows,
	                                (int)in, &one, w, (int)in, x.p, (int)in, &zero, y->p,
	                                (int)out);
	if (st != CUBLAS_STATUS_SUCCESS)
		return (int)st;
	if (bias)
		net_bias_rows_kernel<float><<<cua_blocks_1d(y->numel(), CUA_NET_THREADS),
		                              CUA_NET_THREADS, 0, b.stream>>>(y->p, bias, rows, out);
	return cua_net_last_error();
}

#ifndef CUA_NET_LIB_NO_CUDNN

static inline int net_lib_dnn(cudaStream_t stream)
{
	if (conv_handle == NULL) {
		cudnnHandle_t h;
		cudnnStatus_t st = cudnnCreate(&h);
		if (st != CUDNN_STATUS_SUCCESS)
			return (int)st;
		conv_handle = h;
	}
	return (int)cudnnSetStream(conv_handle, stream);
}

/* ---- descriptors, made once per shape or setting ---- */

#define NET_LIB_DESCS 256   /* of each kind: more than any network's distinct shapes */

/* What a descriptor is made for, compared bytewise (every entry set). */
struct net_lib_key {
	int64_t v[4];
};

/* A least-recently-used cache of one kind of cuDNN descriptor. */
template <class Desc>
struct net_lib_cache {
	struct net_lib_key key[NET_LIB_DESCS];
	Desc desc[NET_LIB_DESCS];   /* NULL: unused */
	uint64_t last[NET_LIB_DESCS];
	uint64_t tick;
};

/* The descriptor c holds for k, or one made by make(&desc) (int make(Desc *)) in c's
 * first free or least recently used entry, whose descriptor drop(desc) destroys: a
 * descriptor the caller got just before is the most recent one, so never the victim.
 * Kept for the life of the process; 0 or make's status. */
template <class Desc, class Make, class Drop>
static inline int net_lib_cached(net_lib_cache<Desc> &c, const struct net_lib_key &k, Make make,
                                 Drop drop, Desc *out)
{
	int victim = 0;
	for (int i = 0; i < NET_LIB_DESCS; i++) {
		if (c.desc[i] && !memcmp(&c.key[i], &k, sizeof(k))) {
			c.last[i] = ++c.tick;
			*out = c.desc[i];
			return 0;
		}
		if (c.desc[victim] && (!c.desc[i] || c.last[i] < c.last[victim]))
			victim = i;
	}
	if (c.desc[victim]) {
		drop(c.desc[victim]);
		c.desc[victim] = NULL;
	}
	Desc d = NULL;
	int rc = make(&d);
	if (rc) {
		if (d)
			drop(d);
		return rc;
	}
	c.key[victim] = k;
	c.desc[victim] = d;
	c.last[victim] = ++c.tick;
	*out = d;
	return 0;
}

static net_lib_cache<cudnnTensorDescriptor_t> net_lib_tensors, net_lib_bn_params;
static net_lib_cache<cudnnActivationDescriptor_t> net_lib_acts;
static net_lib_cache<cudnnPoolingDescriptor_t> net_lib_pools;

static inline void net_lib_drop_tensor(cudnnTensorDescriptor_t d)
{
	cudnnDestroyTensorDescriptor(d);
}

/* The packed 4-D NCHW float descriptor of extents s. */
static inline int net_lib_tensor4(const int64_t *s, cudnnTensorDescriptor_t *d)
{
	struct net_lib_key k;
	for (int i = 0; i < 4; i++) {
		if (s[i] < 1 || s[i] > INT32_MAX)
			return CUA_CHECK_E_SHAPE;
		k.v[i] = s[i];
	}
	auto make = [&k](cudnnTensorDescriptor_t *t) {
		cudnnStatus_t st = cudnnCreateTensorDescriptor(t);
		if (st == CUDNN_STATUS_SUCCESS)
			st = cudnnSetTensor4dDescriptor(*t, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT,
			                                (int)k.v[0], (int)k.v[1], (int)k.v[2],
			                                (int)k.v[3]);
		return (int)st;
	};
	return net_lib_cached(net_lib_tensors, k, make, net_lib_drop_tensor, d);
}

/* The descriptor of a (a 2-D [N, F] as [N, F, 1, 1]). */
static inline int net_lib_desc(const cua_act<float> &a, cudnnTensorDescriptor_t *d)
{
	const int64_t s[4] = {a.s[0], a.nd > 1 ? a.s[1] : 1, a.nd > 2 ? a.s[2] : 1,
	                      a.nd > 3 ? a.s[3] : 1};
	return net_lib_tensor4(s, d);
}

/* a's descriptor and its spatial BatchNorm parameters' ([1, C, 1, 1]). */
static inline int net_lib_bn_descs(const cua_act<float> &a, cudnnTensorDescriptor_t *td,
                                   cudnnTensorDescriptor_t *bd)
{
	CUA_CHECK(net_lib_desc(a, td));
	const struct net_lib_key k = {{a.s[0], a.nd > 1 ? a.s[1] : 1, a.nd > 2 ? a.s[2] : 1,
	                               a.nd > 3 ? a.s[3] : 1}};
	const cudnnTensorDescriptor_t x = *td;
	auto make = [x](cudnnTensorDescriptor_t *t) {
		cudnnStatus_t st = cudnnCreateTensorDescriptor(t);
		if (st == CUDNN_STATUS_SUCCESS)
			st = cudnnDeriveBNTensorDescriptor(*t, x, CUDNN_BATCHNORM_SPATIAL);
		return (int)st;
	};
	return net_lib_cached(net_lib_bn_params, k, make, net_lib_drop_tensor, bd);
}

/* The activation descriptor of mode with coefficient coef (NaN not propagated). */
static inline int net_lib_act_desc(cudnnActivationMode_t mode, double coef,
                                   cudnnActivationDescriptor_t *d)
{
	int64_t bits;
	memcpy(&bits, &coef, sizeof(bits));
	const struct net_lib_key k = {{(int64_t)mode, bits, 0, 0}};
	auto make = [mode, coef](cudnnActivationDescriptor_t *a) {
		cudnnStatus_t st = cudnnCreateActivationDescriptor(a);
		if (st == CUDNN_STATUS_SUCCESS)
			st = cudnnSetActivationDescriptor(*a, mode, CUDNN_NOT_PROPAGATE_NAN, coef);
		return (int)st;
	};
	auto drop = [](cudnnActivationDescriptor_t a) { cudnnDestroyActivationDescriptor(a); };
	return net_lib_cached(net_lib_acts, k, make, drop, d);
}

/* a = f(a) in place by cudnnActivationForward (mode, coef). */
static inline int net_lib_act_forward(cua_net_lib &b, cua_act<float> *a,
                                      cudnnActivationMode_t mode, double coef)
{
	cudnnActivationDescriptor_t ad;
	cudnnTensorDescriptor_t td;
	CUA_CHECK(cua_net_own(b, a));
	CUA_CHECK(net_lib_dnn(b.stream));
	CUA_CHECK(net_lib_act_desc(mode, coef, &ad));
	CUA_CHECK(net_lib_desc(*a, &td));
	const float one = 1.0f, zero = 0.0f;
	int rc = (int)cudnnActivationForward(conv_handle, ad, &one, td, a->p, &zero, td, a->p);
	return rc ? rc : cua_net_last_error();
}

template <typename T>
__global__ void net_bias_channels_kernel(T *__restrict__ y, const float *__restrict__ bias,
                                         int64_t n, int64_t C, int64_t HW)
{
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		y[i] += (T)bias[(i / HW) % C];
}

static inline int cua_net_conv2d(cua_net_lib &b, const cua_act<float> &x, const float *w,
                                 const float *bias, const struct cua_conv_p &cp,
                                 cua_act<float> *y)
{
	struct cua_conv_oracle_desc d;
	struct conv_spec sp;
	if (!w)
		return CUA_CHECK_E_NULL;
	CUA_CHECK(cua_net_conv_desc(x, cp, &d));
	CUA_CHECK(cua_net_alloc4(b, d.N, d.F, d.OH, d.OW, y));
	memset(&sp, 0, sizeof(sp));
	sp.nsp = 2;
	sp.k[0] = (int)d.KH, sp.k[1] = (int)d.KW;
	sp.s[0] = (int)d.SH, sp.s[1] = (int)d.SW;
	sp.p[0] = (int)d.PH, sp.p[1] = (int)d.PW;
	sp.d[0] = (int)d.DH, sp.d[1] = (int)d.DW;
	sp.groups = (int)d.G;
	const int64_t ws[4] = {d.F, d.C / d.G, d.KH, d.KW};
	CUA_CHECK(conv_forward_raw(&sp, x.s, x.p, ws, w, y->s, y->p, b.stream));
	if (bias)
		net_bias_channels_kernel<float><<<cua_blocks_1d(y->numel(), CUA_NET_THREADS),
		                                  CUA_NET_THREADS, 0, b.stream>>>(
			y->p, bias, y->numel(), d.F, d.OH * d.OW);
	return cua_net_last_error();
}

static inline int net_lib_activate(cua_net_lib &b, cua_act<float> *a, int act)
{
	if (act == CUA_NET_NONE)
		return 0;
	return act == CUA_NET_RELU6 ? net_lib_act_forward(b, a, CUDNN_ACTIVATION_CLIPPED_RELU, 6.0)
	                            : net_lib_act_forward(b, a, CUDNN_ACTIVATION_RELU, 0.0);
}

static inline int cua_net_relu(cua_net_lib &b, cua_act<float> *a)
{
	return net_lib_activate(b, a, CUA_NET_RELU);
}

static inline int cua_net_relu6(cua_net_lib &b, cua_act<float> *a)
{
	return net_lib_activate(b, a, CUA_NET_RELU6);
}

/* Batch-statistics BatchNorm into a new tensor (cuDNN's x and y are distinct). */
static inline int cua_net_batchnorm(cua_net_lib &b, cua_act<float> *x, const float *gamma,
                                    const float *beta, int act = CUA_NET_NONE,
                                    double eps = 1e-5)
{
	cudnnTensorDescriptor_t td, bd;
	cua_act<float> y;
	if (!gamma || !beta)
		return CUA_CHECK_E_NULL;
	if (x->nd < 2)
		return CUA_CHECK_E_NDIM;
	CUA_CHECK(net_lib_dnn(b.stream));
	CUA_CHECK(net_lib_bn_descs(*x, &td, &bd));
	CUA_CHECK(cua_net_alloc(b, x->nd, x->s, &y));
	const float one = 1.0f, zero = 0.0f;
	int rc = (int)cudnnBatchNormalizationForwardTraining(
		conv_handle, CUDNN_BATCHNORM_SPATIAL, &one, &zero, td, x->p, td, y.p, bd, gamma, beta,
		0.0, NULL, NULL, eps, NULL, NULL);
	if (rc) {
		cua_net_free(b, &y);
		return rc;
	}
	cua_net_free(b, x);
	*x = y;
	CUA_CHECK(cua_net_last_error());
	return net_lib_activate(b, x, act);
}

/* The pooling descriptor of a k×k window, stride s, padding p: max (deterministic) or
 * average counting the padding; NaN not propagated. */
static inline int net_lib_pool_desc(bool max, int64_t k, int64_t s, int64_t p,
                                    cudnnPoolingDescriptor_t *d)
{
	if (k < 1 || k > INT32_MAX || s < 1 || s > INT32_MAX || p < 0 || p > INT32_MAX)
		return CUA_CHECK_E_PARAM;
	const struct net_lib_key key = {{max ? 1 : 0, k, s, p}};
	auto make = [max, k, s, p](cudnnPoolingDescriptor_t *pd) {
		cudnnStatus_t st = cudnnCreatePoolingDescriptor(pd);
		if (st == CUDNN_STATUS_SUCCESS)
			st = cudnnSetPooling2dDescriptor(
				*pd, max ? CUDNN_POOLING_MAX_DETERMINISTIC
				         : CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING,
				CUDNN_NOT_PROPAGATE_NAN, (int)k, (int)k, (int)p, (int)p, (int)s, (int)s);
		return (int)st;
	};
	auto drop = [](cudnnPoolingDescriptor_t pd) { cudnnDestroyPoolingDescriptor(pd); };
	return net_lib_cached(net_lib_pools, key, make, drop, d);
}

static inline int net_lib_pool(cua_net_lib &b, const cua_act<float> &x, int64_t k, int64_t s,
                               int64_t p, bool max, cua_act<float> *y)
{
	struct cua_pool2d_desc d;
	cudnnPoolingDescriptor_t pd;
	cudnnTensorDescriptor_t xd, yd;
	CUA_CHECK(net_pool_desc(x, k, s, p, !max, &d));
	CUA_CHECK(net_lib_dnn(b.stream));
	CUA_CHECK(net_lib_pool_desc(max, k, s, p, &pd));
	CUA_CHECK(cua_net_alloc4(b, d.N, d.C, d.OH, d.OW, y));
	CUA_CHECK(net_lib_desc(x, &xd));
	CUA_CHECK(net_lib_desc(*y, &yd));
	const float one = 1.0f, zero = 0.0f;
	int rc = (int)cudnnPoolingForward(conv_handle, pd, &one, xd, x.p, &zero, yd, y->p);
	return rc ? rc : cua_net_last_error();
}

static inline int cua_net_maxpool2d(cua_net_lib &b, const cua_act<float> &x, int64_t k,
                                    int64_t s, int64_t p, cua_act<float> *y)
{
	return net_lib_pool(b, x, k, s, p, true, y);
}

static inline int cua_net_avgpool2d(cua_net_lib &b, const cua_act<float> &x, int64_t k,
                                    int64_t s, int64_t p, cua_act<float> *y)
{
	return net_lib_pool(b, x, k, s, p, false, y);
}

/* In place over the last dimension: cuDNN's instance softmax over C of [rows, cols, 1, 1]. */
static inline int cua_net_softmax(cua_net_lib &b, cua_act<float> *a)
{
	cudnnTensorDescriptor_t td;
	CUA_CHECK(cua_net_own(b, a));
	CUA_CHECK(net_lib_dnn(b.stream));
	const int64_t cols = a->s[a->nd - 1], rows = a->numel() / cols;
	const int64_t s[4] = {rows, cols, 1, 1};
	CUA_CHECK(net_lib_tensor4(s, &td));
	const float one = 1.0f, zero = 0.0f;
	int rc = (int)cudnnSoftmaxForward(conv_handle, CUDNN_SOFTMAX_ACCURATE,
	                                  CUDNN_SOFTMAX_MODE_INSTANCE, &one, td, a->p, &zero, td,
	                                  a->p);
	return rc ? rc : cua_net_last_error();
}

#endif /* CUA_NET_LIB_NO_CUDNN */

/* The library baseline's cua_solve: FORWARD (the task's template) on cua_net_lib, its
 * activations (net.cuh's cudaMallocAsync) from a pool that stays mapped between calls. */
#define CUA_NET_LIB_ENTRY_POINT(FORWARD)                                                  \
	extern "C" CUA_EXPORT int cua_solve(const struct cua_tensor *in, int n_in,            \
	                                    struct cua_tensor *out, int n_out,                \
	                                    cudaStream_t stream)                              \
	{                                                                                     \
		cua_net_lib b;                                                                    \
		int rc = mempool_keep();                                                          \
		if (rc)                                                                           \
			return rc;                                                                    \
		cua_net_start(b, stream);                                                         \
		return cua_net_finish(b, FORWARD(b, in, n_in, out, n_out));                       \
	}

#endif /* BASELINES_CUDNN_NET_LIB_CUH */
