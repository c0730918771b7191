// task: l1norm
// expect: ok
// cub::DeviceSegmentedReduce::Sum over rows: one segment per row, |x| through a
// transform iterator, row offsets through a counting iterator (nothing materialised),
// then one pass dividing each row by its mean, sum / D (KernelBench's L1Norm). Workspace: cudaMallocAsync on `stream`.
// Bytes: 2 reads + 1 write of B*D floats.
#include "cuarena.h"
#include <cub/device/device_segmented_reduce.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

struct abs_op {
	__host__ __device__ float operator()(float v) const { return fabsf(v); }
};

struct row_offset {
	int64_t d;
	__host__ __device__ int64_t operator()(int64_t r) const { return r * d; }
};

__global__ void divide_rows_kernel(const float *x, const float *sums, float *y, int64_t n,
                                   int64_t D)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		y[i] = x[i] / (sums[i / D] / (float)D);
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	int64_t B = in[0].shape[0], D = in[0].shape[1];
	const float *x = (const float *)in[0].data;
	auto values = thrust::make_transform_iterator(x, abs_op());
	auto begins = thrust::make_transform_iterator(thrust::counting_iterator<int64_t>(0),
	                                              row_offset{D});
	auto ends = begins + 1;
	float *sums = NULL;
	void *temp = NULL;
	size_t temp_bytes = 0;
	if (cub::DeviceSegmentedReduce::Sum(NULL, temp_bytes, values, sums, (int)B, begins, ends,
	                                    stream) != cudaSuccess)
		return 1;
	if (cudaMallocAsync((void **)&sums, B * sizeof(float), stream) != cudaSuccess)
		return 1;
	if (cudaMallocAsync(&temp, temp_bytes, stream) != cudaSuccess) {
		cudaFreeAsync(sums, stream);
		return 1;
	}
	cudaError_t e = cub::DeviceSegmentedReduce::Sum(temp, temp_bytes, values, sums, (int)B,
	                                                begins, ends, stream);
	int64_t n = B * D;
	divide_rows_kernel<<<2048, 256, 0, stream>>>(x, sums, (float *)out[0].data, n, D);
	cudaFreeAsync(temp, stream);
	cudaFreeAsync(sums, stream);
	return e != cudaSuccess || cudaGetLastError() != cudaSuccess;
}
