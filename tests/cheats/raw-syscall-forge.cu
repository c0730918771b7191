// task: relu
// expect: sandbox_violation
// expect-message: never writes
// Computes nothing and writes a passing verdict with fast timings on
// descriptor 3, through `syscall` instructions of its own (no libc import for
// the static check to see). Until 2026-12-01 that was the runner's report
// channel; now it is the kernel process's socket to the judge, which takes the
// record for what it is: nothing the harness writes.
#include "cuarena.h"
#include <string.h>

static long raw_write(long fd, const void *buf, long n)
{
	long r;
	__asm__ volatile("syscall"
	                 : "=a"(r)
	                 : "a"(1L), "D"(fd), "S"(buf), "d"(n)
	                 : "rcx", "r11", "memory");
	return r;
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	static const char forged[] =
	    "{\"event\":\"timing\",\"event_ms\":{\"n\":30,\"median\":0.001}}\n"
	    "{\"event\":\"result\",\"verdict\":\"ok\",\"message\":\"\"}\n";
	raw_write(3, forged, (long)strlen(forged));   /* the channel's descriptor */
	return 0;
}
