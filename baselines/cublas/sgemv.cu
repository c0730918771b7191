/* baselines/cublas/sgemv.cu — cuBLAS baseline for L1/004-matrix-vector-multiplication: row-major
 * C[M,1] = A[M,K]·B[K,1] in fp32 with cublasSgemv.
 * cuBLAS is column-major: the row-major A is the column-major A^T [K,M] with
 * leading dimension K, so C = (A^T)^T·B is CUBLAS_OP_T on a K×M matrix.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o sgemv.so baselines/cublas/sgemv.cu -lcublas
 * Napkin math (timed M=4096, K=245760): 4.03 GB read, ~0.95 ms at 4.26 TB/s. */
#include "cublas-common.cuh"

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	if (in == NULL || out == NULL || n_in != 2 || n_out != 1)
		return -1;
	const struct cua_tensor *A = &in[0], *B = &in[1];
	struct cua_tensor *C = &out[0];
	if (!blas_shape_ok(A, 2, CUA_F32) || !blas_shape_ok(B, 2, CUA_F32) ||
	    !blas_shape_ok(C, 2, CUA_F32))
		return -2;
	const int M = (int)A->shape[0], K = (int)A->shape[1];
	if (B->shape[0] != K || B->shape[1] != 1 || C->shape[0] != M || C->shape[1] != 1)
		return -4;

	int rc = blas_bind(stream, CUBLAS_DEFAULT_MATH);
	if (rc != 0)
		return rc;
	const float alpha = 1.0f, beta = 0.0f;
	/* column-major A^T is K×M (lda = K): C[M] = (A^T)^T · B[K] */
	return blas_result(cublasSgemv(blas_handle, CUBLAS_OP_T, K, M, &alpha,
	                               (const float *)A->data, K, (const float *)B->data, 1,
	                               &beta, (float *)C->data, 1));
}
