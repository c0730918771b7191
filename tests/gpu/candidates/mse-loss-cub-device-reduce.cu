// task: mseloss
// expect: ok
// CUB's device-wide reduction with a stream-ordered workspace: per-block partial sums of
// squared differences in double, cub::DeviceReduce::Sum over the partials, scratch from
// cudaMallocAsync/cudaFreeAsync on `stream`. Bytes: 2 reads of B*D floats, once.
#include "cuarena.h"
#include <cub/device/device_reduce.cuh>

#define PARTIALS 2048
#define THREADS 256

__global__ void sq_diff_partials_kernel(const float *p, const float *t, int64_t n,
                                        double *partials)
{
	__shared__ double s[THREADS];
	double acc = 0;
	for (int64_t i = blockIdx.x * (int64_t)THREADS + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * THREADS) {
		double d = (double)p[i] - (double)t[i];
		acc += d * d;
	}
	s[threadIdx.x] = acc;
	__syncthreads();
	for (int w = THREADS / 2; w > 0; w >>= 1) {
		if (threadIdx.x < w)
			s[threadIdx.x] += s[threadIdx.x + w];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		partials[blockIdx.x] = s[0];
}

__global__ void mean_kernel(const double *sum, int64_t n, float *loss)
{
	*loss = (float)(*sum / (double)n);
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	const float *p = (const float *)in[0].data, *t = (const float *)in[1].data;
	int64_t n = cua_numel(&in[0]);
	int blocks = (int)((n + THREADS - 1) / THREADS < PARTIALS ? (n + THREADS - 1) / THREADS
	                                                          : PARTIALS);
	double *partials = NULL, *sum = NULL;
	void *temp = NULL;
	size_t temp_bytes = 0;
	if (cub::DeviceReduce::Sum(NULL, temp_bytes, partials, sum, blocks, stream) != cudaSuccess)
		return 1;
	if (cudaMallocAsync((void **)&partials, (PARTIALS + 1) * sizeof(double), stream) != cudaSuccess)
		return 1;
	sum = partials + PARTIALS;
	if (cudaMallocAsync(&temp, temp_bytes, stream) != cudaSuccess) {
		cudaFreeAsync(partials, stream);
		return 1;
	}
	sq_diff_partials_kernel<<<blocks, THREADS, 0, stream>>>(p, t, n, partials);
	cudaError_t e = cub::DeviceReduce::Sum(temp, temp_bytes, partials, sum, blocks, stream);
	mean_kernel<<<1, 1, 0, stream>>>(sum, n, (float *)out[0].data);
	cudaFreeAsync(temp, stream);
	cudaFreeAsync(partials, stream);
	return e != cudaSuccess || cudaGetLastError() != cudaSuccess;
}
