/* baselines/cudnn/instancenorm.cu — cuDNN baseline for L1/034-instancenorm:
 * InstanceNorm2d without affine, x, y [N,C,H,W] f32 (NCHW), eps = 1e-5. As
 * torch does it: x viewed as [1, N·C, H, W] and normalised by
 * cudnnBatchNormalizationForwardTraining(SPATIAL), whose per-"channel" batch
 * statistics are then exactly the per-plane mean and biased variance; scale 1,
 * bias 0. The running averages it must also update go to a scratch buffer.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o instancenorm.so baselines/cudnn/instancenorm.cu -lcudnn
 * Napkin math (timed N=128, C=64, H=W=256): 8·N·C·H·W = 4.29 GB at the floor,
 * ~1.0 ms at 4.26 TB/s. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"   /* legacy cuDNN API, on purpose */
#pragma nv_diag_suppress 1444
#pragma nv_diag_suppress 1215
#include <limits.h>
#include <string.h>
#include <cudnn.h>
#include "cuarena.h"

#define INSTANCENORM_EPS 1e-5   /* tasks/L1/034-instancenorm/task.json params.eps */

/* Created on the first call (the harness warms up before timing), kept for the
 * life of the process; descriptors and the parameter buffer are re-made only
 * when the shape changes. */
static cudnnHandle_t handle;
static cudnnTensorDescriptor_t xdesc, pdesc;   /* [1, N·C, H, W] and [1, N·C, 1, 1] */
static float *params;                          /* 4 × N·C: ones, zeros, running mean, var */
static int64_t cached[3];                      /* N·C, H, W that the above hold */

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

/* Descriptors and parameters for s = {N·C, H, W}; the handle is already on the
 * caller's stream, so the fills are ordered before the normalisation. */
static int set_shape(const int64_t s[3])
{
	memset(cached, 0, sizeof(cached));
	if (params) {
		cudaFree(params);
		params = NULL;
	}
	cudnnStatus_t st = cudnnSetTensor4dDescriptor(xdesc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1,
	                                              (int)s[0], (int)s[1], (int)s[2]);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	st = cudnnDeriveBNTensorDescriptor(pdesc, xdesc, CUDNN_BATCHNORM_SPATIAL);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	cudaError_t ce = cudaMalloc((void **)&params, 4 * (size_t)s[0] * sizeof(float));
	if (ce != cudaSuccess) {
		params = NULL;
		return (int)ce;
	}
	const float one = 1.0f, zero = 0.0f;
	st = cudnnSetTensor(handle, pdesc, params, &one);
	if (st == CUDNN_STATUS_SUCCESS)
		st = cudnnSetTensor(handle, pdesc, params + s[0], &zero);
	if (st != CUDNN_STATUS_SUCCESS) {
		cudaFree(params);
		params = NULL;
		return (int)st;
	}
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
	for (int i = 0; i < 4; i++)
		if (x->shape[i] < 1 || x->shape[i] > INT_MAX || y->shape[i] != x->shape[i])
			return -4;
	const int64_t s[3] = {x->shape[0] * x->shape[1], x->shape[2], x->shape[3]};
	if (s[0] > INT_MAX)
		return -4;

	int rc;
	if (handle == NULL && (rc = setup()) != 0)
		return rc;
	cudnnStatus_t st = cudnnSetStream(handle, stream);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	if (memcmp(s, cached, sizeof(cached)) != 0 && (rc = set_shape(s)) != 0)
		return rc;
	const float one = 1.0f, zero = 0.0f;
	st = cudnnBatchNormalizationForwardTraining(
		handle, CUDNN_BATCHNORM_SPATIAL, &one, &zero, xdesc, x->data, xdesc, y->data, pdesc,
		params, params + s[0], 1.0, params + 2 * s[0], params + 3 * s[0], INSTANCENORM_EPS,
		NULL, NULL);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	return (int)cudaGetLastError();
}
