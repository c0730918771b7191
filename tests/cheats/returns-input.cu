// task: relu
// expect: wrong_output
// Copies the input to the output (an identity "kernel"): right for every positive
// element, wrong for the negative ones.
#include "cuarena.h"

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	return (int)cudaMemcpyAsync(out[0].data, in[0].data, cua_numel(&in[0]) * sizeof(float),
	                            cudaMemcpyDeviceToDevice, stream);
}
