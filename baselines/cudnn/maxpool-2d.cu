/* baselines/cudnn/maxpool-2d.cu — cuDNN baseline for L1/050-maxpool-2d: 2-D max
 * pooling of x [N,C,H,W] f32 (NCHW), window 3, stride 2, padding 1, floor mode,
 * as cudnnPoolingForward(CUDNN_POOLING_MAX); cuDNN's padded cells never win a
 * max. The output extents cuDNN derives are checked against y's shape.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o maxpool-2d.so baselines/cudnn/maxpool-2d.cu -lcudnn
 * Napkin math (timed N=C=64, H=W=512): 4·N·C·(H·W + 256·256) = 5.37 GB,
 * ~1.25 ms at 4.3 TB/s. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"   /* legacy cuDNN API, on purpose */
#pragma nv_diag_suppress 1444
#pragma nv_diag_suppress 1215
#include <limits.h>
#include <string.h>
#include <cudnn.h>
#include "cuarena.h"

#define POOL_K 3   /* tasks/L1/050-maxpool-2d/task.json params K, S, P */
#define POOL_S 2
#define POOL_P 1

/* Created on the first call (the harness warms up before timing), kept for the
 * life of the process; descriptors are re-set only when the shape changes. */
static cudnnHandle_t handle;
static cudnnTensorDescriptor_t xdesc, ydesc;
static cudnnPoolingDescriptor_t pool;
static int64_t cached[6];            /* N, C, H, W, OH, OW that the descriptors hold */

static int setup(void)
{
	cudnnStatus_t st = cudnnCreate(&handle);
	if (st != CUDNN_STATUS_SUCCESS)
		goto fail;
	st = cudnnCreateTensorDescriptor(&xdesc);
	if (st != CUDNN_STATUS_SUCCESS)
		goto fail;
	st = cudnnCreateTensorDescriptor(&ydesc);
	if (st != CUDNN_STATUS_SUCCESS)
		goto fail;
	st = cudnnCreatePoolingDescriptor(&pool);
	if (st != CUDNN_STATUS_SUCCESS)
		goto fail;
	st = cudnnSetPooling2dDescriptor(pool, CUDNN_POOLING_MAX, CUDNN_PROPAGATE_NAN, POOL_K,
	                                 POOL_K, POOL_P, POOL_P, POOL_S, POOL_S);
	if (st != CUDNN_STATUS_SUCCESS)
		goto fail;
	return 0;
fail:
	if (pool)
		cudnnDestroyPoolingDescriptor(pool);
	if (ydesc)
		cudnnDestroyTensorDescriptor(ydesc);
	if (xdesc)
		cudnnDestroyTensorDescriptor(xdesc);
	if (handle)
		cudnnDestroy(handle);
	pool = NULL;
	ydesc = xdesc = NULL;
	handle = NULL;
	return (int)st;
}

/* Sets both descriptors for this shape and checks cuDNN's output extents. */
static int set_shape(const int64_t s[6])
{
	memset(cached, 0, sizeof(cached));
	cudnnStatus_t st = cudnnSetTensor4dDescriptor(xdesc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT,
	                                              (int)s[0], (int)s[1], (int)s[2], (int)s[3]);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	int n, c, h, w;
	st = cudnnGetPooling2dForwardOutputDim(pool, xdesc, &n, &c, &h, &w);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	if (n != s[0] || c != s[1] || h != s[4] || w != s[5])
		return -4;
	st = cudnnSetTensor4dDescriptor(ydesc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, c, h, w);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	memcpy(cached, s, sizeof(cached));
	return 0;
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	if (in == NULL || out == NULL || n_in != 1 || n_out != 1)
		return -1;
	const struct cua_tensor *x = &in[0];
	struct cua_tensor *y = &out[0];
	if (x->dtype != CUA_F32 || y->dtype != CUA_F32 || x->ndim != 4 || y->ndim != 4 ||
	    x->data == NULL || y->data == NULL)
		return -2;
	const int64_t s[6] = {x->shape[0], x->shape[1], x->shape[2], x->shape[3], y->shape[2],
	                      y->shape[3]};
	for (int i = 0; i < 6; i++)
		if (s[i] < 1 || s[i] > INT_MAX)
			return -4;
	if (y->shape[0] != s[0] || y->shape[1] != s[1])
		return -4;

	int rc;
	if (handle == NULL && (rc = setup()) != 0)
		return rc;
	if (memcmp(s, cached, sizeof(cached)) != 0 && (rc = set_shape(s)) != 0)
		return rc;
	cudnnStatus_t st = cudnnSetStream(handle, stream);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	const float one = 1.0f, zero = 0.0f;
	st = cudnnPoolingForward(handle, pool, &one, xdesc, x->data, &zero, ydesc, y->data);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	return (int)cudaGetLastError();
}
