/* baselines/cublas/sgemv.cu — cuBLAS baseline for L1/004-matvec: row-major
 * C[M,1] = A[M,K]·B[K,1] in fp32 with cublasSgemv.
 * cuBLAS is column-major: the row-major A is the column-major A^T [K,M] with
 * leading dimension K, so C = (A^T)^T·B is CUBLAS_OP_T on a K×M matrix.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o sgemv.so baselines/cublas/sgemv.cu -lcublas
 * Napkin math (timed M=4096, K=245760): 4.03 GB read, ~0.95 ms at 4.26 TB/s. */
#include <limits.h>
#include <cublas_v2.h>
#include "cuarena.h"

/* Handle created on the first call (the harness warms up before timing) and
 * kept for the life of the process. */
static cublasHandle_t handle;

static int shape_ok(const struct cua_tensor *t, int ndim, enum cua_dtype dtype)
{
	if (t->dtype != dtype || t->ndim != ndim || t->data == NULL)
		return 0;
	for (int i = 0; i < ndim; i++)
		if (t->shape[i] < 1 || t->shape[i] > INT_MAX)
			return 0;
	return 1;
}

/* The process-wide handle in strict fp32, bound to stream; 0 or a cuBLAS status. */
static int get_handle(cudaStream_t stream)
{
	cublasStatus_t st;
	if (handle == NULL) {
		cublasHandle_t h;
		st = cublasCreate(&h);
		if (st != CUBLAS_STATUS_SUCCESS)
			return (int)st;
		st = cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
		if (st != CUBLAS_STATUS_SUCCESS) {
			cublasDestroy(h);
			return (int)st;
		}
		handle = h;
	}
	return (int)cublasSetStream(handle, stream);
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	if (in == NULL || out == NULL || n_in != 2 || n_out != 1)
		return -1;
	const struct cua_tensor *A = &in[0], *B = &in[1];
	struct cua_tensor *C = &out[0];
	if (!shape_ok(A, 2, CUA_F32) || !shape_ok(B, 2, CUA_F32) || !shape_ok(C, 2, CUA_F32))
		return -2;
	const int M = (int)A->shape[0], K = (int)A->shape[1];
	if (B->shape[0] != K || B->shape[1] != 1 || C->shape[0] != M || C->shape[1] != 1)
		return -4;

	int rc = get_handle(stream);
	if (rc != 0)
		return rc;
	const float alpha = 1.0f, beta = 0.0f;
	/* column-major A^T is K×M (lda = K): C[M] = (A^T)^T · B[K] */
	cublasStatus_t st = cublasSgemv(handle, CUBLAS_OP_T, K, M, &alpha,
	                                (const float *)A->data, K, (const float *)B->data, 1,
	                                &beta, (float *)C->data, 1);
	if (st != CUBLAS_STATUS_SUCCESS)
		return (int)st;
	return (int)cudaGetLastError();
}
