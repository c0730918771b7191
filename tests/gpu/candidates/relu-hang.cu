// task: relu
// expect: timeout
// timeout-s: 15
// A kernel that never finishes.
#include "cuarena.h"

__global__ void spin_kernel(float *y, int n)
{
	volatile int forever = 1;
	while (forever)
		;
	y[0] = (float)n;
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	spin_kernel<<<1, 1, 0, stream>>>((float *)out[0].data, 1);
	return (int)cudaGetLastError();
}
