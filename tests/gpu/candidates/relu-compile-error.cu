// task: relu
// expect: compile_error
// A syntax error: the log goes back to the agent.
#include "cuarena.h"

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	return this is not C;
}
