// task: relu
// expect: timeout
// timeout-s: 15
// A kernel that never finishes. The loop reads the SM clock through asm volatile
// so the compiler cannot prove it side-effect free and delete it.
#include "cuarena.h"

__global__ void spin_kernel(float *y)
{
	long long t;
	do
		asm volatile("mov.u64 %0, %%clock64;" : "=l"(t));
	while (t >= 0);
	y[0] = 1.f;
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	spin_kernel<<<1, 1, 0, stream>>>((float *)out[0].data);
	return (int)cudaGetLastError();
}
