// task: relu
// expect: runtime_error
// expect-message: returned 1
// Takes the host's memory: pinned buffers of 4 GiB each, as many as it gets (on a
// machine of 128 GiB, enough of them starve the judge and the rest of the node).
// The kernel's process has a ceiling on its address space once its kernel is
// loaded (32 GiB over what CUDA mapped at start-up, cua_jail_confine), and the OOM
// killer takes it first: the allocations fail early, the kernel gives up, and the
// verdict is the kernel's. It frees what it got before returning.
#include "cuarena.h"

__global__ void relu_kernel(const float *x, float *y, int64_t n)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		y[i] = fmaxf(x[i], 0.f);
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	void *held[64];
	int got = 0;
	while (got < 64 && cudaMallocHost(&held[got], (size_t)4 << 30) == cudaSuccess)
		got++;
	cudaGetLastError();
	for (int i = 0; i < got; i++)
		cudaFreeHost(held[i]);
	if (got < 64)
		return 1;   /* refused before the node's memory was gone */
	int64_t n = cua_numel(&in[0]);
	relu_kernel<<<132 * 8, 256, 0, stream>>>((const float *)in[0].data,
	                                         (float *)out[0].data, n);
	return 0;
}
