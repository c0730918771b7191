// task: batchnorm-inference
// expect: ok
// Constant memory: the per-channel statistics and affine parameters are copied device to
// __constant__ arrays on `stream` (cudaMemcpyToSymbolAsync), then every thread reads
// its channel's values through the constant cache (one channel per block row, so a warp
// reads one address: a broadcast). More channels than fit take the global-memory path.
// Bytes: 1 read + 1 write of N*C*H*W floats.
#include "cuarena.h"

#define MAX_C 2048

__constant__ float c_mean[MAX_C], c_var[MAX_C], c_weight[MAX_C], c_bias[MAX_C];

__global__ void batchnorm_const_kernel(const float *x, float *y, int64_t C, int64_t HW,
                                       float eps)
{
	int64_t plane = blockIdx.y;                 /* n * C + c */
	int c = (int)(plane % C);
	float scale = c_weight[c] * rsqrtf(c_var[c] + eps);
	float shift = c_bias[c] - c_mean[c] * scale;
	const float *xp = x + plane * HW;
	float *yp = y + plane * HW;
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < HW;
	     i += (int64_t)gridDim.x * blockDim.x)
		yp[i] = fmaf(xp[i], scale, shift);
}

__global__ void batchnorm_global_kernel(const float *x, const float *mean, const float *var,
                                        const float *w, const float *b, float *y, int64_t C,
                                        int64_t HW, int64_t n, float eps)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x) {
		int64_t c = (i / HW) % C;
		y[i] = (x[i] - mean[c]) * rsqrtf(var[c] + eps) * w[c] + b[c];
	}
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	int64_t N = in[0].shape[0], C = in[0].shape[1];
	int64_t HW = in[0].shape[2] * in[0].shape[3];
	const float *x = (const float *)in[0].data;
	float *y = (float *)out[0].data;
	const float eps = 1e-5f;
	if (C > MAX_C || N * C > 65535) {
		batchnorm_global_kernel<<<4096, 256, 0, stream>>>(
			x, (const float *)in[1].data, (const float *)in[2].data,
			(const float *)in[3].data, (const float *)in[4].data, y, C, HW, N * C * HW, eps);
		return cudaGetLastError() != cudaSuccess;
	}
	size_t bytes = (size_t)C * sizeof(float);
	if (cudaMemcpyToSymbolAsync(c_mean, in[1].data, bytes, 0, cudaMemcpyDeviceToDevice,
	                            stream) != cudaSuccess ||
	    cudaMemcpyToSymbolAsync(c_var, in[2].data, bytes, 0, cudaMemcpyDeviceToDevice,
	                            stream) != cudaSuccess ||
	    cudaMemcpyToSymbolAsync(c_weight, in[3].data, bytes, 0, cudaMemcpyDeviceToDevice,
	                            stream) != cudaSuccess ||
	    cudaMemcpyToSymbolAsync(c_bias, in[4].data, bytes, 0, cudaMemcpyDeviceToDevice,
	                            stream) != cudaSuccess)
		return 1;
	int64_t per_block = 256 * 8;
	unsigned gx = (unsigned)((HW + per_block - 1) / per_block);
	dim3 grid(gx, (unsigned)(N * C));
	batchnorm_const_kernel<<<grid, 256, 0, stream>>>(x, y, C, HW, eps);
	return cudaGetLastError() != cudaSuccess;
}
