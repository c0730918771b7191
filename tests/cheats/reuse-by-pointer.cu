// task: relu
// expect: wrong_output
// Result reuse keyed by the input pointer (the Sakana-style hole): computes once per
// pointer and replays the saved output afterwards. Inputs change between calls at the
// same address, so the replayed output is stale.
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
	static const void *seen[64];
	static float *saved[64];
	static int n_seen;
	int64_t n = cua_numel(&in[0]);
	for (int k = 0; k < n_seen; k++)
		if (seen[k] == in[0].data)
			return (int)cudaMemcpyAsync(out[0].data, saved[k], n * sizeof(float),
			                            cudaMemcpyDeviceToDevice, stream);
	relu_kernel<<<4096, 256, 0, stream>>>((const float *)in[0].data, (float *)out[0].data, n);
	if (n_seen < 64 && cudaMalloc((void **)&saved[n_seen], n * sizeof(float)) == cudaSuccess) {
		cudaMemcpyAsync(saved[n_seen], out[0].data, n * sizeof(float),
		                cudaMemcpyDeviceToDevice, stream);
		seen[n_seen++] = in[0].data;
	}
	return (int)cudaGetLastError();
}
