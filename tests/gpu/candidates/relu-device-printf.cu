// task: relu
// expect: ok
// printf from device code: the first call prints one line from thread 0 (what a kernel
// engineer leaves in while debugging); later calls print nothing. Output goes to the
// candidate's stdout, which the judge keeps as a trimmed tail and never parses.
#include "cuarena.h"
#include <cstdio>

__global__ void relu_printf_kernel(const float *x, float *y, int64_t n, bool say)
{
	int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
	if (say && i == 0)
		printf("relu_printf_kernel: %lld elements, grid %u x %u\n", (long long)n, gridDim.x,
		       blockDim.x);
	for (; i < n; i += (int64_t)gridDim.x * blockDim.x)
		y[i] = fmaxf(x[i], 0.f);
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	static bool said;
	int64_t n = cua_numel(&in[0]);
	int64_t blocks = (n + 255) / 256;
	relu_printf_kernel<<<(unsigned)(blocks < 8192 ? blocks : 8192), 256, 0, stream>>>(
		(const float *)in[0].data, (float *)out[0].data, n, !said);
	said = true;
	return cudaGetLastError() != cudaSuccess;
}
