// task: relu
// expect: runtime_error
// expect-message: illegal
// Writes through a wild pointer: the context dies, the harness must not.
#include "cuarena.h"

__global__ void wild_kernel(float *y)
{
	float *p = (float *)0x10;
	p[threadIdx.x] = 1.f;
	y[0] = 0.f;
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	wild_kernel<<<1, 32, 0, stream>>>((float *)out[0].data);
	return (int)cudaGetLastError();
}
