/* faults.cu — a ReLU baseline (L1/019-relu: x, y [B, D] f32) with one kind of per-call
 * host work that tests/baseline-dry.c must catch, chosen when it is built (-DFAULT="..."):
 *     alloc    a scratch buffer cudaMalloc'd and cudaFree'd every call
 *     pool     scratch from cudaMallocAsync every call, the pool left to give its memory back
 *              at each synchronisation (the Level 2 baselines before issue 28)
 *     event    an event created and destroyed every call
 *     sync     cudaStreamSynchronize inside the call
 *     stream   the kernel on the legacy default stream, not the call's
 *     pointer  set-up (an event) cached by x's address, made again for another buffer set
 *     kept     scratch as in pool, the pool kept (mempool-common.cuh): the control, passes
 * Build: the Makefile's $(BUILD)/tests/bl-dry-fix/FAULT.so rule. */
#include <string.h>
#include "cuarena.h"
#include "mempool-common.cuh"

__global__ void relu_kernel(const float *__restrict__ x, float *__restrict__ y, int64_t n)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	const char *fault = FAULT;
	const bool pooled = !strcmp(fault, "pool") || !strcmp(fault, "kept");
	if (n_in != 1 || n_out != 1 || in[0].ndim != 2)
		return -1;
	const int64_t n = in[0].shape[0] * in[0].shape[1];
	void *scratch = NULL;
	cudaEvent_t ev;
	if (!strcmp(fault, "kept") && mempool_keep() != 0)
		return 1;
	if (!strcmp(fault, "alloc") && cudaMalloc(&scratch, (size_t)n * sizeof(float)) != cudaSuccess)
		return 1;
	if (pooled && cudaMallocAsync(&scratch, (size_t)n * sizeof(float), stream) != cudaSuccess)
		return 1;
	static const void *planned_for;   /* "pointer": what the set-up was made for */
	if (!strcmp(fault, "pointer") && in[0].data != planned_for) {
		if (cudaEventCreate(&ev) != cudaSuccess)
			return 1;
		cudaEventDestroy(ev);
		planned_for = in[0].data;
	}
	if (!strcmp(fault, "event")) {
		if (cudaEventCreate(&ev) != cudaSuccess)
			return 1;
		cudaEventDestroy(ev);
	}
	relu_kernel<<<1024, 256, 0, strcmp(fault, "stream") ? stream : 0>>>(
		(const float *)in[0].data, (float *)out[0].data, n);
	if (!strcmp(fault, "sync"))
		cudaStreamSynchronize(stream);
	if (!strcmp(fault, "alloc"))
		cudaFree(scratch);
	if (pooled)
		cudaFreeAsync(scratch, stream);
	return (int)cudaGetLastError();
}
