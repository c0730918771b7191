// task: relu
// expect: sandbox_violation
// expect-message: system-call filter
// Tries to overwrite the shared object it was loaded from (in the old design
// that was the compile cache, where a later evaluation of the same source would
// find it) by a raw openat for writing. The kernel's process runs as an
// unprivileged user on a staged copy it cannot write, and its system-call filter
// refuses any open for writing first.
#include "cuarena.h"
#include <fcntl.h>
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
	long fd = ew_sys(SYS_openat, AT_FDCWD, (long)"../kernel.so", O_WRONLY);
	if (fd >= 0)
		ew_sys(SYS_write, fd, (long)"\x7f" "ELF", 4);
	int64_t n = cua_numel(&in[0]);
	relu_kernel<<<132 * 8, 256, 0, stream>>>((const float *)in[0].data,
	                                         (float *)out[0].data, n);
	return 0;
}
