/* pool-common.cuh — cuDNN forward pooling shared by the pooling baselines
 * (baselines/cudnn/l1-042.cu, l1-044.cu, l1-045.cu, l1-046.cu): one
 * cudnnPoolingForward over x [N,C,spatial...] f32, packed, NaN propagated, any
 * window, stride and zero padding, floor mode. 1-D runs as 2-D with H = 1 in
 * front of L. The output extents cuDNN derives are checked against y's shape.
 * Descriptors are made on the first call and re-set only when the shape changes.
 * cuDNN's Nd strides are int: an x or y of more than INT_MAX elements is pooled in
 * slices of its N·C images, each [rows, 1, spatial...] (pooling never mixes two
 * images), one cudnnPoolingForward per slice.
 *
 * A baseline states its task's mode and geometry in a struct pool_spec and
 * calls pool_forward(). Every status is checked; failures return non-zero (a
 * cudnnStatus_t, a cudaError_t, or -1 count / -2 dtype, rank or data / -4
 * shape), never abort. */
#ifndef BASELINES_CUDNN_POOL_COMMON_CUH
#define BASELINES_CUDNN_POOL_COMMON_CUH

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"   /* legacy cuDNN API, on purpose */
#pragma nv_diag_suppress 1444
#pragma nv_diag_suppress 1215
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <cudnn.h>
#include "cuarena.h"

#define POOL_MAX_RANK 5   /* N, C and up to 3 spatial dims */

/* A task's fixed parameters; window, padding and stride hold nsp entries in
 * cuDNN's spatial order (slowest first; a 1-D task's leading H entry is 1, 0, 1). */
struct pool_spec {
	cudnnPoolingMode_t mode;
	int x_rank;                              /* rank of the task's x and y: 3, 4 or 5 */
	int nsp;                                 /* spatial dims cuDNN sees: 2 or 3 */
	int window[3], padding[3], stride[3];
	int api_2d;   /* 1: the 2-D calls (cudnnSetPooling2dDescriptor, 4-D tensor descriptors,
	               * cudnnGetPooling2dForwardOutputDim) instead of the Nd ones; x [N,C,H,W] */
};

/* Created on the first call (the harness warms up before timing), kept for the
 * life of the process; descriptors are re-set only when the shape changes. */
static cudnnHandle_t pool_handle;
static cudnnTensorDescriptor_t pool_xdesc, pool_ydesc;
static cudnnPoolingDescriptor_t pool_desc;
/* The shape the descriptors hold: x's extents then y's, or with api_2d
 * N, C, H, W, OH, OW; all 0 = none. */
static int64_t pool_cached[2 * POOL_MAX_RANK];
/* The slices of that shape: how many, and the elements of x and y in one (1, x's and
 * y's element counts, when the whole tensor fits cuDNN's int strides). */
static int64_t pool_parts, pool_part_x, pool_part_y;

static inline int pool_setup(const struct pool_spec *sp)
{
	cudnnStatus_t st = cudnnCreate(&pool_handle);
	if (st != CUDNN_STATUS_SUCCESS)
		goto fail;
	st = cudnnCreateTensorDescriptor(&pool_xdesc);
	if (st != CUDNN_STATUS_SUCCESS)
		goto fail;
	st = cudnnCreateTensorDescriptor(&pool_ydesc);
	if (st != CUDNN_STATUS_SUCCESS)
		goto fail;
	st = cudnnCreatePoolingDescriptor(&pool_desc);
	if (st != CUDNN_STATUS_SUCCESS)
		goto fail;
	if (sp->api_2d)
		st = cudnnSetPooling2dDescriptor(pool_desc, sp->mode, CUDNN_PROPAGATE_NAN,
		                                 sp->window[0], sp->window[1], sp->padding[0],
		                                 sp->padding[1], sp->stride[0], sp->stride[1]);
	else
		st = cudnnSetPoolingNdDescriptor(pool_desc, sp->mode, CUDNN_PROPAGATE_NAN, sp->nsp,
		                                 sp->window, sp->padding, sp->stride);
	if (st != CUDNN_STATUS_SUCCESS)
		goto fail;
	return 0;
fail:
	if (pool_desc)
		cudnnDestroyPoolingDescriptor(pool_desc);
	if (pool_ydesc)
		cudnnDestroyTensorDescriptor(pool_ydesc);
	if (pool_xdesc)
		cudnnDestroyTensorDescriptor(pool_xdesc);
	if (pool_handle)
		cudnnDestroy(pool_handle);
	pool_desc = NULL;
	pool_ydesc = pool_xdesc = NULL;
	pool_handle = NULL;
	return (int)st;
}

