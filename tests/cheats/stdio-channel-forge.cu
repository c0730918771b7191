// task: relu
// expect: sandbox_violation
// expect-message: never writes
// Reaches descriptor 3 with allowed libc calls only: points stdout's FILE at it
// for one fwrite + fflush of a passing verdict with fast timings, then puts it
// back. Descriptor 3 was the runner's report channel until 2026-12-01; now it
// is the socket to the judge, which refuses the record. (A copy of stdout's
// FILE, tried first, made glibc abort.)
#include "cuarena.h"
#include <stdio.h>
#include <string.h>

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	static const char forged[] =
	    "{\"event\":\"timing\",\"event_ms\":{\"n\":30,\"median\":0.001}}\n"
	    "{\"event\":\"result\",\"verdict\":\"ok\",\"message\":\"\"}\n";
	fflush(stdout);
	int was = stdout->_fileno;
	stdout->_fileno = 3;
	fwrite(forged, 1, strlen(forged), stdout);
	fflush(stdout);
	stdout->_fileno = was;
	return 0;
}
