// task: logsoftmax
// expect: ok
// Block per row with cub::BlockReduce for the max and the sum of exp (the OneFlow /
// PyTorch pattern, written fresh): y = x - max - log(sum exp(x - max)).
// Bytes: 2 reads + 1 write of B*D floats.
#include "cuarena.h"
#include <cub/block/block_reduce.cuh>

#define THREADS 256

__global__ __launch_bounds__(THREADS) void log_softmax_block_kernel(const float *x, float *y,
                                                                    int64_t D)
{
	typedef cub::BlockReduce<float, THREADS> reduce_t;
	__shared__ typename reduce_t::TempStorage tmp;
	__shared__ float shared_max, shared_lse;
	const float *xr = x + blockIdx.x * D;
	float *yr = y + blockIdx.x * D;

	float m = -INFINITY;
	for (int64_t j = threadIdx.x; j < D; j += THREADS)
		m = fmaxf(m, xr[j]);
	m = reduce_t(tmp).Reduce(m, cuda::maximum<float>());
	if (threadIdx.x == 0)
		shared_max = m;
	__syncthreads();
	m = shared_max;

	float s = 0.f;
	for (int64_t j = threadIdx.x; j < D; j += THREADS)
		s += expf(xr[j] - m);
	s = reduce_t(tmp).Sum(s);
	if (threadIdx.x == 0)
		shared_lse = m + logf(s);
	__syncthreads();
	float lse = shared_lse;
	for (int64_t j = threadIdx.x; j < D; j += THREADS)
		yr[j] = xr[j] - lse;
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	int64_t B = in[0].shape[0], D = in[0].shape[1];
	log_softmax_block_kernel<<<(unsigned)B, THREADS, 0, stream>>>((const float *)in[0].data,
	                                                              (float *)out[0].data, D);
	return cudaGetLastError() != cudaSuccess;
}