/* cuDNN's dims of a task tensor of rank x_rank: [N, C, 1..., spatial...] (1s
 * fill the leading spatial dims the task does not have), packed strides;
 * rank = nsp + 2 entries. */
static inline void pool_nd_dims(const int64_t *shape, int x_rank, int rank, int *dims,
                                int *strides)
{
	const int missing = rank - x_rank;
	dims[0] = (int)shape[0];
	dims[1] = (int)shape[1];
	for (int i = 2; i < rank; i++)
		dims[i] = i - 2 < missing ? 1 : (int)shape[i - missing];
	strides[rank - 1] = 1;
	for (int i = rank - 2; i >= 0; i--)
		strides[i] = strides[i + 1] * dims[i + 1];
}

/* Sets both descriptors for the Nd key s (x's x_rank extents, then y's) and
 * checks cuDNN's output extents. */
static inline int pool_set_shape_nd(const struct pool_spec *sp, const int64_t *s)
{
	const int xr = sp->x_rank, rank = sp->nsp + 2;
	int xd[POOL_MAX_RANK], xs[POOL_MAX_RANK], yd[POOL_MAX_RANK], ys[POOL_MAX_RANK];
	int od[POOL_MAX_RANK];
	int64_t slice[2 * POOL_MAX_RANK], xn = 1, yn = 1;
	memset(pool_cached, 0, sizeof(pool_cached));
	memcpy(slice, s, 2 * xr * sizeof(*s));
	for (int i = 0; i < xr; i++) {
		xn *= s[i];
		yn *= s[xr + i];
	}
	pool_parts = 1;
	pool_part_x = xn;
	pool_part_y = yn;
	if (xn > INT_MAX || yn > INT_MAX) {
		/* rows images of px (py) elements each: the most rows that fit, dividing rows */
		const int64_t rows = s[0] * s[1], px = xn / rows, py = yn / rows;
		int64_t r = INT_MAX / (px > py ? px : py);
		if (r < 1)
			return -4;   /* one image alone is over cuDNN's int strides */
		while (rows % r != 0)
			r--;
		slice[0] = slice[xr] = r;
		slice[1] = slice[xr + 1] = 1;
		pool_parts = rows / r;
		pool_part_x = r * px;
		pool_part_y = r * py;
	}
	pool_nd_dims(slice, xr, rank, xd, xs);
	pool_nd_dims(slice + xr, xr, rank, yd, ys);
	cudnnStatus_t st = cudnnSetTensorNdDescriptor(pool_xdesc, CUDNN_DATA_FLOAT, rank, xd, xs);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	st = cudnnGetPoolingNdForwardOutputDim(pool_desc, pool_xdesc, rank, od);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	for (int i = 0; i < rank; i++)
		if (od[i] != yd[i])
			return -4;
	st = cudnnSetTensorNdDescriptor(pool_ydesc, CUDNN_DATA_FLOAT, rank, yd, ys);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	memcpy(pool_cached, s, 2 * xr * sizeof(*s));
	return 0;
}

/* Sets both descriptors for the 2-D key s = {N, C, H, W, OH, OW} and checks
 * cuDNN's output extents. */
