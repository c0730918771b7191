// task: softmax
// expect: ok
// Dynamic shared memory above 48 KiB: a block keeps its whole row (up to 48K floats =
// 192 KiB) in shared memory, opted in once with cudaFuncSetAttribute, so x is read from
// DRAM once (1 read + 1 write of B*D floats). Longer rows take a three-pass fallback.
#include "cuarena.h"

#define THREADS 1024
#define MAX_CACHED (48 * 1024)    /* floats: 192 KiB, below the H200's 227 KiB per block */

__device__ float block_reduce(float v, bool is_max, float *scratch)
{
	for (int o = 16; o > 0; o >>= 1) {
		float w = __shfl_xor_sync(0xffffffffu, v, o);
		v = is_max ? fmaxf(v, w) : v + w;
	}
	if (threadIdx.x % 32 == 0)
		scratch[threadIdx.x / 32] = v;
	__syncthreads();
	v = scratch[threadIdx.x % 32];   /* THREADS / 32 == 32 partials */
	for (int o = 16; o > 0; o >>= 1) {
		float w = __shfl_xor_sync(0xffffffffu, v, o);
		v = is_max ? fmaxf(v, w) : v + w;
	}
	__syncthreads();
	return v;
}

__global__ __launch_bounds__(THREADS) void softmax_smem_kernel(const float *x, float *y,
                                                               int64_t D, bool cached)
{
	extern __shared__ float row[];
	__shared__ float scratch[32];
	const float *xr = x + blockIdx.x * D;
	float *yr = y + blockIdx.x * D;
	float m = -INFINITY;
	for (int64_t j = threadIdx.x; j < D; j += THREADS) {
		float v = xr[j];
		if (cached)
			row[j] = v;
		m = fmaxf(m, v);
	}
	m = block_reduce(m, true, scratch);
	float s = 0.f;
	for (int64_t j = threadIdx.x; j < D; j += THREADS)
		s += expf((cached ? row[j] : xr[j]) - m);
	s = block_reduce(s, false, scratch);
	float inv = 1.f / s;
	for (int64_t j = threadIdx.x; j < D; j += THREADS)
		yr[j] = expf((cached ? row[j] : xr[j]) - m) * inv;
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	int64_t B = in[0].shape[0], D = in[0].shape[1];
	bool cached = D <= MAX_CACHED;
	size_t smem = cached ? (size_t)D * sizeof(float) : 0;
	if (smem > 48 * 1024 &&
	    cudaFuncSetAttribute(softmax_smem_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
	                         (int)smem) != cudaSuccess)
		return 1;
	softmax_smem_kernel<<<(unsigned)B, THREADS, smem, stream>>>(
		(const float *)in[0].data, (float *)out[0].data, D, cached);
	return cudaGetLastError() != cudaSuccess;
}
