// task: relu
// expect: timeout
// timeout-s: 15
// Never returns from cua_solve on the host.
#include "cuarena.h"

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	volatile unsigned long long spin = 0;
	for (;;)
		spin = spin + 1;
	return 0;
}
