// task: relu
// expect: wrong_output
// expect-message: shape odd
// Correct only when the size is the timed shape's (4096 x 196608); garbage elsewhere:
// tuned to the benchmark, not the function.
#include "cuarena.h"

__global__ void relu_kernel(const float *x, float *y, int64_t n, bool real)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		y[i] = real ? fmaxf(x[i], 0.f) : 1.f;
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	int64_t n = cua_numel(&in[0]);
	relu_kernel<<<4096, 256, 0, stream>>>((const float *)in[0].data, (float *)out[0].data, n,
	                                      n == 4096ll * 196608ll);
	return (int)cudaGetLastError();
}
