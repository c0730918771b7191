/* baselines/cublas/diag-matmul.cu — cuBLAS baseline for L1/012-matmul-with-diagonal-matrices:
 * C[i,j] = A[i]·B[i,j] (C = diag(A)·B), A [N], B and C [N,M], f32 row-major, as
 * one cublasSdgmm: one fp32 product per element, exactly the task's function.
 * The row-major B [N,M] is the column-major B^T [M,N] (leading dimension M), and
 * C^T = B^T·diag(A) scales its columns: CUBLAS_SIDE_RIGHT with m = M, n = N.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o diag-matmul.so baselines/cublas/diag-matmul.cu -lcublas
 * Napkin math (timed N=32768, M=16384): 4.29 GB moved, ~1.0 ms at 4.26 TB/s. */
#include "cublas-common.cuh"

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	if (in == NULL || out == NULL || n_in != 2 || n_out != 1)
		return -1;
	const struct cua_tensor *A = &in[0], *B = &in[1];
	struct cua_tensor *C = &out[0];
	if (!blas_shape_ok(A, 1, CUA_F32) || !blas_shape_ok(B, 2, CUA_F32) ||
	    !blas_shape_ok(C, 2, CUA_F32))
		return -2;
	const int N = (int)A->shape[0], M = (int)B->shape[1];
	if (B->shape[0] != N || C->shape[0] != N || C->shape[1] != M)
		return -4;

	int rc = blas_bind(stream, CUBLAS_DEFAULT_MATH);
	if (rc != 0)
		return rc;
	/* column-major M×N: C^T = B^T · diag(A) */
	return blas_result(cublasSdgmm(blas_handle, CUBLAS_SIDE_RIGHT, M, N,
	                               (const float *)B->data, M, (const float *)A->data, 1,
	                               (float *)C->data, M));
}
