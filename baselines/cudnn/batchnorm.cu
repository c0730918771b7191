/* baselines/cudnn/batchnorm.cu — cuDNN baseline for X/009-batchnorm-inference: BatchNorm2d
 * in inference mode, x, y [N,C,H,W] f32 (NCHW), running_mean, running_var,
 * weight, bias [C], as cudnnBatchNormalizationForwardInference(SPATIAL):
 * y = weight·(x − mean)/sqrt(eps + var) + bias with eps = 1e-5 — torch's
 * formula, and the call torch itself makes for eval-mode batch_norm on CUDA.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o batchnorm.so baselines/cudnn/batchnorm.cu -lcudnn
 * Napkin math (timed N=128, C=64, H=W=256): 8·N·C·H·W = 4.29 GB, ~1.0 ms at
 * 4.26 TB/s. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"   /* legacy cuDNN API, on purpose */
#pragma nv_diag_suppress 1444
#pragma nv_diag_suppress 1215
#include <limits.h>
#include <string.h>
#include <cudnn.h>
#include "cuarena.h"

#define BATCHNORM_EPS 1e-5   /* tasks/X/009-batchnorm-inference/task.json params.eps */

/* Created on the first call (the harness warms up before timing), kept for the
 * life of the process; descriptors are re-set only when the shape changes. */
static cudnnHandle_t handle;
static cudnnTensorDescriptor_t xdesc, pdesc;   /* x and y; the [1,C,1,1] parameters */
static int64_t cached[4];                      /* N, C, H, W that the descriptors hold */

static int setup(void)
{
	cudnnStatus_t st = cudnnCreate(&handle);
	if (st != CUDNN_STATUS_SUCCESS)
		goto fail;
	st = cudnnCreateTensorDescriptor(&xdesc);
	if (st != CUDNN_STATUS_SUCCESS)
		goto fail;
	st = cudnnCreateTensorDescriptor(&pdesc);
	if (st != CUDNN_STATUS_SUCCESS)
		goto fail;
	return 0;
fail:
	if (pdesc)
		cudnnDestroyTensorDescriptor(pdesc);
	if (xdesc)
		cudnnDestroyTensorDescriptor(xdesc);
	if (handle)
		cudnnDestroy(handle);
	pdesc = xdesc = NULL;
	handle = NULL;
	return (int)st;
}

static int set_shape(const int64_t s[4])
{
	memset(cached, 0, sizeof(cached));
	cudnnStatus_t st = cudnnSetTensor4dDescriptor(xdesc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT,
	                                              (int)s[0], (int)s[1], (int)s[2], (int)s[3]);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	st = cudnnDeriveBNTensorDescriptor(pdesc, xdesc, CUDNN_BATCHNORM_SPATIAL);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	memcpy(cached, s, sizeof(cached));
	return 0;
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	if (in == NULL || out == NULL || n_in != 5 || n_out != 1)
		return -1;
	const struct cua_tensor *x = &in[0];
	struct cua_tensor *y = &out[0];
	if (x->dtype != CUA_F32 || y->dtype != CUA_F32 || x->ndim != 4 || y->ndim != 4 ||
	    x->data == NULL || y->data == NULL)
		return -2;
	const int64_t s[4] = {x->shape[0], x->shape[1], x->shape[2], x->shape[3]};
	for (int i = 0; i < 4; i++)
		if (s[i] < 1 || s[i] > INT_MAX || y->shape[i] != s[i])
			return -4;
	for (int k = 1; k < 5; k++)
		if (in[k].dtype != CUA_F32 || in[k].ndim != 1 || in[k].shape[0] != s[1] ||
		    in[k].data == NULL)
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
	/* inputs: x, running_mean, running_var, weight, bias */
	st = cudnnBatchNormalizationForwardInference(handle, CUDNN_BATCHNORM_SPATIAL, &one, &zero,
	                                             xdesc, x->data, xdesc, y->data, pdesc,
	                                             in[3].data, in[4].data, in[1].data,
	                                             in[2].data, BATCHNORM_EPS);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	return (int)cudaGetLastError();
}
