// task: relu
// expect: forbidden_symbol
// expect-message: cuBLAS
// Calls into cuBLAS in a task that does not allow it (declared by hand, so it
// compiles without the library; the static check must catch the import).
#include "cuarena.h"

extern "C" int cublasCreate_v2(void **handle);

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	void *h;
	return cublasCreate_v2(&h);
}
