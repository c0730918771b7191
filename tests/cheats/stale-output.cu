// task: relu
// expect: wrong_output
// expect-message: wrote nothing
// Returns success without computing anything: stale-output attacks need this to fail.
#include "cuarena.h"

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	return 0;
}
