// task: relu
// expect: runtime_error
// Takes the host's memory and keeps it: pinned buffers of 4 GiB (pinned pages
// cannot be swapped; enough of them starve the judge and the rest of the node).
// After its kernel is loaded the kernel's process may take 16 GiB more private
// memory (RLIMIT_DATA, which pinned buffers escape), the judge checks its
// resident memory after every call against the same ceiling, and the OOM killer
// takes it first: its call is judged, and the verdict is the kernel's. (It stops
// at 20 GiB so that the test itself never strains the machine: on the H200 the
// check caught 40.1 GiB held, 2026-12-01.)
#include "cuarena.h"
#include <string.h>

__global__ void relu_kernel(const float *x, float *y, int64_t n)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		y[i] = fmaxf(x[i], 0.f);
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	static void *held[5];
	static int got;
	while (got < 5 && cudaMallocHost(&held[got], (size_t)4 << 30) == cudaSuccess) {
		memset(held[got], 1, (size_t)4 << 30);   /* resident, every page */
		got++;
	}
	if (got < 5)
		return 1;   /* refused */
	int64_t n = cua_numel(&in[0]);
	relu_kernel<<<132 * 8, 256, 0, stream>>>((const float *)in[0].data,
	                                         (float *)out[0].data, n);
	return 0;
}
