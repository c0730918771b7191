/* elementwise.cuh — grid-stride launchers for unary and binary elementwise ops.
 * Header-only. The op is a functor with a __device__ operator() taking and
 * returning Acc; the same functor serves the fp32 reference (Acc = Out = float)
 * and the fp64 oracle (Acc = Out = double, inputs still float):
 *
 *     struct relu_op { template <typename T> __device__ T operator()(T x) const
 *                      { return x > T(0) ? x : T(0); } };
 *     cua_launch_unary<float>(n, relu_op(), x, y, stream);
 *
 * Napkin math: one coalesced load per input and one store per element; the
 * ceiling is HBM bandwidth, (n_inputs + 1) * n * sizeof(T) bytes. */
#ifndef CUA_COMMON_ELEMENTWISE_CUH
#define CUA_COMMON_ELEMENTWISE_CUH

#include "check.cuh"

#define CUA_EW_THREADS 256

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

#endif /* CUA_COMMON_ELEMENTWISE_CUH */
