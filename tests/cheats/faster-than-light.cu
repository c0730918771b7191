// task: relu
// expect: timing_anomaly
// expect-message: speed of light
// ceilings-copy-gbs: 1
// Exercises the speed-of-light check end to end: an honest ReLU, judged against
// ceilings that claim 1 GB/s of memory bandwidth, is "faster than light" — exactly how
// a kernel that hid its work from every other check would look.
#include "cuarena.h"

__global__ void relu_kernel(const float *x, float *y, int64_t n)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		y[i] = fmaxf(x[i], 0.f);
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	relu_kernel<<<4096, 256, 0, stream>>>((const float *)in[0].data, (float *)out[0].data,
	                                      cua_numel(&in[0]));
	return (int)cudaGetLastError();
}
