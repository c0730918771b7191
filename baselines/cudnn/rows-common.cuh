/* rows-common.cuh — what the cuDNN baselines over x, y [B,D] f32 share
 * (activation-common.cuh, softmax-common.cuh): the argument checks, the handle
 * and one packed [B,D,1,1] NCHW tensor descriptor used for both x and y,
 * re-set only when the shape changes. Included by those headers, not by a
 * baseline. Failures return non-zero (a cudnnStatus_t, or -1 count / -2 dtype,
 * rank or data / -4 shape), never abort. */
#ifndef BASELINES_CUDNN_ROWS_COMMON_CUH
#define BASELINES_CUDNN_ROWS_COMMON_CUH

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"   /* legacy cuDNN API, on purpose */
#pragma nv_diag_suppress 1444
#pragma nv_diag_suppress 1215
#include <limits.h>
#include <cudnn.h>
#include "cuarena.h"

/* Created on the first call (the harness warms up before timing), kept for the
 * life of the process; the descriptor is re-set only when the shape changes. */
static cudnnHandle_t rows_handle;
static cudnnTensorDescriptor_t rows_desc;
static int64_t rows_cached_b, rows_cached_d;   /* shape rows_desc holds; 0 = none */

/* in = {x}, out = {y}, both f32 [B,D] with data, 1 <= B, D <= INT_MAX, y's
 * shape x's: 0 with *b, *d set; else -1 (counts), -2 (dtype, rank, data) or
 * -4 (shape). */
static inline int rows_check(const struct cua_tensor *in, int n_in, const struct cua_tensor *out,
                             int n_out, int64_t *b, int64_t *d)
{
	if (in == NULL || out == NULL || n_in != 1 || n_out != 1)
		return -1;
	const struct cua_tensor *x = &in[0];
	const struct cua_tensor *y = &out[0];
	if (x->dtype != CUA_F32 || y->dtype != CUA_F32 || x->ndim != 2 || y->ndim != 2 ||
	    x->data == NULL || y->data == NULL)
		return -2;
	const int64_t B = x->shape[0], D = x->shape[1];
	if (B < 1 || D < 1 || B > INT_MAX || D > INT_MAX || y->shape[0] != B || y->shape[1] != D)
		return -4;
	*b = B;
	*d = D;
	return 0;
}

/* Destroys rows_desc and rows_handle (each if made) and NULLs them. */
static inline void rows_teardown(void)
{
	if (rows_desc)
		cudnnDestroyTensorDescriptor(rows_desc);
	if (rows_handle)
		cudnnDestroy(rows_handle);
	rows_desc = NULL;
	rows_handle = NULL;
}

/* Creates rows_handle and rows_desc; on failure destroys what it made (and
 * NULLs both) and returns the cudnnStatus_t. */
static inline int rows_setup(void)
{
	cudnnStatus_t st = cudnnCreate(&rows_handle);
	if (st != CUDNN_STATUS_SUCCESS)
		goto fail;
	st = cudnnCreateTensorDescriptor(&rows_desc);
	if (st != CUDNN_STATUS_SUCCESS)
		goto fail;
	return 0;
fail:
	rows_teardown();
	return (int)st;
}

/* rows_desc as the packed [B,D,1,1] tensor unless it already is, then
 * rows_handle bound to stream; 0 or a cudnnStatus_t. */
static inline int rows_bind(int64_t B, int64_t D, cudaStream_t stream)
{
	cudnnStatus_t st;
	if (B != rows_cached_b || D != rows_cached_d) {
		rows_cached_b = rows_cached_d = 0;
		st = cudnnSetTensor4dDescriptor(rows_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, (int)B,
		                                (int)D, 1, 1);
		if (st != CUDNN_STATUS_SUCCESS)
			return (int)st;
		rows_cached_b = B;
		rows_cached_d = D;
	}
	return (int)cudnnSetStream(rows_handle, stream);
}

#endif /* BASELINES_CUDNN_ROWS_COMMON_CUH */
