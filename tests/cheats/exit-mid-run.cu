// task: relu
// expect: sandbox_violation
// expect-message: system-call guard
// Tries to end the process with status 0 through a raw exit_group system call
// (inline assembly, so no exit symbol for the static check to see). The
// runner's guard stops it (until 2026-11-29 the call went through and the run
// was judged a crash "without a verdict").
#include "cuarena.h"

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	long rc;
	asm volatile("syscall" : "=a"(rc) : "a"(231L), "D"(0L) : "rcx", "r11", "memory");
	return (int)rc;
}
