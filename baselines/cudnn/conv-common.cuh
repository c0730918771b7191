/* conv-common.cuh — cuDNN forward convolution shared by the conv baselines
 * (baselines/cudnn/l1-0NN.cu of the Level 1 convolutions, conv-*.cu of X/003–006): cudnnConvolutionForward in
 * strict fp32 (CUDNN_FMA_MATH: no TF32 tensor cores), NCL / NCHW / NCDHW, any
 * stride, zero padding, dilation and group count. 1-D runs as 2-D with H = 1;
 * 3-D uses the Nd descriptors. The algorithm is chosen once per shape by
 * cudnnFindConvolutionForwardAlgorithmEx (timed on the real buffers, during the
 * harness's warm-up; tensor-op results skipped, workspace capped at 1 GiB) and
 * cached with its descriptors and workspace.
 *
 * A baseline states its task's fixed hyper-parameters in a struct conv_spec and
 * calls conv_forward() (or conv_forward_raw() for an intermediate tensor).
 * Every status is checked; failures return non-zero (a cudnnStatus_t, a
 * cudaError_t, or -1 count / -2 dtype or rank / -4 shape), never abort. */
#ifndef BASELINES_CUDNN_CONV_COMMON_CUH
#define BASELINES_CUDNN_CONV_COMMON_CUH

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"   /* legacy cuDNN API, on purpose */
#pragma nv_diag_suppress 1444
#pragma nv_diag_suppress 1215
#include <limits.h>
#include <string.h>
#include <cudnn.h>
#include "cuarena.h"
#include "algo-common.cuh"

#ifndef CONV_MAX_PLANS
#define CONV_MAX_PLANS 8                     /* shapes cached at once (a network: more) */
#endif
#define CONV_MAX_FIND_WORKSPACE (1ull << 30) /* algorithms needing more are not tried */

/* A task's fixed hyper-parameters; arrays hold nsp entries, slowest spatial
 * dim first (D, H, W; or H, W; or L). */
struct conv_spec {
	int nsp;                   /* spatial dims of x, w and y: 1, 2 or 3 */
	int k[3];                  /* kernel extents */
	int s[3], p[3], d[3];      /* stride, zero padding (each side), dilation */
	int groups;                /* >= 1; 0 = one group per input channel (depthwise) */
};

/* Everything a plan depends on; compared bytewise, so always memset first. */
struct conv_key {
	int64_t x[5], w[5];        /* extents as cuDNN sees them (4-D or 5-D) */
	int nb;                    /* 4 or 5 */
	int pad[3], stride[3], dil[3];
	int groups;
};

/* One shape's descriptors, algorithm and workspace. */
struct conv_plan {
	int used;
	struct conv_key key;
	cudnnTensorDescriptor_t x, y;
	cudnnFilterDescriptor_t w;
	cudnnConvolutionDescriptor_t conv;
	cudnnConvolutionFwdAlgo_t algo;
	void *ws;
	size_t ws_size;
};

/* Created on the first call (the harness warms up before timing), kept for the
 * life of the process. */
static cudnnHandle_t conv_handle;
static struct conv_plan conv_plans[CONV_MAX_PLANS];
static int conv_next_victim;    /* round-robin eviction when all are used */

static inline void conv_plan_free(struct conv_plan *p)
{
	if (p->x)
		cudnnDestroyTensorDescriptor(p->x);
	if (p->y)
		cudnnDestroyTensorDescriptor(p->y);
	if (p->w)
		cudnnDestroyFilterDescriptor(p->w);
	if (p->conv)
		cudnnDestroyConvolutionDescriptor(p->conv);
	if (p->ws)
		cudaFree(p->ws);
	memset(p, 0, sizeof(*p));
}

/* Builds p for key k, checks that cuDNN's output extents are ys (k->nb of them)
 * and runs Find on the caller's buffers (y is overwritten, x and w only read).
 * On failure p is left empty. */
static inline int conv_plan_make(struct conv_plan *p, const struct conv_key *k, const void *x,
                                 const void *w, void *y, const int64_t *ys)
{
	int xd[5], wd[5], yd[5];
	int rc;
	cudnnStatus_t st;
	size_t ws_need = 0;
	int n_perf = 0, best = -1;
	cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];

	memset(p, 0, sizeof(*p));
	for (int i = 0; i < k->nb; i++) {
		xd[i] = (int)k->x[i];
		wd[i] = (int)k->w[i];
	}
