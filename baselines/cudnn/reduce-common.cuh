/* reduce-common.cuh — cuDNN reduction over dim 1 shared by baselines/cudnn/
 * {mean,max,min}-dim.cu (tasks L1/048, L1/049, L1/053): y[b,n] = op_m x[b,m,n] of x [B,M,N]
 * f32 into y [B,N] f32, as one cudnnReduceTensor on x viewed as [B,M,N,1] into
 * y viewed as [B,1,N,1], fp32 compute, NaN propagated, no indices. Descriptors
 * and workspace are made on the first call and re-made only when the shape
 * changes.
 *
 * When M = 1 nothing is reduced: cuDNN refuses a reduction whose input and output
 * shapes are equal (CUDNN_STATUS_BAD_PARAM, seen on the H200 at the tasks' tiny
 * shape), and the mean, max or min of one element is that element, so y = x is a
 * device-to-device copy.
 *
 * A baseline names its cudnnReduceTensorOp_t and calls reduce_dim1(). Every
 * status is checked; failures return non-zero (a cudnnStatus_t, a cudaError_t,
 * or -1 count / -2 dtype, rank or data / -4 shape), never abort. */
#ifndef BASELINES_CUDNN_REDUCE_COMMON_CUH
#define BASELINES_CUDNN_REDUCE_COMMON_CUH

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"   /* legacy cuDNN API, on purpose */
#pragma nv_diag_suppress 1444
#pragma nv_diag_suppress 1215
#include <limits.h>
#include <string.h>
#include <cudnn.h>
#include "cuarena.h"

/* Created on the first call (the harness warms up before timing), kept for the
 * life of the process; descriptors and workspace are re-made only when the
 * shape changes. */
static cudnnHandle_t reduce_handle;
static cudnnTensorDescriptor_t reduce_xdesc, reduce_ydesc;
static cudnnReduceTensorDescriptor_t reduce_desc;
static void *reduce_ws;
static size_t reduce_ws_size;
static int64_t reduce_cached[3];     /* B, M, N that the above hold */

static inline int reduce_setup(cudnnReduceTensorOp_t op)
{
	cudnnStatus_t st = cudnnCreate(&reduce_handle);
	if (st != CUDNN_STATUS_SUCCESS)
		goto fail;
	st = cudnnCreateTensorDescriptor(&reduce_xdesc);
	if (st != CUDNN_STATUS_SUCCESS)
		goto fail;
	st = cudnnCreateTensorDescriptor(&reduce_ydesc);
	if (st != CUDNN_STATUS_SUCCESS)
		goto fail;
	st = cudnnCreateReduceTensorDescriptor(&reduce_desc);
	if (st != CUDNN_STATUS_SUCCESS)
		goto fail;
	st = cudnnSetReduceTensorDescriptor(reduce_desc, op, CUDNN_DATA_FLOAT, CUDNN_PROPAGATE_NAN,
	                                    CUDNN_REDUCE_TENSOR_NO_INDICES, CUDNN_32BIT_INDICES);
	if (st != CUDNN_STATUS_SUCCESS)
		goto fail;
	return 0;
fail:
	if (reduce_desc)
		cudnnDestroyReduceTensorDescriptor(reduce_desc);
	if (reduce_ydesc)
		cudnnDestroyTensorDescriptor(reduce_ydesc);
	if (reduce_xdesc)
		cudnnDestroyTensorDescriptor(reduce_xdesc);
	if (reduce_handle)
		cudnnDestroy(reduce_handle);
	reduce_desc = NULL;
	reduce_ydesc = reduce_xdesc = NULL;
	reduce_handle = NULL;
	return (int)st;
}

/* Descriptors and workspace for s = {B, M, N}. */
static inline int reduce_set_shape(const int64_t s[3])
{
	memset(reduce_cached, 0, sizeof(reduce_cached));
	if (reduce_ws) {
		cudaFree(reduce_ws);
		reduce_ws = NULL;
		reduce_ws_size = 0;
	}
	cudnnStatus_t st = cudnnSetTensor4dDescriptor(reduce_xdesc, CUDNN_TENSOR_NCHW,
	                                              CUDNN_DATA_FLOAT, (int)s[0], (int)s[1],
	                                              (int)s[2], 1);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	st = cudnnSetTensor4dDescriptor(reduce_ydesc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT,
	                                (int)s[0], 1, (int)s[2], 1);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	size_t need = 0;
	st = cudnnGetReductionWorkspaceSize(reduce_handle, reduce_desc, reduce_xdesc, reduce_ydesc,
	                                    &need);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	if (need > 0) {
		cudaError_t ce = cudaMalloc(&reduce_ws, need);
		if (ce != cudaSuccess) {
			reduce_ws = NULL;
			return (int)ce;
		}
		reduce_ws_size = need;
	}
	memcpy(reduce_cached, s, sizeof(reduce_cached));
	return 0;
}

/* The whole baseline of a reduce-over-dim-1 task: in = {x}, out = {y}. */
static inline int reduce_dim1(cudnnReduceTensorOp_t op, const struct cua_tensor *in, int n_in,
                              struct cua_tensor *out, int n_out, cudaStream_t stream)
{
	if (in == NULL || out == NULL || n_in != 1 || n_out != 1)
		return -1;
	const struct cua_tensor *x = &in[0];
	struct cua_tensor *y = &out[0];
	if (x->dtype != CUA_F32 || y->dtype != CUA_F32 || x->ndim != 3 || y->ndim != 2 ||
	    x->data == NULL || y->data == NULL)
		return -2;
	const int64_t s[3] = {x->shape[0], x->shape[1], x->shape[2]};
	for (int i = 0; i < 3; i++)
		if (s[i] < 1 || s[i] > INT_MAX)
			return -4;
	if (s[1] * s[2] > INT_MAX || s[0] > INT_MAX / (s[1] * s[2]) || y->shape[0] != s[0] ||
	    y->shape[1] != s[2])
		return -4;   /* cuDNN's strides are int */

	if (s[1] == 1)
		return (int)cudaMemcpyAsync(y->data, x->data, (size_t)(s[0] * s[2]) * sizeof(float),
		                            cudaMemcpyDeviceToDevice, stream);

	int rc;
	if (reduce_handle == NULL && (rc = reduce_setup(op)) != 0)
		return rc;
	if (memcmp(s, reduce_cached, sizeof(reduce_cached)) != 0 && (rc = reduce_set_shape(s)) != 0)
		return rc;
	cudnnStatus_t st = cudnnSetStream(reduce_handle, stream);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	const float one = 1.0f, zero = 0.0f;
	st = cudnnReduceTensor(reduce_handle, reduce_desc, NULL, 0, reduce_ws, reduce_ws_size, &one,
	                       reduce_xdesc, x->data, &zero, reduce_ydesc, y->data);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	return (int)cudaGetLastError();
}

#endif /* BASELINES_CUDNN_REDUCE_COMMON_CUH */
