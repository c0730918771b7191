/* baselines/cudnn/conv-transpose-common.cuh — shared body of the cuDNN baselines
 * for the transposed-convolution tasks (Level 1's, baselines/cudnn/l1-0NN.cu; X/007 and
 * X/008, baselines/cudnn/conv-transpose-*.cu).
 *
 * y = conv_transpose{1,2,3}d(x, w) is the data gradient of the forward
 * convolution with the same hyper-parameters, so it runs as
 * cudnnConvolutionBackwardData with dy = x [N, C, in...], the filter w
 * [C, F/G, K...] (cuDNN's forward filter [K=C, C=F/G, ...]: the transposed
 * weight layout as is), dx = y [N, F, out...]; output_padding is implied by
 * dx's extents; groups by cudnnSetConvolutionGroupCount; 1-D runs as 2-D with
 * height 1. Math is CUDNN_FMA_MATH (strict fp32: no TF32 tensor cores). The
 * algorithm is chosen once per shape by cudnnFindConvolutionBackwardDataAlgorithmEx
 * (timed on the real buffers, during the harness's warm-up; tensor-op results
 * and algorithms needing more than 1 GiB of workspace are skipped) and cached
 * with its descriptors and workspace.
 *
 * A baseline file defines its task's hyper-parameters and calls convt_cudnn():
 *     static const struct convt_hp hp = {...};
 *     extern "C" int cua_solve(...) { return convt_cudnn(&hp, in, n_in, out, n_out, stream); }
 * Every cuDNN status is checked; failures return non-zero (a cudnnStatus_t or
 * cudaError_t value, or -1 bad counts/NULL, -2 dtype/rank, -4 shape), never exit. */
#ifndef BASELINES_CUDNN_CONV_TRANSPOSE_COMMON_CUH
#define BASELINES_CUDNN_CONV_TRANSPOSE_COMMON_CUH

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"   /* legacy cuDNN API, on purpose */
#pragma nv_diag_suppress 1444
#pragma nv_diag_suppress 1215
#include <limits.h>
#include <string.h>
#include <cudnn.h>
#include "cuarena.h"
#include "algo-common.cuh"

/* A task's hyper-parameters per spatial dimension, outermost first (depth,
 * height, width; width alone for 1-D). */
struct convt_hp {
	int nsp;                         /* spatial dimensions: 1, 2 or 3 */
	int k[3];                        /* kernel extents the weight must have */
	int s[3], p[3], op[3], dil[3];   /* stride, padding, output padding, dilation */
	int G;                           /* groups */
};

#define CONVT_MAX_PLANS 8                  /* shapes cached at once */
#define CONVT_MAX_WORKSPACE (1ull << 30)   /* algorithms needing more are not tried */
#define CONVT_MAX_RANK 5                   /* N, C and up to 3 spatial dimensions */

/* One shape's descriptors, algorithm and workspace. */
struct convt_plan {
	int64_t key[2 * CONVT_MAX_RANK];   /* x's shape then w's, 0-padded; all 0 = unused */
	cudnnTensorDescriptor_t dy, dx;    /* dy describes x, dx describes y */
	cudnnFilterDescriptor_t w;
	cudnnConvolutionDescriptor_t conv;
	cudnnConvolutionBwdDataAlgo_t algo;
	void *ws;
	size_t ws_size;
};

/* Created on the first call (the harness warms up before timing), kept for the
 * life of the process. */
static cudnnHandle_t convt_handle;
static struct convt_plan convt_plans[CONVT_MAX_PLANS];
static int convt_next_victim;         /* round-robin eviction when all are used */

static void convt_plan_free(struct convt_plan *p)
{
	if (p->dy)
		cudnnDestroyTensorDescriptor(p->dy);
	if (p->dx)
		cudnnDestroyTensorDescriptor(p->dx);
	if (p->w)
		cudnnDestroyFilterDescriptor(p->w);
	if (p->conv)
		cudnnDestroyConvolutionDescriptor(p->conv);
	if (p->ws)
		cudaFree(p->ws);
	memset(p, 0, sizeof(*p));
}

/* Packed row-major strides of dims[0..rank). */
static void convt_strides(const int *dims, int rank, int *strides)
{
	int s = 1;
	for (int i = rank - 1; i >= 0; i--) {
		strides[i] = s;
		s *= dims[i];
	}
}

/* The cuDNN shapes of x (dy), y (dx) and w, and the convolution's pad, stride
 * and dilation, with 1-D lifted to 2-D (height 1). Returns the cuDNN rank. */
