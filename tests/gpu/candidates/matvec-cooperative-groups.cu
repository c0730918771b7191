// task: matrix-vector-multiplication
// expect: ok
// Cooperative groups: the block is tiled into 32-thread tiles, one row per tile, partial
// dot products reduced with cg::reduce. Bytes: one read of A (M*K floats) dominates.
#include "cuarena.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

#define THREADS 256

__global__ __launch_bounds__(THREADS) void matvec_cg_kernel(const float *A, const float *x,
                                                            float *y, int64_t M, int64_t K)
{
	cg::thread_block block = cg::this_thread_block();
	cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
	int64_t row = blockIdx.x * (int64_t)(THREADS / 32) + tile.meta_group_rank();
	if (row >= M)
		return;
	const float *a = A + row * K;
	float acc = 0.f;
	for (int64_t k = tile.thread_rank(); k < K; k += 32)
		acc = fmaf(a[k], x[k], acc);
	acc = cg::reduce(tile, acc, cg::plus<float>());
	if (tile.thread_rank() == 0)
		y[row] = acc;
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	int64_t M = in[0].shape[0], K = in[0].shape[1];
	unsigned blocks = (unsigned)((M + THREADS / 32 - 1) / (THREADS / 32));
	matvec_cg_kernel<<<blocks, THREADS, 0, stream>>>((const float *)in[0].data,
	                                                 (const float *)in[1].data,
	                                                 (float *)out[0].data, M, K);
	return cudaGetLastError() != cudaSuccess;
}
