/* L1/014-matmul-for-upper-triangular-matrices reference: C = triu(A)·triu(B), A, B, C [N,N]
 * f32 row-major: C[i,j] = Σ_{k=i..j} A[i,k]·B[k,j] for i ≤ j, 0 below the
 * diagonal; only the upper triangles of A and B are read.
 * cua_solve is the nvcc baseline: the naive GEMM mapping (one thread per output,
 * a warp on 32 adjacent j of one row i) with the k loop cut to the triangle,
 * fp32 FMA in k order; cua_oracle is the same loop in double, writing f64.
 * Every lane of a warp starts at k = i, so each load of B is coalesced; lanes
 * stop at their own j.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-014.so tasks/L1/014-matmul-for-upper-triangular-matrices/reference.cu
 * Napkin math (timed N=4096): 22.9 GFLOP, 201 MB moved at the floor (0.047 ms at 4.3 TB/s; 0.34 ms at the 67 TFLOP/s FFMA peak).
 * Tolerance atol 0.001, rtol 0.0001 (task.json; the reasons are in its description and
 * tools/l1-tasks.py). */
#include "cuarena.h"
#include "gemm.cuh"

/* Grid: x over j (blockDim.x = 32), y over i; both loop past the grid. */
template <typename Acc, typename Out>
__global__ void triu_matmul_kernel(const float *__restrict__ A, const float *__restrict__ B,
                                   Out *__restrict__ C, int64_t N)
{
	for (int64_t i = (int64_t)blockIdx.y * blockDim.y + threadIdx.y; i < N;
	     i += (int64_t)gridDim.y * blockDim.y) {
		const float *a = A + i * N;
		for (int64_t j = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; j < N;
		     j += (int64_t)gridDim.x * blockDim.x) {
			Acc acc = 0;                          /* stays 0 for j < i */
			for (int64_t k = i; k <= j; k++)
				acc += (Acc)a[k] * (Acc)B[k * N + j];
			C[i * N + j] = (Out)acc;
		}
	}
}

template <typename Acc, typename Out>
static int triu_matmul(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                       cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 2, out, n_out, 1));
	const struct cua_tensor *A = &in[0], *B = &in[1];
	struct cua_tensor *C = &out[0];
	CUA_CHECK(cua_check_tensor(A, CUA_F32, 2));
	CUA_CHECK(cua_check_tensor(B, CUA_F32, 2));
	CUA_CHECK(cua_check_tensor(C, cua_dtype_of<Out>::value, 2));
	const int64_t N = A->shape[0];
	CUA_CHECK(cua_check_dim(A, 1, N));
	CUA_CHECK(cua_check_same_shape(A, B));
	CUA_CHECK(cua_check_same_shape(A, C));

	dim3 block(CUA_GEMM_BX, CUA_GEMM_BY);
	int64_t gx = (N + CUA_GEMM_BX - 1) / CUA_GEMM_BX;
	dim3 grid((unsigned int)(gx < CUA_MAX_BLOCKS_1D ? gx : CUA_MAX_BLOCKS_1D),
	          cua_blocks_yz(N, CUA_GEMM_BY));
	triu_matmul_kernel<Acc, Out><<<grid, block, 0, stream>>>(
		(const float *)A->data, (const float *)B->data, (Out *)C->data, N);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return triu_matmul<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return triu_matmul<double, double>(in, n_in, out, n_out, stream);
}
