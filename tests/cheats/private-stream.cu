// task: relu
// expect: ok
// expect-speedup-max: nvcc 1.1
// Correct, but does its work on a private non-blocking stream and returns at once,
// so events on the stream it was given see almost nothing. Until 2026-12-01 the
// host clock caught that above a threshold (timing_anomaly); now the judge's clock
// runs until the judge has found the outputs right, so the work counts wherever
// it runs and nothing is gained: honest timing, no speedup.
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
	static cudaStream_t mine;
	if (!mine && cudaStreamCreateWithFlags(&mine, cudaStreamNonBlocking) != cudaSuccess)
		return 1;
	relu_kernel<<<4096, 256, 0, mine>>>((const float *)in[0].data, (float *)out[0].data,
	                                    cua_numel(&in[0]));
	return (int)cudaGetLastError();
}
