// task: relu
// expect: input_mutated
// Computes ReLU in place in x, then copies: correct output, clobbered input.
#include "cuarena.h"

__global__ void relu_inplace_kernel(float *x, float *y, int64_t n)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x) {
		x[i] = fmaxf(x[i], 0.f);
		y[i] = x[i];
	}
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	relu_inplace_kernel<<<1024, 256, 0, stream>>>((float *)in[0].data,
	                                              (float *)out[0].data,
	                                              cua_numel(&in[0]));
	return (int)cudaGetLastError();
}
