/* elementwise.cuh — grid-stride launchers for unary and binary elementwise ops.
 * Header-only. The op is a functor with a __device__ operator() taking and
 * returning Acc; the same functor serves the fp32 reference (Acc = Out = float)
 * and the fp64 oracle (Acc = Out = double, inputs still float):
 *
 *     struct relu_op { template <typename T> __device__ T operator()(T x) const
 *                      { return x > T(0) ? x : T(0); } };
 *     cua_launch_unary<float>(n, relu_op(), x, y, stream);
 *
 * cua_unary_task<Acc, Out>() is the whole body of a one-input task (argument
 * checks and launch); cua_solve passes <float, float>, cua_oracle <double, double>.
 *
 * Transcendental ops call cua_exp, cua_tanh, ... (below), which resolve to expf
 * or exp by the argument type.
 *
 * Napkin math: one coalesced load per input and one store per element; the
 * ceiling is HBM bandwidth, (n_inputs + 1) * n * sizeof(T) bytes. */
#ifndef CUA_COMMON_ELEMENTWISE_CUH
#define CUA_COMMON_ELEMENTWISE_CUH

#include <math.h>
#include "check.cuh"

#define CUA_EW_THREADS 256

/* Elementary functions overloaded on the accumulator type, so one templated op
 * functor serves both builds: Acc = float calls the CUDA single-precision
 * functions (expf, not the __expf intrinsic; references are built without
 * --use_fast_math), Acc = double the double ones. __host__ too, so a host test
 * can evaluate the same functor. */
#define CUA_EW_MATH(name, ffn, dfn)                                            \
	__host__ __device__ __forceinline__ float name(float v) { return ffn(v); }  \
	__host__ __device__ __forceinline__ double name(double v) { return dfn(v); }
CUA_EW_MATH(cua_exp, expf, exp)
CUA_EW_MATH(cua_expm1, expm1f, expm1)
CUA_EW_MATH(cua_log, logf, log)
CUA_EW_MATH(cua_log1p, log1pf, log1p)
CUA_EW_MATH(cua_tanh, tanhf, tanh)
CUA_EW_MATH(cua_erf, erff, erf)
CUA_EW_MATH(cua_abs, fabsf, fabs)
#undef CUA_EW_MATH

/* y[i] = op(x[i]) for i in [0, n). */
template <typename Acc, typename Op, typename In, typename Out>
__global__ void elementwise_unary_kernel(int64_t n, Op op, const In *__restrict__ x,
                                         Out *__restrict__ y)
{
	int64_t stride = (int64_t)gridDim.x * blockDim.x;
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
		y[i] = (Out)op((Acc)x[i]);
}

/* y[i] = op(a[i], b[i]) for i in [0, n). */
template <typename Acc, typename Op, typename In, typename Out>
__global__ void elementwise_binary_kernel(int64_t n, Op op, const In *__restrict__ a,
                                          const In *__restrict__ b, Out *__restrict__ y)
{
	int64_t stride = (int64_t)gridDim.x * blockDim.x;
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
		y[i] = (Out)op((Acc)a[i], (Acc)b[i]);
}

/* Enqueue on stream; the caller checks cudaGetLastError(). n >= 1. */
template <typename Acc, typename Op, typename In, typename Out>
static inline void cua_launch_unary(int64_t n, Op op, const In *x, Out *y, cudaStream_t stream)
{
	elementwise_unary_kernel<Acc><<<cua_blocks_1d(n, CUA_EW_THREADS), CUA_EW_THREADS, 0,
	                                stream>>>(n, op, x, y);
}

template <typename Acc, typename Op, typename In, typename Out>
static inline void cua_launch_binary(int64_t n, Op op, const In *a, const In *b, Out *y,
                                     cudaStream_t stream)
{
	elementwise_binary_kernel<Acc><<<cua_blocks_1d(n, CUA_EW_THREADS), CUA_EW_THREADS, 0,
	                                 stream>>>(n, op, a, b, y);
}

/* The body of a one-input elementwise task: exactly one f32 input x and one
 * output y of Out's dtype, both of rank ndim with the same extents, then
 * y = op(x) computed in Acc. Returns a negative check.cuh code on bad arguments,
 * else the launch status. */
template <typename Acc, typename Out, typename Op>
static inline int cua_unary_task(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                                 int n_out, int ndim, Op op, cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 1, out, n_out, 1));
	const struct cua_tensor *x = &in[0];
	struct cua_tensor *y = &out[0];
	CUA_CHECK(cua_check_tensor(x, CUA_F32, ndim));
	CUA_CHECK(cua_check_tensor(y, cua_dtype_of<Out>::value, ndim));
	CUA_CHECK(cua_check_same_shape(x, y));

	cua_launch_unary<Acc>(cua_numel(x), op, (const float *)x->data, (Out *)y->data, stream);
	return (int)cudaGetLastError();
}

#endif /* CUA_COMMON_ELEMENTWISE_CUH */