#define TRY(call)                                                              \
	do {                                                                       \
		st = (call);                                                           \
		if (st != CUDNN_STATUS_SUCCESS) {                                      \
			rc = (int)st;                                                      \
			goto fail;                                                         \
		}                                                                      \
	} while (0)
	TRY(cudnnCreateTensorDescriptor(&p->x));
	TRY(cudnnCreateTensorDescriptor(&p->y));
	TRY(cudnnCreateFilterDescriptor(&p->w));
	TRY(cudnnCreateConvolutionDescriptor(&p->conv));
	TRY(cudnnSetTensorNdDescriptorEx(p->x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, k->nb, xd));
	TRY(cudnnSetFilterNdDescriptor(p->w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, k->nb, wd));
	TRY(cudnnSetConvolutionNdDescriptor(p->conv, k->nb - 2, k->pad, k->stride, k->dil,
	                                    CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
	TRY(cudnnSetConvolutionGroupCount(p->conv, k->groups));
	TRY(cudnnSetConvolutionMathType(p->conv, CUDNN_FMA_MATH));
	TRY(cudnnGetConvolutionNdForwardOutputDim(p->conv, p->x, p->w, k->nb, yd));
	for (int i = 0; i < k->nb; i++)
		if (yd[i] != ys[i]) {
			rc = -4;
			goto fail;
		}
	TRY(cudnnSetTensorNdDescriptorEx(p->y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, k->nb, yd));

	/* Workspace for Find: the largest any algorithm asks for, capped. */
	for (int a = 0; a < CUDNN_CONVOLUTION_FWD_ALGO_COUNT; a++) {
		size_t sz = 0;
		if (cudnnGetConvolutionForwardWorkspaceSize(conv_handle, p->x, p->w, p->conv, p->y,
		                                            (cudnnConvolutionFwdAlgo_t)a,
		                                            &sz) == CUDNN_STATUS_SUCCESS &&
		    sz <= CONV_MAX_FIND_WORKSPACE && sz > ws_need)
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
	TRY(cudnnFindConvolutionForwardAlgorithmEx(conv_handle, p->x, x, p->w, w, p->conv, p->y,
	                                           y, CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &n_perf,
	                                           perf, p->ws, p->ws_size));
	best = cudnn_pick_strict(perf, n_perf, p->ws_size, cudnn_skip_fwd(wd + 2, k->nb - 2));
	if (best < 0) {
		rc = (int)CUDNN_STATUS_NOT_SUPPORTED;
		goto fail;
	}
	p->algo = perf[best].algo;
	/* Keep only the workspace the chosen algorithm needs. */
	rc = cudnn_shrink_workspace(&p->ws, &p->ws_size, perf[best].memory);
	if (rc != 0)
		goto fail;
	memcpy(&p->key, k, sizeof(*k));   /* padding bytes too: keys are memcmp'd */
	p->used = 1;
	return 0;
#undef TRY
fail:
	conv_plan_free(p);
	return rc;
}

/* The cached plan for k, or a new one (evicting round-robin when full). */
static inline int conv_plan_get(const struct conv_key *k, const void *x, const void *w, void *y,
                                const int64_t *ys, struct conv_plan **out)
{
	struct conv_plan *slot = NULL;
	for (int i = 0; i < CONV_MAX_PLANS; i++) {
		if (conv_plans[i].used && memcmp(&conv_plans[i].key, k, sizeof(*k)) == 0) {
			*out = &conv_plans[i];
			return 0;
		}
		if (slot == NULL && !conv_plans[i].used)
			slot = &conv_plans[i];
	}
	if (slot == NULL) {
		slot = &conv_plans[conv_next_victim];
		conv_next_victim = (conv_next_victim + 1) % CONV_MAX_PLANS;
		conv_plan_free(slot);
	}
	int rc = conv_plan_make(slot, k, x, w, y, ys);
	if (rc != 0)
		return rc;
	*out = slot;
	return 0;
}

/* y = conv(x, w) per sp, on stream. xs, ws, ys are the nsp + 2 extents of the
 * f32 tensors x [N,C,in..], w [F,C/groups,k..] and y [N,F,out..]; they are
 * checked against sp (-4 on a mismatch or an extent cuDNN cannot take). */
static inline int conv_forward_raw(const struct conv_spec *sp, const int64_t *xs, const void *x,
                                   const int64_t *ws, const void *w, const int64_t *ys, void *y,
                                   cudaStream_t stream)
{
	const int nsp = sp->nsp;
	if (nsp < 1 || nsp > 3 || sp->groups < 0)
		return -4;
	const int rank = nsp + 2;
	for (int i = 0; i < rank; i++)
		if (xs[i] < 1 || xs[i] > INT_MAX || ws[i] < 1 || ws[i] > INT_MAX || ys[i] < 1 ||
		    ys[i] > INT_MAX)
			return -4;
	const int64_t groups = sp->groups > 0 ? sp->groups : xs[1];
	if (xs[1] % groups != 0 || ws[0] % groups != 0 || ws[1] != xs[1] / groups ||
	    ys[0] != xs[0] || ys[1] != ws[0])
		return -4;
	for (int i = 0; i < nsp; i++)
		if (ws[2 + i] != sp->k[i])
			return -4;

	/* cuDNN wants 4-D or 5-D: 1-D is [N,C,1,L] with a 1×K filter. */
	struct conv_key k;
	int64_t ysd[5];
	memset(&k, 0, sizeof(k));
	k.nb = nsp == 1 ? 4 : rank;
	const int lead = k.nb - rank;           /* 1 for 1-D, else 0 */
	for (int i = 0; i < 2; i++) {
		k.x[i] = xs[i];
		k.w[i] = ws[i];
		ysd[i] = ys[i];
	}
	for (int i = 0; i < k.nb - 2; i++) {
		k.pad[i] = 0;
		k.stride[i] = k.dil[i] = 1;
		k.x[2 + i] = k.w[2 + i] = ysd[2 + i] = 1;
	}
	for (int i = 0; i < nsp; i++) {
		const int j = lead + i;
		k.x[2 + j] = xs[2 + i];
		k.w[2 + j] = ws[2 + i];
		ysd[2 + j] = ys[2 + i];
		k.pad[j] = sp->p[i];
		k.stride[j] = sp->s[i];
		k.dil[j] = sp->d[i];
	}
	k.groups = (int)groups;

	cudnnStatus_t st;
	if (conv_handle == NULL) {
		cudnnHandle_t h;
		st = cudnnCreate(&h);
		if (st != CUDNN_STATUS_SUCCESS)
			return (int)st;
		conv_handle = h;
	}
	st = cudnnSetStream(conv_handle, stream);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	/* cuDNN's convolutions take tensors of fewer than 2^31 elements (a larger one is
	 * CUDNN_STATUS_NOT_SUPPORTED: L1/087's y is 16·128·1024·1024 = 2^31): a batch
	 * that large runs as consecutive slices of whole samples, each under the limit,
	 * as one would call the library by hand (at most two plans: the slice and a
	 * last, shorter one). */
	int64_t x_per = 1, y_per = 1;
	for (int i = 1; i < k.nb; i++) {
		x_per *= k.x[i];
		y_per *= ysd[i];
	}
	const int64_t per = x_per > y_per ? x_per : y_per;
	if (per > INT_MAX)
		return -4;
	const int64_t n = xs[0], most = (int64_t)INT_MAX / per;
	const int64_t slices = (n + most - 1) / most;
	const int64_t slice = (n + slices - 1) / slices;   /* equal slices: 16 is 8 + 8 */
	const float one = 1.0f, zero = 0.0f;
	for (int64_t n0 = 0; n0 < n; n0 += slice) {
		const int64_t nb = n - n0 < slice ? n - n0 : slice;
		const float *xn = (const float *)x + n0 * x_per;
		float *yn = (float *)y + n0 * y_per;
		k.x[0] = nb;
		ysd[0] = nb;
		struct conv_plan *p;
		int rc = conv_plan_get(&k, xn, w, yn, ysd, &p);
		if (rc != 0)
			return rc;
		st = cudnnConvolutionForward(conv_handle, &one, p->x, xn, p->w, w, p->conv, p->algo,
		                             p->ws, p->ws_size, &zero, p->y, yn);
		if (st != CUDNN_STATUS_SUCCESS)
			return (int)st;
	}
	return (int)cudaGetLastError();
}

/* t is f32, rank `rank`, with data. */
static inline int conv_check_tensor(const struct cua_tensor *t, int rank)
{
	if (t->dtype != CUA_F32 || t->ndim != rank || t->data == NULL)
		return -2;
	return 0;
}

/* The whole baseline of a single-convolution task: in = {x, w}, out = {y}. */
static inline int conv_forward(const struct conv_spec *sp, const struct cua_tensor *in,
                               int n_in, struct cua_tensor *out, int n_out, cudaStream_t stream)
{
	if (in == NULL || out == NULL || n_in != 2 || n_out != 1)
		return -1;
	if (sp->nsp < 1 || sp->nsp > 3)
		return -4;
	int rc;
	if ((rc = conv_check_tensor(&in[0], sp->nsp + 2)) != 0 ||
	    (rc = conv_check_tensor(&in[1], sp->nsp + 2)) != 0 ||
	    (rc = conv_check_tensor(&out[0], sp->nsp + 2)) != 0)
		return rc;
	return conv_forward_raw(sp, in[0].shape, in[0].data, in[1].shape, in[1].data, out[0].shape,
	                        out[0].data, stream);
}

#endif /* BASELINES_CUDNN_CONV_COMMON_CUH */
