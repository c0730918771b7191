// task: relu
// expect: forbidden_symbol
// expect-message: interpose
// Defines cudaEventElapsedTime to report 1 microsecond, hoping to interpose on the
// harness's timer. Candidates are built with hidden visibility, which makes a plain
// definition inert (it binds only inside the object); so it asks for default
// visibility explicitly, as an attacker would, and is exported for the static check.
#include "cuarena.h"

extern "C" __attribute__((visibility("default"))) cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b)
{
	*ms = 0.001f;
	return cudaSuccess;
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	return (int)cudaMemsetAsync(out[0].data, 0, cua_numel(&out[0]) * sizeof(float), stream);
}
