// task: square-matrix-multiplication
// expect: forbidden_symbol
// expect-message: dynamic loading
// Loads cuBLAS behind the static check's back with dlopen/dlsym.
#include "cuarena.h"
#include <dlfcn.h>

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	void *lib = dlopen("libcublas.so.13", RTLD_NOW);
	if (!lib)
		return 1;
	int (*create)(void **) = (int (*)(void **))dlsym(lib, "cublasCreate_v2");
	void *h;
	return create ? create(&h) : 1;
}
