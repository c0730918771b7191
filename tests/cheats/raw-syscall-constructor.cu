// task: relu
// expect: sandbox_violation
// expect-message: never writes
// A constructor, run by dlopen before the harness calls anything, forges the
// report through a `syscall` instruction of its own (no libc import for the
// static check to see) on descriptor 3, the socket to the judge: the judge
// refuses a record its harness never writes. The system-call filter is in
// place before the kernel is loaded.
#include "cuarena.h"
#include <string.h>

long forge_rc;

__attribute__((constructor)) static void forge_at_load(void)
{
	static const char forged[] = "{\"event\":\"result\",\"verdict\":\"ok\",\"message\":\"\"}\n";
	long r;   /* write(3, ...): 3 is the report channel's descriptor */
	__asm__ volatile("syscall"
	                 : "=a"(r)
	                 : "a"(1L), "D"(3L), "S"(forged), "d"((long)strlen(forged))
	                 : "rcx", "r11", "memory");
	forge_rc = r;
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	return 0;
}
