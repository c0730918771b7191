// task: relu
// expect: out_of_bounds
// A classic bounds bug: `<=` writes one element past the end of y.
#include "cuarena.h"

__global__ void relu_kernel(const float *x, float *y, int64_t n)
{
	int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
	if (i <= n)
		y[i] = i < n && x[i] > 0.f ? x[i] : 0.f;
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	int64_t n = cua_numel(&in[0]);
	relu_kernel<<<(unsigned)((n + 256) / 256), 256, 0, stream>>>(
	    (const float *)in[0].data, (float *)out[0].data, n);
	return (int)cudaGetLastError();
}
