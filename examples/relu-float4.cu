// task: relu
// expect: ok
// relu-float4.cu — a ReLU that should beat the nvcc baseline (tasks/L1/019-relu/reference.cu):
// the same y = max(x, 0), read and written as float4 (16-byte accesses; every tensor is
// CUA_TENSOR_ALIGN = 256-byte aligned, so no alignment check), four independent float4 loads
// in flight per thread before any store, streaming cache hints (__ldcs/__stcs: 6.4 GB goes
// through a 60 MB L2 once), and a grid-stride loop over a grid sized to fill the GPU once.
// The n % 4 tail is written by scalar threads.
//
//   build/cuarena eval relu examples/relu-float4.cu                 # on the GPU: verdict ok
//   build/cuarena eval relu examples/relu-float4.cu --compile-only  # anywhere with nvcc
//
// Napkin math (timed shape B=4096, D=393216, KernelBench's): 6.4 GB read + 6.4 GB written =
// 12.9 GB; at the H200's measured 4.26 TB/s copy ceiling that is 3.02 ms. The baseline's one
// scalar load and store per thread ran at 69.7 % of it (2.17 ms at half this width, the
// earlier Level 1's shape, docs/history/MEASUREMENTS-2026.md, 2026-11-29); 16-byte
// accesses with more bytes in flight are what closes part of that gap.
#include "cuarena.h"

#define THREADS 256
#define UNROLL 4

__device__ __forceinline__ float4 relu4(float4 v)
{
	v.x = v.x > 0.f ? v.x : 0.f;
	v.y = v.y > 0.f ? v.y : 0.f;
	v.z = v.z > 0.f ? v.z : 0.f;
	v.w = v.w > 0.f ? v.w : 0.f;
	return v;
}

// y[i] = max(x[i], 0) for the n4 float4s of x, then the n - 4*n4 scalars after them.
__global__ void __launch_bounds__(THREADS)
relu_float4_kernel(const float4 *__restrict__ x, float4 *__restrict__ y, int64_t n4,
                   const float *__restrict__ xs, float *__restrict__ ys, int64_t n)
{
	const int64_t stride = (int64_t)gridDim.x * blockDim.x;
	int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	// UNROLL loads issued before the first store: 64 bytes per thread in flight
	for (; i + (UNROLL - 1) * stride < n4; i += UNROLL * stride) {
		float4 v[UNROLL];
#pragma unroll
		for (int u = 0; u < UNROLL; u++)
			v[u] = __ldcs(x + i + u * stride);
#pragma unroll
		for (int u = 0; u < UNROLL; u++)
			__stcs(y + i + u * stride, relu4(v[u]));
	}
	for (; i < n4; i += stride)
		__stcs(y + i, relu4(__ldcs(x + i)));
	// the tail: at most 3 elements, one per thread of the first block
	int64_t t = 4 * n4 + (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (t < n)
		ys[t] = xs[t] > 0.f ? xs[t] : 0.f;
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	if (n_in != 1 || n_out != 1 || in[0].dtype != CUA_F32 || out[0].dtype != CUA_F32)
		return 1;
	static int sms;   // the SM count of the one device this process is given, asked once
	int dev;
	if (!sms && (cudaGetDevice(&dev) != cudaSuccess ||
	             cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess))
		return 1;
	const int64_t n = cua_numel(&in[0]), n4 = n / 4;
	// enough blocks for 2048 resident threads per SM, fewer when the tensor is small
	int64_t blocks = (n4 + THREADS - 1) / THREADS;
	if (blocks > (int64_t)sms * (2048 / THREADS))
		blocks = (int64_t)sms * (2048 / THREADS);
	if (blocks < 1)
		blocks = 1;
	const float *x = (const float *)in[0].data;
	float *y = (float *)out[0].data;
	relu_float4_kernel<<<(unsigned)blocks, THREADS, 0, stream>>>(
		(const float4 *)x, (float4 *)y, n4, x, y, n);
	return (int)cudaGetLastError();
}
