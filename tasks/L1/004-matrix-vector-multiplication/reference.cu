/* L1/004-matrix-vector-multiplication reference: C = A·B with A [M,K], B [K,1], C [M,1], f32 row-major:
 * C[m] = Σ_k A[m,k]·B[k].
 * cua_solve is the nvcc baseline: one block per row, each thread sums a strided
 * slice of the row (coalesced loads of A; B comes from L2), then a warp-shuffle
 * block sum; cua_oracle runs the same in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-004.so tasks/L1/004-matrix-vector-multiplication/reference.cu
 * Napkin math (timed M=2048, K=1048576): 4.29 GFLOP, 8.59 GB moved at the floor (2 ms at 4.3 TB/s).
 * Tolerance atol 0.04, rtol 0.0001 (task.json; the reasons are in its description and
 * tools/l1-tasks.py). */
#include "cuarena.h"
#include "rowreduce.cuh"

template <typename Acc, typename Out>
__global__ void matvec_kernel(const float *__restrict__ A, const float *__restrict__ x,
                              Out *__restrict__ y, int64_t M, int64_t K)
{
	for (int64_t r = blockIdx.x; r < M; r += gridDim.x) {      /* uniform per block */
		const float *row = A + r * K;
		Acc s = 0;
		for (int64_t k = threadIdx.x; k < K; k += blockDim.x)
			s += (Acc)row[k] * (Acc)x[k];
		s = cua_block_sum(s);
		if (threadIdx.x == 0)
			y[r] = (Out)s;
	}
}

template <typename Acc, typename Out>
static int matvec(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 2, out, n_out, 1));
	const struct cua_tensor *A = &in[0], *B = &in[1];
	struct cua_tensor *C = &out[0];
	CUA_CHECK(cua_check_tensor(A, CUA_F32, 2));
	CUA_CHECK(cua_check_tensor(B, CUA_F32, 2));
	CUA_CHECK(cua_check_tensor(C, cua_dtype_of<Out>::value, 2));
	const int64_t M = A->shape[0], K = A->shape[1];
	CUA_CHECK(cua_check_dim(B, 0, K));
	CUA_CHECK(cua_check_dim(B, 1, 1));
	CUA_CHECK(cua_check_dim(C, 0, M));
	CUA_CHECK(cua_check_dim(C, 1, 1));

	matvec_kernel<Acc, Out><<<cua_blocks_rows(M), CUA_ROW_THREADS, 0, stream>>>(
		(const float *)A->data, (const float *)B->data, (Out *)C->data, M, K);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return matvec<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return matvec<double, double>(in, n_in, out, n_out, stream);
}
