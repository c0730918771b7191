// task: relu
// expect: crash
// expect-message: without a verdict
// Ends the process with status 0 through a raw exit_group system call (inline
// assembly, so no exit symbol for the static check to see): no verdict is forged,
// the run is judged a crash.
#include "cuarena.h"

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	long rc;
	asm volatile("syscall" : "=a"(rc) : "a"(231L), "D"(0L) : "rcx", "r11", "memory");
	return (int)rc;
}
