/* baselines/cudnn/log-softmax.cu — cuDNN baseline for L1/026-log-softmax: y =
 * log_softmax of each row of x [B,D] f32 over the last dim, as
 * cudnnSoftmaxForward(LOG, MODE_INSTANCE) on a packed [B,D,1,1] tensor (instance
 * mode reduces over C·H·W = D per n = b; LOG subtracts the max first, as ACCURATE
 * does, and returns x − max − log Σ exp(x − max)).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o log-softmax.so baselines/cudnn/log-softmax.cu -lcudnn
 * Napkin math (timed B=16384, D=32768): 8·B·D = 4.29 GB, ~1.0 ms at 4.3 TB/s. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"   /* legacy cuDNN API, on purpose */
#pragma nv_diag_suppress 1444
#pragma nv_diag_suppress 1215
#include <limits.h>
#include <cudnn.h>
#include "cuarena.h"

/* Created on the first call (the harness warms up before timing), kept for the
 * life of the process; the descriptor is re-set only when the shape changes. */
static cudnnHandle_t handle;
static cudnnTensorDescriptor_t desc;
static int64_t cached_b, cached_d;   /* shape desc holds; 0 = none */

static int setup(void)
{
	cudnnStatus_t st = cudnnCreate(&handle);
	if (st != CUDNN_STATUS_SUCCESS)
		goto fail;
	st = cudnnCreateTensorDescriptor(&desc);
	if (st != CUDNN_STATUS_SUCCESS)
		goto fail;
	return 0;
fail:
	if (desc)
		cudnnDestroyTensorDescriptor(desc);
	if (handle)
		cudnnDestroy(handle);
	desc = NULL;
	handle = NULL;
	return (int)st;
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	if (in == NULL || out == NULL || n_in != 1 || n_out != 1)
		return -1;
	const struct cua_tensor *x = &in[0];
	struct cua_tensor *y = &out[0];
	if (x->dtype != CUA_F32 || y->dtype != CUA_F32 || x->ndim != 2 || y->ndim != 2 ||
	    x->data == NULL || y->data == NULL)
		return -2;
	const int64_t B = x->shape[0], D = x->shape[1];
	if (B < 1 || D < 1 || B > INT_MAX || D > INT_MAX || y->shape[0] != B || y->shape[1] != D)
		return -4;

	int rc;
	if (handle == NULL && (rc = setup()) != 0)
		return rc;
	cudnnStatus_t st;
	if (B != cached_b || D != cached_d) {
		cached_b = cached_d = 0;
		st = cudnnSetTensor4dDescriptor(desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, (int)B,
		                                (int)D, 1, 1);
		if (st != CUDNN_STATUS_SUCCESS)
			return (int)st;
		cached_b = B;
		cached_d = D;
	}
	st = cudnnSetStream(handle, stream);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	const float one = 1.0f, zero = 0.0f;
	st = cudnnSoftmaxForward(handle, CUDNN_SOFTMAX_LOG, CUDNN_SOFTMAX_MODE_INSTANCE, &one,
	                         desc, x->data, &zero, desc, y->data);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	return (int)cudaGetLastError();
}
