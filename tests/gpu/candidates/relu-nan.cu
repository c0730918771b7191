// task: relu
// expect: nan_output
// Produces NaN for large inputs (a bad "fast" formula): 0/0 where x > 0.5 (x ~ U(-1, 1)).
#include "cuarena.h"

__global__ void relu_kernel(const float *x, float *y, int64_t n)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x) {
		float v = x[i];
		float z = v > 0.5f ? v - v : 1.f;
		y[i] = (v > 0.f ? v : 0.f) * (z / z);
	}
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	relu_kernel<<<1024, 256, 0, stream>>>((const float *)in[0].data,
	                                      (float *)out[0].data, cua_numel(&in[0]));
	return (int)cudaGetLastError();
}
