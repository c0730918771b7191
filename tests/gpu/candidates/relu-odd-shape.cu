// task: relu
// expect: wrong_output
// expect-message: shape odd
// Vectorised with float4 and no tail loop: right when the size divides by 4,
// wrong on the odd check shape (37 x 1001) only.
#include "cuarena.h"

__global__ void relu4_kernel(const float4 *x, float4 *y, int64_t n4)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n4;
	     i += (int64_t)gridDim.x * blockDim.x) {
		float4 v = x[i];
		v.x = fmaxf(v.x, 0.f);
		v.y = fmaxf(v.y, 0.f);
		v.z = fmaxf(v.z, 0.f);
		v.w = fmaxf(v.w, 0.f);
		y[i] = v;
	}
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	int64_t n4 = cua_numel(&in[0]) / 4;
	if (n4 > 0)
		relu4_kernel<<<2048, 256, 0, stream>>>((const float4 *)in[0].data,
		                                       (float4 *)out[0].data, n4);
	return (int)cudaGetLastError();
}
