/* baselines/cublas/sgemm-batched.cu — cuBLAS baseline for L1/003-batched-matrix-multiplication:
 * row-major C[b] = A[b]·B[b], A [BATCH,M,K], B [BATCH,K,N], C [BATCH,M,N], in
 * strict fp32 (CUBLAS_DEFAULT_MATH: no TF32), one cublasSgemmStridedBatched.
 * cuBLAS is column-major, so each batch computes C^T = B^T·A^T: a row-major
 * X[r,c] is the column-major X^T[c,r] with the same leading dimension.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o sgemm-batched.so baselines/cublas/sgemm-batched.cu -lcublas
 * Napkin math (timed 128 × 512×1024×1024): 137.4 GFLOP at ~50 TFLOP/s = ~2.8 ms. */
#include "cublas-common.cuh"

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	if (in == NULL || out == NULL || n_in != 2 || n_out != 1)
		return -1;
	const struct cua_tensor *A = &in[0], *B = &in[1];
	struct cua_tensor *C = &out[0];
	if (!blas_shape_ok(A, 3, CUA_F32) || !blas_shape_ok(B, 3, CUA_F32) ||
	    !blas_shape_ok(C, 3, CUA_F32))
		return -2;
	const int batch = (int)A->shape[0], M = (int)A->shape[1], K = (int)A->shape[2],
	          N = (int)B->shape[2];
	if (B->shape[0] != batch || B->shape[1] != K || C->shape[0] != batch ||
	    C->shape[1] != M || C->shape[2] != N)
		return -4;

	int rc = blas_bind(stream, CUBLAS_DEFAULT_MATH);
	if (rc != 0)
		return rc;
	const float alpha = 1.0f, beta = 0.0f;
	/* column-major, per batch: C^T [N,M] = B^T [N,K] · A^T [K,M] */
	return blas_result(cublasSgemmStridedBatched(
		blas_handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha,
		(const float *)B->data, N, (long long)K * N,
		(const float *)A->data, K, (long long)M * K, &beta,
		(float *)C->data, N, (long long)M * N, batch));
}
