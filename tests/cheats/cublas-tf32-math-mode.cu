// task: square-matrix-multiplication
// expect: forbidden_symbol
// expect-message: cuBLAS
// The TF32 loophole through a library: cuBLAS in TF32 tensor-op math mode in a strict
// task that allows no library (declared by hand so it compiles without -lcublas).
#include "cuarena.h"

extern "C" int cublasCreate_v2(void **h);
extern "C" int cublasSetMathMode(void *h, int mode);

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	void *h;
	if (cublasCreate_v2(&h))
		return 1;
	return cublasSetMathMode(h, 3 /* CUBLAS_TF32_TENSOR_OP_MATH */);
}
