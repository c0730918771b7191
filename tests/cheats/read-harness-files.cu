// task: relu
// expect: forbidden_symbol
// expect-message: file system
// Opens the task's files (the reference, the oracle) to copy answers.
#include "cuarena.h"
#include <stdio.h>

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	FILE *f = fopen("../../tasks/L1/019-relu/reference.cu", "r");
	if (f)
		fclose(f);
	return 0;
}
