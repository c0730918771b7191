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
 * Define CUA_NET_LIB_NO_CUDNN before including it for a cuBLAS-only baseline
 * (the MLPs, baselines/cublas/l3-NNN.cu): conv and the cuDNN ops are left out.
 * Every status is checked; failures return non-zero, never abort. */
#ifndef BASELINES_CUDNN_NET_LIB_CUH
#define BASELINES_CUDNN_NET_LIB_CUH

#include <cublas_v2.h>
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

/* A 4-D NCHW float descriptor of a (a 2-D [N, F] as [N, F, 1, 1]); *d is created. */
static inline int net_lib_desc(const cua_act<float> &a, cudnnTensorDescriptor_t *d)
{
	cudnnStatus_t st = cudnnCreateTensorDescriptor(d);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	int64_t s[4] = {a.s[0], a.nd > 1 ? a.s[1] : 1, a.nd > 2 ? a.s[2] : 1,
	                a.nd > 3 ? a.s[3] : 1};
	for (int i = 0; i < 4; i++)
		if (s[i] > INT32_MAX)
			return CUA_CHECK_E_SHAPE;
	st = cudnnSetTensor4dDescriptor(*d, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, (int)s[0],
	                                (int)s[1], (int)s[2], (int)s[3]);
	return (int)st;
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
	cudnnActivationDescriptor_t ad = NULL;
	cudnnTensorDescriptor_t td = NULL;
	int rc;
	if (act == CUA_NET_NONE)
		return 0;
	CUA_CHECK(cua_net_own(b, a));
	CUA_CHECK(net_lib_dnn(b.stream));
	const float one = 1.0f, zero = 0.0f;
	rc = (int)cudnnCreateActivationDescriptor(&ad);
	if (!rc)
		rc = (int)cudnnSetActivationDescriptor(
			ad, act == CUA_NET_RELU6 ? CUDNN_ACTIVATION_CLIPPED_RELU : CUDNN_ACTIVATION_RELU,
			CUDNN_NOT_PROPAGATE_NAN, act == CUA_NET_RELU6 ? 6.0 : 0.0);
	if (!rc)
		rc = net_lib_desc(*a, &td);
	if (!rc)
		rc = (int)cudnnActivationForward(conv_handle, ad, &one, td, a->p, &zero, td, a->p);
	if (td)
		cudnnDestroyTensorDescriptor(td);
	if (ad)
		cudnnDestroyActivationDescriptor(ad);
	return rc ? rc : cua_net_last_error();
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
	cudnnTensorDescriptor_t td = NULL, bd = NULL;
	cua_act<float> y;
	int rc;
	if (!gamma || !beta)
		return CUA_CHECK_E_NULL;
	if (x->nd < 2)
		return CUA_CHECK_E_NDIM;
	CUA_CHECK(net_lib_dnn(b.stream));
	CUA_CHECK(cua_net_alloc(b, x->nd, x->s, &y));
	const float one = 1.0f, zero = 0.0f;
	rc = net_lib_desc(*x, &td);
	if (!rc)
		rc = (int)cudnnCreateTensorDescriptor(&bd);
	if (!rc)
		rc = (int)cudnnDeriveBNTensorDescriptor(bd, td, CUDNN_BATCHNORM_SPATIAL);
	if (!rc)
		rc = (int)cudnnBatchNormalizationForwardTraining(
			conv_handle, CUDNN_BATCHNORM_SPATIAL, &one, &zero, td, x->p, td, y.p, bd, gamma,
			beta, 0.0, NULL, NULL, eps, NULL, NULL);
	if (td)
		cudnnDestroyTensorDescriptor(td);
	if (bd)
		cudnnDestroyTensorDescriptor(bd);
	if (rc) {
		cua_net_free(b, &y);
		return rc;
	}
	cua_net_free(b, x);
	*x = y;
	CUA_CHECK(cua_net_last_error());
	return net_lib_activate(b, x, act);
}

static inline int net_lib_pool(cua_net_lib &b, const cua_act<float> &x, int64_t k, int64_t s,
                               int64_t p, bool max, cua_act<float> *y)
{
	struct cua_pool2d_desc d;
	cudnnPoolingDescriptor_t pd = NULL;
	cudnnTensorDescriptor_t xd = NULL, yd = NULL;
	int rc;
	CUA_CHECK(net_pool_desc(x, k, s, p, !max, &d));
	CUA_CHECK(net_lib_dnn(b.stream));
	CUA_CHECK(cua_net_alloc4(b, d.N, d.C, d.OH, d.OW, y));
	const float one = 1.0f, zero = 0.0f;
	rc = (int)cudnnCreatePoolingDescriptor(&pd);
	if (!rc)
		rc = (int)cudnnSetPooling2dDescriptor(
			pd, max ? CUDNN_POOLING_MAX_DETERMINISTIC : CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING,
			CUDNN_NOT_PROPAGATE_NAN, (int)k, (int)k, (int)p, (int)p, (int)s, (int)s);
	if (!rc)
		rc = net_lib_desc(x, &xd);
	if (!rc)
		rc = net_lib_desc(*y, &yd);
	if (!rc)
		rc = (int)cudnnPoolingForward(conv_handle, pd, &one, xd, x.p, &zero, yd, y->p);
	if (xd)
		cudnnDestroyTensorDescriptor(xd);
	if (yd)
		cudnnDestroyTensorDescriptor(yd);
	if (pd)
		cudnnDestroyPoolingDescriptor(pd);
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
	cudnnTensorDescriptor_t td = NULL;
	int rc;
	CUA_CHECK(cua_net_own(b, a));
	CUA_CHECK(net_lib_dnn(b.stream));
	const int64_t cols = a->s[a->nd - 1], rows = a->numel() / cols;
	if (rows > INT32_MAX || cols > INT32_MAX)
		return CUA_CHECK_E_SHAPE;
	const float one = 1.0f, zero = 0.0f;
	rc = (int)cudnnCreateTensorDescriptor(&td);
	if (!rc)
		rc = (int)cudnnSetTensor4dDescriptor(td, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, (int)rows,
		                                     (int)cols, 1, 1);
	if (!rc)
		rc = (int)cudnnSoftmaxForward(conv_handle, CUDNN_SOFTMAX_ACCURATE,
		                              CUDNN_SOFTMAX_MODE_INSTANCE, &one, td, a->p, &zero, td,
		                              a->p);
	if (td)
		cudnnDestroyTensorDescriptor(td);
	return rc ? rc : cua_net_last_error();
}

#endif /* CUA_NET_LIB_NO_CUDNN */

/* The library baseline's cua_solve: FORWARD (the task's template) on cua_net_lib. */
#define CUA_NET_LIB_ENTRY_POINT(FORWARD)                                                  \
	extern "C" CUA_EXPORT int cua_solve(const struct cua_tensor *in, int n_in,            \
	                                    struct cua_tensor *out, int n_out,                \
	                                    cudaStream_t stream)                              \
	{                                                                                     \
		cua_net_lib b;                                                                    \
		cua_net_start(b, stream);                                                         \
		return cua_net_finish(b, FORWARD(b, in, n_in, out, n_out));                       \
	}

#endif /* BASELINES_CUDNN_NET_LIB_CUH */
