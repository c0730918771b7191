// task: relu
// expect: wrong_output
// expect-message: unwritten
// relu-tail-off-by-one.cu — a wrong kernel, on purpose: relu-float4.cu's float4 body with an
// off-by-one in its scalar tail (`t < n - 1` where `t < n` is meant), so the last element is
// never written whenever the size is not a multiple of 4. The timed shape (4096 x 196608)
// divides by 4 and comes out right; the odd check shape (37 x 1001 = 37037 elements) does
// not, and the judge, which fills every output with a NaN poison pattern before each call,
// reports it: wrong_output, "1 unwritten of 37037" at shape odd. This is why every task has
// small check shapes with odd sizes.
//
//   build/cuarena eval relu examples/relu-tail-off-by-one.cu                 # wrong_output
//   build/cuarena eval relu examples/relu-tail-off-by-one.cu --compile-only  # builds clean
#include "cuarena.h"

#define THREADS 256

__global__ void relu_kernel(const float4 *__restrict__ x, float4 *__restrict__ y, int64_t n4,
                            const float *__restrict__ xs, float *__restrict__ ys, int64_t n)
{
	const int64_t stride = (int64_t)gridDim.x * blockDim.x;
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
		float4 v = x[i];
		v.x = v.x > 0.f ? v.x : 0.f;
		v.y = v.y > 0.f ? v.y : 0.f;
		v.z = v.z > 0.f ? v.z : 0.f;
		v.w = v.w > 0.f ? v.w : 0.f;
		y[i] = v;
	}
	int64_t t = 4 * n4 + (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (t < n - 1)   // the bug: the last element is left unwritten
		ys[t] = xs[t] > 0.f ? xs[t] : 0.f;
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	const int64_t n = cua_numel(&in[0]), n4 = n / 4;
	int64_t blocks = (n4 + THREADS - 1) / THREADS;
	blocks = blocks < 1 ? 1 : blocks > 4096 ? 4096 : blocks;
	const float *x = (const float *)in[0].data;
	float *y = (float *)out[0].data;
	relu_kernel<<<(unsigned)blocks, THREADS, 0, stream>>>((const float4 *)x, (float4 *)y, n4,
	                                                      x, y, n);
	return (int)cudaGetLastError();
}
