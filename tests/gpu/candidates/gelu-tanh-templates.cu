// task: mingptnewgelu
// expect: ok
// Templates: one elementwise kernel templated on the functor and on the items per thread
// (unrolled), instantiated for the tanh-approximation GELU. Bytes: 1 read + 1 write.
#include "cuarena.h"

struct gelu_tanh_op {
	__device__ float operator()(float x) const
	{
		const float k = 0.7978845608028654f;   /* sqrt(2/pi) */
		return 0.5f * x * (1.f + tanhf(k * (x + 0.044715f * x * x * x)));
	}
};

template <typename Op, int ITEMS>
__global__ __launch_bounds__(256) void elementwise_kernel(const float *x, float *y, int64_t n,
                                                          Op op)
{
	int64_t base = (blockIdx.x * (int64_t)blockDim.x) * ITEMS + threadIdx.x;
#pragma unroll
	for (int k = 0; k < ITEMS; k++) {
		int64_t i = base + (int64_t)k * blockDim.x;
		if (i < n)
			y[i] = op(x[i]);
	}
}

template <typename Op, int ITEMS>
static cudaError_t launch(const float *x, float *y, int64_t n, Op op, cudaStream_t s)
{
	int64_t per_block = 256 * ITEMS;
	elementwise_kernel<Op, ITEMS>
		<<<(unsigned)((n + per_block - 1) / per_block), 256, 0, s>>>(x, y, n, op);
	return cudaGetLastError();
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	int64_t n = cua_numel(&in[0]);
	const float *x = (const float *)in[0].data;
	float *y = (float *)out[0].data;
	cudaError_t e = n >= (1 << 20) ? launch<gelu_tanh_op, 8>(x, y, n, gelu_tanh_op(), stream)
	                               : launch<gelu_tanh_op, 1>(x, y, n, gelu_tanh_op(), stream);
	return e != cudaSuccess;
}
