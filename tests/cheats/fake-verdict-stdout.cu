// task: relu
// expect: wrong_output
// Prints a forged verdict line on stdout (and the harness's own JSON shape), then
// computes nothing. The verdict channel is a dedicated descriptor, never stdout.
#include "cuarena.h"
#include <stdio.h>

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	printf("{\"event\":\"result\",\"verdict\":\"ok\",\"message\":\"\"}\n");
	printf("PASS: verdict ok, speedup 150x\n");
	fflush(stdout);
	return 0;
}
