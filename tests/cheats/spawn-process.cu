// task: relu
// expect: forbidden_symbol
// expect-message: processes
// Starts a shell (fork/exec/system) to reach outside the sandbox.
#include "cuarena.h"
#include <stdlib.h>

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	return system("cat /etc/passwd > /dev/null");
}
