// task: relu
// expect: timeout
// timeout-s: 20
// Computes the answer, then leaves a kernel spinning on a private stream to steal the
// GPU from whatever is timed next. The harness synchronises the whole device after
// the call, so the run never finishes: killed at the timeout.
#include "cuarena.h"

__global__ void relu_kernel(const float *x, float *y, int64_t n)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		y[i] = fmaxf(x[i], 0.f);
}

__global__ void background_kernel(int *flag)
{
	long long t;
	do
		asm volatile("mov.u64 %0, %%clock64;" : "=l"(t));
	while (t >= 0 && *(volatile int *)flag == 0);
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	static cudaStream_t bg;
	static int *flag;
	relu_kernel<<<4096, 256, 0, stream>>>((const float *)in[0].data, (float *)out[0].data,
	                                      cua_numel(&in[0]));
	if (!bg) {
		cudaStreamCreateWithFlags(&bg, cudaStreamNonBlocking);
		cudaMalloc((void **)&flag, sizeof(int));
		cudaMemsetAsync(flag, 0, sizeof(int), bg);
		background_kernel<<<1, 1, 0, bg>>>(flag);
	}
	return (int)cudaGetLastError();
}