static inline int pool_set_shape_2d(const int64_t *s)
{
	memset(pool_cached, 0, sizeof(pool_cached));
	cudnnStatus_t st = cudnnSetTensor4dDescriptor(pool_xdesc, CUDNN_TENSOR_NCHW,
	                                              CUDNN_DATA_FLOAT, (int)s[0], (int)s[1],
	                                              (int)s[2], (int)s[3]);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	int n, c, h, w;
	st = cudnnGetPooling2dForwardOutputDim(pool_desc, pool_xdesc, &n, &c, &h, &w);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	if (n != s[0] || c != s[1] || h != s[4] || w != s[5])
		return -4;
	st = cudnnSetTensor4dDescriptor(pool_ydesc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, c, h, w);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	memcpy(pool_cached, s, 6 * sizeof(*s));
	return 0;
}

/* The shape key of x and y into s: its length, or -4 for an extent cuDNN
 * cannot take (each extent an int; Nd: x's and y's element counts an int64). */
static inline int pool_key(const struct pool_spec *sp, const struct cua_tensor *x,
                           const struct cua_tensor *y, int64_t *s)
{
	if (sp->api_2d) {
		for (int i = 0; i < 6; i++) {
			s[i] = i < 4 ? x->shape[i] : y->shape[i - 2];   /* N, C, H, W, OH, OW */
			if (s[i] < 1 || s[i] > INT_MAX)
				return -4;
		}
		return 6;
	}
	const int xr = sp->x_rank;
	int64_t xn = 1, yn = 1;   /* elements of x and y: sliced above INT_MAX, never over int64 */
	for (int i = 0; i < xr; i++) {
		s[i] = x->shape[i];
		s[xr + i] = y->shape[i];
		if (s[i] < 1 || s[i] > INT_MAX || s[xr + i] < 1 || s[xr + i] > INT_MAX ||
		    xn > INT64_MAX / s[i] || yn > INT64_MAX / s[xr + i])
			return -4;
		xn *= s[i];
		yn *= s[xr + i];
	}
	return 2 * xr;
}

/* The whole baseline of a pooling task: in = {x}, out = {y}. */
static inline int pool_forward(const struct pool_spec *sp, const struct cua_tensor *in, int n_in,
                               struct cua_tensor *out, int n_out, cudaStream_t stream)
{
	if (in == NULL || out == NULL || n_in != 1 || n_out != 1)
		return -1;
	if (sp->nsp < 2 || sp->nsp > 3 || sp->x_rank < 3 || sp->x_rank > sp->nsp + 2 ||
	    (sp->api_2d && (sp->nsp != 2 || sp->x_rank != 4)))
		return -4;   /* a malformed spec */
	const struct cua_tensor *x = &in[0];
	struct cua_tensor *y = &out[0];
	if (x->dtype != CUA_F32 || y->dtype != CUA_F32 || x->ndim != sp->x_rank ||
	    y->ndim != sp->x_rank || x->data == NULL || y->data == NULL)
		return -2;
	int64_t s[2 * POOL_MAX_RANK];
	const int n = pool_key(sp, x, y, s);
	if (n < 0)
		return n;
	if (y->shape[0] != s[0] || y->shape[1] != s[1])
		return -4;

	int rc;
	if (pool_handle == NULL && (rc = pool_setup(sp)) != 0)
		return rc;
	if (memcmp(s, pool_cached, n * sizeof(*s)) != 0 &&
	    (rc = sp->api_2d ? pool_set_shape_2d(s) : pool_set_shape_nd(sp, s)) != 0)
		return rc;
	cudnnStatus_t st = cudnnSetStream(pool_handle, stream);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	const float one = 1.0f, zero = 0.0f;
	const int64_t parts = sp->api_2d ? 1 : pool_parts;
	for (int64_t k = 0; k < parts; k++) {
		st = cudnnPoolingForward(pool_handle, pool_desc, &one, pool_xdesc,
		                         (const float *)x->data + k * pool_part_x, &zero, pool_ydesc,
		                         (float *)y->data + k * pool_part_y);
		if (st != CUDNN_STATUS_SUCCESS)
			return (int)st;
	}
	return (int)cudaGetLastError();
}

#endif /* BASELINES_CUDNN_POOL_COMMON_CUH */
