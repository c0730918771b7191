/* cublas-common.cuh — what the cuBLAS baselines (the .cu files beside it) share:
 * the handle, made once per baseline with its math mode (and optionally device
 * pointer mode) and bound to the caller's stream on every call, the tensor
 * check, and the status check after the routine.
 *
 * A baseline checks its arguments with blas_shape_ok(), calls blas_bind() (or
 * blas_bind_device_pointers()), runs its routine on blas_handle and returns
 * blas_result() of it: 0, a cublasStatus_t or a cudaError_t, never an abort
 * (-1 count / -2 dtype, rank or data / -4 shape for bad arguments). A plain
 * row-major GEMM states a struct sgemm_spec and calls blas_sgemm(). */
#ifndef BASELINES_CUBLAS_CUBLAS_COMMON_CUH
#define BASELINES_CUBLAS_CUBLAS_COMMON_CUH

#include <limits.h>
#include <cublas_v2.h>
#include "cuarena.h"

/* Created on the first call (the harness warms up before timing) and kept for
 * the life of the process. */
static cublasHandle_t blas_handle;

/* t has dtype, rank ndim, data, and every extent in 1..INT_MAX (cuBLAS's int). */
static inline int blas_shape_ok(const struct cua_tensor *t, int ndim, enum cua_dtype dtype)
{
	if (t->dtype != dtype || t->ndim != ndim || t->data == NULL)
		return 0;
	for (int i = 0; i < ndim; i++)
		if (t->shape[i] < 1 || t->shape[i] > INT_MAX)
			return 0;
	return 1;
}

/* blas_handle, created on the first call with math (and, if device_pointers,
 * CUBLAS_POINTER_MODE_DEVICE; a handle that fails either is destroyed), bound
 * to stream; 0 or a cuBLAS status. */
static inline int blas_bind_mode(cudaStream_t stream, cublasMath_t math, int device_pointers)
{
	cublasStatus_t st;
	if (blas_handle == NULL) {
		cublasHandle_t h;
		st = cublasCreate(&h);
		if (st != CUBLAS_STATUS_SUCCESS)
			return (int)st;
		st = cublasSetMathMode(h, math);
		if (st == CUBLAS_STATUS_SUCCESS && device_pointers)
			st = cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
		if (st != CUBLAS_STATUS_SUCCESS) {
			cublasDestroy(h);
			return (int)st;
		}
		blas_handle = h;
	}
	return (int)cublasSetStream(blas_handle, stream);
}

/* blas_handle in math mode, host pointer mode (alpha, beta on the host). */
static inline int blas_bind(cudaStream_t stream, cublasMath_t math)
{
	return blas_bind_mode(stream, math, 0);
}

/* blas_handle in math mode, device pointer mode (alpha, beta in device memory). */
static inline int blas_bind_device_pointers(cudaStream_t stream, cublasMath_t math)
{
	return blas_bind_mode(stream, math, 1);
}

/* A routine's status, then any launch error: 0, a cuBLAS status or a cudaError_t. */
static inline int blas_result(cublasStatus_t st)
{
	if (st != CUBLAS_STATUS_SUCCESS)
		return (int)st;
	return (int)cudaGetLastError();
}

/* A row-major single GEMM task, C [M,N] = op(A)·op(B) in f32 (L1/001, 002, 006–009, 016–018). */
struct sgemm_spec {
	cublasMath_t math;   /* CUBLAS_DEFAULT_MATH (strict fp32) or CUBLAS_TF32_TENSOR_OP_MATH */
	int a_t;             /* 1: A is stored [K,M] and used transposed; 0: A [M,K] */
	int b_t;             /* 1: B is stored [N,K] and used transposed; 0: B [K,N] */
};

/* The whole baseline of an sgemm_spec task: in = {A, B}, out = {C}, one
 * cublasSgemm. cuBLAS is column-major: a row-major X[r,c] is the column-major
 * X^T[c,r] with the same leading dimension, so it computes C^T [N,M] =
 * op(B)^T·op(A)^T, where B^T as stored is N×K (ld N) or, with b_t, the
 * transpose of K×N (ld K), and A^T is K×M (ld K) or, with a_t, the transpose of
 * M×K (ld M). */
static inline int blas_sgemm(const struct sgemm_spec *sp, const struct cua_tensor *in, int n_in,
                             struct cua_tensor *out, int n_out, cudaStream_t stream)
{
	if (in == NULL || out == NULL || n_in != 2 || n_out != 1)
		return -1;
	const struct cua_tensor *A = &in[0], *B = &in[1];
	struct cua_tensor *C = &out[0];
	if (!blas_shape_ok(A, 2, CUA_F32) || !blas_shape_ok(B, 2, CUA_F32) ||
	    !blas_shape_ok(C, 2, CUA_F32))
		return -2;
	const int M = (int)A->shape[sp->a_t ? 1 : 0], K = (int)A->shape[sp->a_t ? 0 : 1],
	          N = (int)B->shape[sp->b_t ? 0 : 1];
	if (B->shape[sp->b_t ? 1 : 0] != K || C->shape[0] != M || C->shape[1] != N)
		return -4;

	int rc = blas_bind(stream, sp->math);
	if (rc != 0)
		return rc;
	const float alpha = 1.0f, beta = 0.0f;
	return blas_result(cublasSgemm(blas_handle, sp->b_t ? CUBLAS_OP_T : CUBLAS_OP_N,
	                               sp->a_t ? CUBLAS_OP_T : CUBLAS_OP_N, N, M, K, &alpha,
	                               (const float *)B->data, sp->b_t ? K : N,
	                               (const float *)A->data, sp->a_t ? M : K, &beta,
	                               (float *)C->data, N));
}

#endif /* BASELINES_CUBLAS_CUBLAS_COMMON_CUH */
