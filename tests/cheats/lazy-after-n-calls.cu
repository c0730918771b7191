// task: relu
// expect: wrong_output
// Honest for the first 20 calls (the correctness checks), then returns without
// computing: a kernel that turns lazy while it is timed. Spot checks of timed calls
// and the re-check after timing catch it.
#include "cuarena.h"

__global__ void relu_kernel(const float *x, float *y, int64_t n)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		y[i] = fmaxf(x[i], 0.f);
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	static int calls;
	if (++calls > 20)
		return 0;
	relu_kernel<<<4096, 256, 0, stream>>>((const float *)in[0].data, (float *)out[0].data,
	                                      cua_numel(&in[0]));
	return (int)cudaGetLastError();
}
