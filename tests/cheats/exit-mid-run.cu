// task: relu
// expect: crash
// expect-message: exited (status 0)
// Tries to end the process with status 0 through a raw exit_group system call
// (inline assembly, so no exit symbol for the static check to see), hoping that
// a process which ends quietly is taken for a pass. Since the judge left the
// kernel's process (2026-12-01), that process is only the kernel's: its end is
// a crash of the kernel, whatever its status (exit_group is on the allow-list,
// every process needs it).
#include "cuarena.h"

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	long rc;
	asm volatile("syscall" : "=a"(rc) : "a"(231L), "D"(0L) : "rcx", "r11", "memory");
	return (int)rc;
}