static int convt_cudnn_dims(const struct convt_hp *hp, const struct cua_tensor *x,
                            const struct cua_tensor *w, const struct cua_tensor *y, int *xd,
                            int *yd, int *wd, int *pad, int *stride, int *dil)
{
	const int lift = hp->nsp == 1 ? 1 : 0;     /* inserted unit height */
	const int nd = hp->nsp + lift;             /* cuDNN spatial dimensions */
	for (int i = 0; i < 2; i++) {
		xd[i] = (int)x->shape[i];
		yd[i] = (int)y->shape[i];
		wd[i] = (int)w->shape[i];
	}
	if (lift) {
		xd[2] = yd[2] = wd[2] = 1;
		pad[0] = 0;
		stride[0] = dil[0] = 1;
	}
	for (int j = 0; j < hp->nsp; j++) {
		xd[2 + lift + j] = (int)x->shape[2 + j];
		yd[2 + lift + j] = (int)y->shape[2 + j];
		wd[2 + lift + j] = (int)w->shape[2 + j];
		pad[lift + j] = hp->p[j];
		stride[lift + j] = hp->s[j];
		dil[lift + j] = hp->dil[j];
	}
	return nd + 2;
}

/* Builds p for key, running Find on the caller's buffers (y is overwritten, x
 * and w are only read). On failure p is left empty. */
