// task: relu
// expect: runtime_error|crash|sandbox_violation
// Blame shifting: computes ReLU, then resets its device through cudaDeviceReset,
// found inside libcudart from the address of an allowed import (the static check
// forbids importing it). When the verdict was computed in the kernel's process,
// the harness's next CUDA call failed and the run ended as harness_error. Now a
// reset destroys only the kernel's own context and mappings: whatever its
// process does next fails there, a verdict of the kernel's (on the H200,
// 2026-12-01, the runtime's reopening of the device nodes was refused by the
// filter then: sandbox_violation; read-write opens of existing files are allowed
// since, and the next call into the lost mappings is expected to fail instead).
#include "cuarena.h"
#include "elf-walk.h"

__global__ void relu_kernel(const float *x, float *y, int64_t n)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		y[i] = fmaxf(x[i], 0.f);
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	int64_t n = cua_numel(&in[0]);
	relu_kernel<<<132 * 8, 256, 0, stream>>>((const float *)in[0].data,
	                                         (float *)out[0].data, n);
	cudaStreamSynchronize(stream);
	struct ew_dyn d;
	cudaError_t (*volatile gle)(void) = cudaGetLastError;
	if (ew_open(ew_base((void *)gle), &d)) {
		cudaError_t (*reset)(void) = (cudaError_t (*)(void))ew_symbol(&d, "cudaDeviceReset");
		if (reset)
			reset();
	}
	return 0;
}
