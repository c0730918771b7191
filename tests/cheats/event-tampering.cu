// task: relu
// expect: forbidden_symbol
// expect-message: interpose
// Defines cudaEventElapsedTime to report 1 microsecond, hoping to interpose on the
// harness's timer.
#include "cuarena.h"

extern "C" cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b)
{
	*ms = 0.001f;
	return cudaSuccess;
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	return (int)cudaMemsetAsync(out[0].data, 0, cua_numel(&out[0]) * sizeof(float), stream);
}
