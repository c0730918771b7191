// task: relu
// expect: sandbox_violation
// expect-message: not written by the runner
// Reaches the report channel with allowed libc calls only: a copy of stdout's
// FILE with the channel's descriptor number, then fwrite + fflush of a passing
// verdict with fast timings. The lines are not sealed with the runner's key.
#include "cuarena.h"
#include <stdio.h>
#include <string.h>

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	static const char forged[] =
	    "{\"event\":\"timing\",\"event_ms\":{\"n\":30,\"median\":0.001}}\n"
	    "{\"event\":\"result\",\"verdict\":\"ok\",\"message\":\"\"}\n";
	FILE f;
	memcpy(&f, stdout, sizeof(f));
	f._fileno = 3;   /* the report channel's descriptor */
	fwrite(forged, 1, strlen(forged), &f);
	fflush(&f);
	return 0;
}
