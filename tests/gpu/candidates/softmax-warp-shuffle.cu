// task: softmax
// expect: ok
// The warp-per-row softmax most CUDA code starts from, with its helpers written the usual
// way: plain (non-static) __device__ functions warpReduceMax / warpReduceSum. Three passes
// over the row (max, sum of exp, write), each lane striding by 32; __expf is not used
// (the 1e-4 relative tolerance on small probabilities needs expf).
// Bytes: 2 reads + 1 write of B*D floats (the first two hit L2 for short rows).
#include "cuarena.h"

__device__ float warpReduceMax(float v)
{
	for (int o = 16; o > 0; o >>= 1)
		v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
	return v;
}

__device__ float warpReduceSum(float v)
{
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_xor_sync(0xffffffffu, v, o);
	return v;
}

__global__ void softmax_warp_kernel(const float *x, float *y, int64_t B, int64_t D)
{
	int64_t row = blockIdx.x * (int64_t)(blockDim.x / 32) + threadIdx.x / 32;
	int lane = threadIdx.x % 32;
	if (row >= B)
		return;
	const float *xr = x + row * D;
	float *yr = y + row * D;
	float m = -INFINITY;
	for (int64_t j = lane; j < D; j += 32)
		m = fmaxf(m, xr[j]);
	m = warpReduceMax(m);
	float s = 0.f;
	for (int64_t j = lane; j < D; j += 32)
		s += expf(xr[j] - m);
	s = warpReduceSum(s);
	float inv = 1.f / s;
	for (int64_t j = lane; j < D; j += 32)
		yr[j] = expf(xr[j] - m) * inv;
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	int64_t B = in[0].shape[0], D = in[0].shape[1];
	int warps_per_block = 8;
	unsigned blocks = (unsigned)((B + warps_per_block - 1) / warps_per_block);
	softmax_warp_kernel<<<blocks, 32 * warps_per_block, 0, stream>>>(
		(const float *)in[0].data, (float *)out[0].data, B, D);
	return cudaGetLastError() != cudaSuccess;
}
