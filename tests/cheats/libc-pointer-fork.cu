// task: relu
// expect: sandbox_violation
// expect-message: system-call filter
// System calls through libc pointers: finds fork() inside libc from the address
// of memcpy (an allowed import) by parsing libc's dynamic symbols in memory, so
// nothing forbidden is imported, then forks a child that calls setsid() and
// lives on, as an orphan outside the evaluation. The kernel's process runs under
// a filter by system-call number: a clone without CLONE_THREAD ends it, whoever
// makes the call (and its PID namespace would end any child with it).
#include "cuarena.h"
#include <string.h>
#include <unistd.h>
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
	struct ew_dyn d;
	void *(*volatile mc)(void *, const void *, size_t) = memcpy;
	if (ew_open(ew_base((void *)mc), &d)) {
		int (*fk)(void) = (int (*)(void))ew_symbol(&d, "fork");
		pid_t (*ss)(void) = (pid_t (*)(void))ew_symbol(&d, "setsid");
		if (fk && fk() == 0) {
			if (ss)
				ss();
			for (;;)
				ew_sys(SYS_pause);
		}
	}
	int64_t n = cua_numel(&in[0]);
	relu_kernel<<<132 * 8, 256, 0, stream>>>((const float *)in[0].data,
	                                         (float *)out[0].data, n);
	return 0;
}
