/* L1/012-matmul-with-diagonal-matrices reference: C = diag(A)·B, A [N], B and C [N,M], f32
 * row-major: C[i,j] = A[i]·B[i,j].
 * cua_solve is the nvcc baseline: grid y over rows (A[i] loaded once per row
 * per thread), grid x over columns with grid-stride loops, one coalesced load
 * and store per element; cua_oracle writes the products as f64 (exact).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-012.so tasks/L1/012-matmul-with-diagonal-matrices/reference.cu
 * Napkin math (timed N=32768, M=16384): 537 MFLOP, 4.3 GB moved at the floor (1 ms at 4.3 TB/s).
 * Tolerance atol 1e-06, rtol 1e-06 (task.json; the reasons are in its description and
 * tools/l1-tasks.py). */
#include "cuarena.h"
#include "check.cuh"

#define DIAG_THREADS 256

template <typename Acc, typename Out>
__global__ void diag_matmul_kernel(const float *__restrict__ A, const float *__restrict__ B,
                                   Out *__restrict__ C, int64_t N, int64_t M)
{
	for (int64_t i = blockIdx.y; i < N; i += gridDim.y) {
		const Acc a = (Acc)A[i];
		const float *b = B + i * M;
		Out *c = C + i * M;
		for (int64_t j = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; j < M;
		     j += (int64_t)gridDim.x * blockDim.x)
			c[j] = (Out)(a * (Acc)b[j]);
	}
}

template <typename Acc, typename Out>
static int diag_matmul(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                       cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 2, out, n_out, 1));
	const struct cua_tensor *A = &in[0], *B = &in[1];
	struct cua_tensor *C = &out[0];
	CUA_CHECK(cua_check_tensor(A, CUA_F32, 1));
	CUA_CHECK(cua_check_tensor(B, CUA_F32, 2));
	CUA_CHECK(cua_check_tensor(C, cua_dtype_of<Out>::value, 2));
	const int64_t N = A->shape[0], M = B->shape[1];
	CUA_CHECK(cua_check_dim(B, 0, N));
	CUA_CHECK(cua_check_same_shape(B, C));

	dim3 grid(cua_blocks_1d(M, DIAG_THREADS), cua_blocks_yz(N, 1));
	diag_matmul_kernel<Acc, Out><<<grid, DIAG_THREADS, 0, stream>>>(
		(const float *)A->data, (const float *)B->data, (Out *)C->data, N, M);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return diag_matmul<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return diag_matmul<double, double>(in, n_in, out, n_out, stream);
}
