/* baselines/cublas/sgemm-nd.cu — cuBLAS baseline for L1/010-3d-tensor-matrix-multiplication
 * and L1/011-4d-tensor-matrix-multiplication: C[..., n] = Σ_k A[..., k]·B[k, n] with A of
 * rank 2–8, B [K,N] and C of A's leading extents and N, f32 row-major, in strict
 * fp32 (CUBLAS_DEFAULT_MATH: no TF32). The leading extents of a contiguous A
 * flatten into rows, so this is one row-major R×K by K×N product, computed by
 * cuBLAS (column-major) as C^T = B^T·A^T: a row-major X[r,c] is the column-major
 * X^T[c,r] with the same leading dimension.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o sgemm-nd.so baselines/cublas/sgemm-nd.cu -lcublas
 * Napkin math: 010 timed 103.1 GFLOP, ~2.1 ms; 011 timed 206.2 GFLOP, ~4.3 ms
 * (at ~48–50 TFLOP/s). */
#include "cublas-common.cuh"

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	if (in == NULL || out == NULL || n_in != 2 || n_out != 1)
		return -1;
	const struct cua_tensor *A = &in[0], *B = &in[1];
	struct cua_tensor *C = &out[0];
	const int r = A->ndim;
	if (r < 2 || r > CUA_MAX_DIMS || !blas_shape_ok(A, r, CUA_F32) ||
	    !blas_shape_ok(B, 2, CUA_F32) || !blas_shape_ok(C, r, CUA_F32))
		return -2;
	const int K = (int)A->shape[r - 1], N = (int)B->shape[1];
	if (B->shape[0] != K || C->shape[r - 1] != N)
		return -4;
	long long rows = 1;
	for (int i = 0; i < r - 1; i++) {
		if (C->shape[i] != A->shape[i])
			return -4;
		rows *= A->shape[i];
		if (rows > INT_MAX)
			return -4;
	}
	const int R = (int)rows;

	int rc = blas_bind(stream, CUBLAS_DEFAULT_MATH);
	if (rc != 0)
		return rc;
	const float alpha = 1.0f, beta = 0.0f;
	/* column-major: C^T [N,R] = B^T [N,K] · A^T [K,R] */
	return blas_result(cublasSgemm(blas_handle, CUBLAS_OP_N, CUBLAS_OP_N, N, R, K, &alpha,
	                               (const float *)B->data, N, (const float *)A->data, K,
	                               &beta, (float *)C->data, N));
}
