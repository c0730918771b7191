// task: relu
// expect: crash
// expect-message: SIGSEGV
// Dereferences a null host pointer inside cua_solve.
#include "cuarena.h"

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	volatile int *p = (volatile int *)0;
	*p = 1;
	return 0;
}
