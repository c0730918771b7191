// task: relu
// expect: ok
// A float4 path that relies on the ABI's promise: every tensor's data pointer is
// CUA_TENSOR_ALIGN (256) bytes aligned, so the flat array is read and written as float4
// from element 0 with no alignment check; only the n % 4 tail is scalar. A misaligned
// pointer would fault (a runtime_error), so `ok` here is also a check of the promise.
// Bytes: 1 read + 1 write of B*D floats, in 16-byte accesses.
#include "cuarena.h"

static_assert(CUA_TENSOR_ALIGN % sizeof(float4) == 0, "the ABI promises float4 alignment");

__global__ void relu_float4_kernel(const float4 *x, float4 *y, int64_t n4, const float *xs,
                                   float *ys, int64_t n)
{
	int64_t stride = (int64_t)gridDim.x * blockDim.x;
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n4; i += stride) {
		float4 v = x[i];
		v.x = fmaxf(v.x, 0.f);
		v.y = fmaxf(v.y, 0.f);
		v.z = fmaxf(v.z, 0.f);
		v.w = fmaxf(v.w, 0.f);
		y[i] = v;
	}
	int64_t t = 4 * n4 + blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
	if (t < n)
		ys[t] = fmaxf(xs[t], 0.f);
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	int64_t n = cua_numel(&in[0]), n4 = n / 4;
	int64_t blocks = (n4 + 255) / 256;
	if (blocks < 1)
		blocks = 1;
	const float *x = (const float *)in[0].data;
	float *y = (float *)out[0].data;
	relu_float4_kernel<<<(unsigned)(blocks < 16384 ? blocks : 16384), 256, 0, stream>>>(
		(const float4 *)x, (float4 *)y, n4, x, y, n);
	return cudaGetLastError() != cudaSuccess;
}