static int convt_plan_make(struct convt_plan *p, const int64_t *key, const struct convt_hp *hp,
                           const struct cua_tensor *x, const struct cua_tensor *w,
                           struct cua_tensor *y)
{
	int xd[CONVT_MAX_RANK], yd[CONVT_MAX_RANK], wd[CONVT_MAX_RANK];
	int xs[CONVT_MAX_RANK], ys[CONVT_MAX_RANK], fwd[CONVT_MAX_RANK];
	int pad[CONVT_MAX_RANK - 2], stride[CONVT_MAX_RANK - 2], dil[CONVT_MAX_RANK - 2];
	int rc, n_perf = 0, best = -1;
	cudnnStatus_t st;
	size_t ws_need = 0;
	cudnnConvolutionBwdDataAlgoPerf_t perf[CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
	const int rank = convt_cudnn_dims(hp, x, w, y, xd, yd, wd, pad, stride, dil);

	memset(p, 0, sizeof(*p));
	convt_strides(xd, rank, xs);
	convt_strides(yd, rank, ys);
#define TRY(call)                                                              \
	do {                                                                       \
		st = (call);                                                           \
		if (st != CUDNN_STATUS_SUCCESS) {                                      \
			rc = (int)st;                                                      \
			goto fail;                                                         \
		}                                                                      \
	} while (0)
	TRY(cudnnCreateTensorDescriptor(&p->dy));
	TRY(cudnnCreateTensorDescriptor(&p->dx));
	TRY(cudnnCreateFilterDescriptor(&p->w));
	TRY(cudnnCreateConvolutionDescriptor(&p->conv));
	TRY(cudnnSetTensorNdDescriptor(p->dy, CUDNN_DATA_FLOAT, rank, xd, xs));
	TRY(cudnnSetTensorNdDescriptor(p->dx, CUDNN_DATA_FLOAT, rank, yd, ys));
	TRY(cudnnSetFilterNdDescriptor(p->w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, rank, wd));
	TRY(cudnnSetConvolutionNdDescriptor(p->conv, rank - 2, pad, stride, dil,
	                                    CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
	TRY(cudnnSetConvolutionGroupCount(p->conv, hp->G));
	TRY(cudnnSetConvolutionMathType(p->conv, CUDNN_FMA_MATH));
	/* The forward convolution of y's shape must give x's shape exactly. */
	TRY(cudnnGetConvolutionNdForwardOutputDim(p->conv, p->dx, p->w, rank, fwd));
	for (int i = 0; i < rank; i++) {
		if (fwd[i] != xd[i]) {
			rc = -4;
			goto fail;
		}
	}

	/* Workspace for Find: the largest any algorithm asks for, capped. */
	for (int a = 0; a < CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT; a++) {
		size_t sz = 0;
		if (cudnnGetConvolutionBackwardDataWorkspaceSize(convt_handle, p->w, p->dy, p->conv,
		                                                 p->dx, (cudnnConvolutionBwdDataAlgo_t)a,
		                                                 &sz) == CUDNN_STATUS_SUCCESS &&
		    sz <= CONVT_MAX_WORKSPACE && sz > ws_need)
			ws_need = sz;
	}
	if (ws_need > 0) {
		cudaError_t ce = cudaMalloc(&p->ws, ws_need);
		if (ce != cudaSuccess) {
			p->ws = NULL;
			rc = (int)ce;
			goto fail;
		}
		p->ws_size = ws_need;
	}
	TRY(cudnnFindConvolutionBackwardDataAlgorithmEx(
	    convt_handle, p->w, w->data, p->dy, x->data, p->conv, p->dx, y->data,
	    CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &n_perf, perf, p->ws, p->ws_size));
	best = cudnn_pick_strict(perf, n_perf, p->ws_size, cudnn_skip_bwd_data(hp->k, hp->nsp));
	if (best < 0) {
		rc = (int)CUDNN_STATUS_NOT_SUPPORTED;
		goto fail;
	}
	p->algo = perf[best].algo;
	/* Keep only the workspace the chosen algorithm needs. */
	rc = cudnn_shrink_workspace(&p->ws, &p->ws_size, perf[best].memory);
	if (rc != 0)
		goto fail;
	memcpy(p->key, key, sizeof(p->key));
	return 0;
#undef TRY
fail:
	convt_plan_free(p);
	return rc;
}

/* The cached plan for key, or a new one (evicting round-robin when full). */
static int convt_plan_get(const int64_t *key, const struct convt_hp *hp,
                          const struct cua_tensor *x, const struct cua_tensor *w,
                          struct cua_tensor *y, struct convt_plan **out)
{
	struct convt_plan *slot = NULL;
	for (int i = 0; i < CONVT_MAX_PLANS; i++) {
		if (memcmp(convt_plans[i].key, key, sizeof(convt_plans[i].key)) == 0) {
			*out = &convt_plans[i];
			return 0;
		}
		if (slot == NULL && convt_plans[i].key[0] == 0)
			slot = &convt_plans[i];
	}
	if (slot == NULL) {
		slot = &convt_plans[convt_next_victim];
		convt_next_victim = (convt_next_victim + 1) % CONVT_MAX_PLANS;
		convt_plan_free(slot);
	}
	int rc = convt_plan_make(slot, key, hp, x, w, y);
	if (rc != 0)
		return rc;
	*out = slot;
	return 0;
}

/* 0 when t has dtype f32, the given rank, extents >= 1, fewer than 2^31
 * elements (cuDNN's int strides) and data. */
static int convt_check_tensor(const struct cua_tensor *t, int rank)
{
	if (t->dtype != CUA_F32 || t->ndim != rank || t->data == NULL)
		return -2;
	int64_t n = 1;
	for (int i = 0; i < rank; i++) {
		if (t->shape[i] < 1 || t->shape[i] > INT_MAX)
			return -4;
		n *= t->shape[i];
		if (n > INT_MAX)
			return -4;
	}
	return 0;
}

/* y = conv_transpose(x, w) with hp, on stream. */
static int convt_cudnn(const struct convt_hp *hp, const struct cua_tensor *in, int n_in,
                       struct cua_tensor *out, int n_out, cudaStream_t stream)
{
	if (in == NULL || out == NULL || n_in != 2 || n_out != 1)
		return -1;
	const struct cua_tensor *x = &in[0], *w = &in[1];
	struct cua_tensor *y = &out[0];
	const int rank = hp->nsp + 2;
	int rc;
	if ((rc = convt_check_tensor(x, rank)) != 0 || (rc = convt_check_tensor(w, rank)) != 0 ||
	    (rc = convt_check_tensor(y, rank)) != 0)
		return rc;
	/* Channels: w [C, F/G, K...], y [N, F, out...]; extents as the task defines them. */
	if (w->shape[0] != x->shape[1] || x->shape[1] % hp->G != 0 || y->shape[0] != x->shape[0] ||
	    y->shape[1] != w->shape[1] * hp->G)
		return -4;
	for (int j = 0; j < hp->nsp; j++) {
		const int64_t k = w->shape[2 + j];
		if (k != hp->k[j] ||
		    y->shape[2 + j] != (x->shape[2 + j] - 1) * hp->s[j] - 2 * (int64_t)hp->p[j] +
		                           (int64_t)hp->dil[j] * (k - 1) + hp->op[j] + 1)
			return -4;
	}
	int64_t key[2 * CONVT_MAX_RANK];
	memset(key, 0, sizeof(key));
	for (int i = 0; i < rank; i++) {
		key[i] = x->shape[i];
		key[CONVT_MAX_RANK + i] = w->shape[i];
	}

	cudnnStatus_t st;
	if (convt_handle == NULL) {
		cudnnHandle_t h;
		st = cudnnCreate(&h);
		if (st != CUDNN_STATUS_SUCCESS)
			return (int)st;
		convt_handle = h;
	}
	st = cudnnSetStream(convt_handle, stream);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	struct convt_plan *p;
	rc = convt_plan_get(key, hp, x, w, y, &p);
	if (rc != 0)
		return rc;
	const float one = 1.0f, zero = 0.0f;
	st = cudnnConvolutionBackwardData(convt_handle, &one, p->w, w->data, p->dy, x->data, p->conv,
	                                  p->algo, p->ws, p->ws_size, &zero, p->dx, y->data);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	return (int)cudaGetLastError();
}

#endif /* BASELINES_CUDNN_CONV_TRANSPOSE_COMMON_CUH */
