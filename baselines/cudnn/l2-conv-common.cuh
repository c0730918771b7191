/* l2-conv-common.cuh — the cuDNN baselines of the Level-2 Conv2d and
 * ConvTranspose2d tasks (baselines/cudnn/l2-NNN-{unfused,fused}.cu). Each task's
 * chain (struct l2c_tNNN) is in tasks/common/epilogue-conv.cuh, shared with its
 * reference, so a baseline differs from the reference only in the convolution.
 *
 * unfused: what PyTorch eager runs. The convolution on cuDNN in strict fp32
 *     (conv-common.cuh: cudnnConvolutionForward; conv-transpose-common.cuh:
 *     cudnnConvolutionBackwardData; CUDNN_FMA_MATH, algorithm by Find, tensor-op
 *     results and fp32-inaccurate Winograd skipped), then the conv bias as its
 *     own kernel, then the task's naive epilogue kernels.
 * fused: forward convolutions with a bias only. cudnnConvolutionBiasActivationForward
 *     computes act(conv(x, w) + b) in one call: act = ReLU when the chain's next
 *     operator is a ReLU (the task's fuse_relu; the epilogue then starts after
 *     it), else identity. cuDNN takes identity only with
 *     IMPLICIT_PRECOMP_GEMM, so that is the algorithm then; with ReLU the
 *     candidates are Find's strict-fp32 results for the plain convolution,
 *     fastest first, and the first the fused call accepts is kept. Per shape,
 *     cached with its descriptors and workspace for the life of the process.
 * Both keep the chain's cudaMallocAsync'd scratch (the conv output, the epilogue's
 * intermediates) mapped between calls: ../common/mempool-common.cuh.
 * Every status is checked; failures return non-zero (a cudnnStatus_t, a
 * cudaError_t or a negative check code), never abort. */
#ifndef BASELINES_CUDNN_L2_CONV_COMMON_CUH
#define BASELINES_CUDNN_L2_CONV_COMMON_CUH

#include "../common/mempool-common.cuh"
#include "conv-common.cuh"
#include "conv-transpose-common.cuh"
#include "epilogue-conv.cuh"

/* c [N, F, OH, OW] = conv(x, w) + b with the convolution on cuDNN. */
static inline int l2c_cudnn_conv(const struct l2c_conv &cv, const struct l2c_geom &g,
                                 const struct cua_tensor *in, float *c, cudaStream_t s)
{
	struct cua_tensor ct;
	memset(&ct, 0, sizeof(ct));
	ct.data = c;
	ct.dtype = CUA_F32;
	ct.ndim = 4;
	ct.shape[0] = g.N, ct.shape[1] = g.F, ct.shape[2] = g.OH, ct.shape[3] = g.OW;
	int rc;
	if (cv.transposed) {
		const struct convt_hp hp = {2, {cv.k, cv.k}, {cv.s, cv.s}, {cv.p, cv.p},
		                            {cv.op, cv.op}, {1, 1}, 1};
		rc = convt_cudnn(&hp, in, 2, &ct, 1, s);
	} else {
		const struct conv_spec sp = {2, {cv.k, cv.k}, {cv.s, cv.s}, {cv.p, cv.p}, {1, 1}, 1};
		rc = conv_forward_raw(&sp, in[0].shape, in[0].data, in[1].shape, in[1].data, ct.shape,
		                      c, s);
	}
	if (rc != 0)
		return rc;
	if (cv.bias)
		cua_ep_bcast<float>(g.N * g.F * g.OH * g.OW, g.F, g.OH * g.OW, cua_ep_add(), c,
		                    (const float *)in[2].data, c, s);
	return (int)cudaGetLastError();
}

/* The whole unfused baseline of Task. */
template <class Task>
static inline int l2c_cudnn_unfused(const struct cua_tensor *in, int n_in,
                                    struct cua_tensor *out, int n_out, cudaStream_t s)
{
	auto conv = [s](const struct l2c_geom &g, const struct cua_tensor *x, float *c) {
		return l2c_cudnn_conv(Task::conv, g, x, c, s);
	};
	CUA_CHECK(mempool_keep());   /* the chain's scratch stays mapped between calls */
	return l2c_chain<Task, float>(in, n_in, out, n_out, conv, 0, s);
}

/* ---- fused conv + bias (+ ReLU) ---- */

#define L2C_FUSED_PLANS 8

/* One shape's descriptors, algorithm and workspace. */
struct l2c_fused_plan {
	int64_t key[9];                  /* x's and w's extents, relu; all 0 = unused */
	cudnnTensorDescriptor_t x, y, b;
	cudnnFilterDescriptor_t w;
	cudnnConvolutionDescriptor_t conv;
	cudnnActivationDescriptor_t act;
	cudnnConvolutionFwdAlgo_t algo;
	void *ws;
	size_t ws_size;
};

static cudnnHandle_t l2c_fused_handle;
static struct l2c_fused_plan l2c_fused_plans[L2C_FUSED_PLANS];
static int l2c_fused_victim;

static inline void l2c_fused_free(struct l2c_fused_plan *p)
{
	if (p->x)
		cudnnDestroyTensorDescriptor(p->x);
	if (p->y)
		cudnnDestroyTensorDescriptor(p->y);
	if (p->b)
		cudnnDestroyTensorDescriptor(p->b);
	if (p->w)
		cudnnDestroyFilterDescriptor(p->w);
	if (p->conv)
		cudnnDestroyConvolutionDescriptor(p->conv);
	if (p->act)
		cudnnDestroyActivationDescriptor(p->act);
	if (p->ws)
		cudaFree(p->ws);
	memset(p, 0, sizeof(*p));
}

static inline cudnnStatus_t l2c_fused_call(const struct l2c_fused_plan *p,
                                           cudnnConvolutionFwdAlgo_t algo, const void *x,
                                           const void *w, const void *b, void *y)
{
	const float one = 1.0f, zero = 0.0f;   /* alpha2 = 0: z (= y) is not read */
	return cudnnConvolutionBiasActivationForward(l2c_fused_handle, &one, p->x, x, p->w, w,
	                                             p->conv, algo, p->ws, p->ws_size, &zero, p->y,
	                                             y, p->b, b, p->act, p->y, y);
}

/* (Re)allocates p's workspace to at least need bytes. */
static inline int l2c_fused_ws(struct l2c_fused_plan *p, size_t need)
{
	if (need <= p->ws_size)
		return 0;
	if (p->ws)
		cudaFree(p->ws);
	p->ws = NULL;
	p->ws_size = 0;
	cudaError_t ce = cudaMalloc(&p->ws, need);
	if (ce != cudaSuccess) {
		p->ws = NULL;
		return (int)ce;
	}
	p->ws_size = need;
	return 0;
}

/* Builds p for cv at g and picks its algorithm, running the fused call on the
 * caller's buffers (y is overwritten). On failure p is left empty. */
static inline int l2c_fused_make(struct l2c_fused_plan *p, const int64_t *key,
                                 const struct l2c_conv &cv, bool relu, const struct l2c_geom &g,
                                 const void *x, const void *w, const void *b, void *y)
{
	int rc = 0, yd[4];
	cudnnStatus_t st;
	memset(p, 0, sizeof(*p));
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
	TRY(cudnnCreateTensorDescriptor(&p->b));
	TRY(cudnnCreateFilterDescriptor(&p->w));
	TRY(cudnnCreateConvolutionDescriptor(&p->conv));
	TRY(cudnnCreateActivationDescriptor(&p->act));
	TRY(cudnnSetTensor4dDescriptor(p->x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, (int)g.N,
	                               (int)g.C, (int)g.H, (int)g.W));
	TRY(cudnnSetFilter4dDescriptor(p->w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, (int)g.F,
	                               (int)g.C, cv.k, cv.k));
	TRY(cudnnSetConvolution2dDescriptor(p->conv, cv.p, cv.p, cv.s, cv.s, 1, 1,
	                                    CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
	TRY(cudnnSetConvolutionMathType(p->conv, CUDNN_FMA_MATH));
	TRY(cudnnGetConvolution2dForwardOutputDim(p->conv, p->x, p->w, &yd[0], &yd[1], &yd[2],
	                                          &yd[3]));
	if (yd[0] != g.N || yd[1] != g.F || yd[2] != g.OH || yd[3] != g.OW) {
		rc = CUA_CHECK_E_SHAPE;
		goto fail;
	}
	TRY(cudnnSetTensor4dDescriptor(p->y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, yd[0], yd[1],
	                               yd[2], yd[3]));
	TRY(cudnnSetTensor4dDescriptor(p->b, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, (int)g.F, 1,
	                               1));
	TRY(cudnnSetActivationDescriptor(p->act, relu ? CUDNN_ACTIVATION_RELU
	                                              : CUDNN_ACTIVATION_IDENTITY,
	                                 CUDNN_NOT_PROPAGATE_NAN, 0.0));
	if (!relu) {
		size_t need = 0;
		p->algo = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM;
		TRY(cudnnGetConvolutionForwardWorkspaceSize(l2c_fused_handle, p->x, p->w, p->conv,
		                                            p->y, p->algo, &need));
		if ((rc = l2c_fused_ws(p, need)) != 0)
			goto fail;
		TRY(l2c_fused_call(p, p->algo, x, w, b, y));
	} else {
		cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
		int n_perf = 0, found = 0;
		size_t need = 0;
		for (int a = 0; a < CUDNN_CONVOLUTION_FWD_ALGO_COUNT; a++) {
			size_t sz = 0;
			if (cudnnGetConvolutionForwardWorkspaceSize(l2c_fused_handle, p->x, p->w, p->conv,
			                                            p->y, (cudnnConvolutionFwdAlgo_t)a,
			                                            &sz) == CUDNN_STATUS_SUCCESS &&
			    sz <= CONV_MAX_FIND_WORKSPACE && sz > need)
				need = sz;
		}
		if ((rc = l2c_fused_ws(p, need)) != 0)
			goto fail;
		TRY(cudnnFindConvolutionForwardAlgorithmEx(l2c_fused_handle, p->x, x, p->w, w, p->conv,
		                                           p->y, y, CUDNN_CONVOLUTION_FWD_ALGO_COUNT,
		                                           &n_perf, perf, p->ws, p->ws_size));
		const int k2[2] = {cv.k, cv.k};
		const int skip = cudnn_skip_fwd(k2, 2);
		for (int i = 0; i < n_perf && !found; i++) {
			if (perf[i].status != CUDNN_STATUS_SUCCESS || cudnn_is_tensor_op(perf[i].mathType) ||
			    (int)perf[i].algo == skip || perf[i].memory > p->ws_size)
				continue;
			if (l2c_fused_call(p, perf[i].algo, x, w, b, y) == CUDNN_STATUS_SUCCESS) {
				p->algo = perf[i].algo;
				found = 1;
			}
		}
		if (!found) {
			rc = (int)CUDNN_STATUS_NOT_SUPPORTED;
			goto fail;
		}
	}
	memcpy(p->key, key, sizeof(p->key));
	return 0;
#undef TRY
fail:
	l2c_fused_free(p);
	return rc;
}

/* The fused call of one plan, found in the cache by key or made by make(slot)
 * (evicting round-robin when the cache is full): shared by the 2-D and 3-D
 * fused baselines, which differ only in how a plan is made. */
template <class Make>
static inline int l2c_fused_run(const int64_t key[9], Make make, const void *x,
                                const void *w, const void *b, float *c, cudaStream_t s)
{
	cudnnStatus_t st;
	if (l2c_fused_handle == NULL) {
		cudnnHandle_t h;
		st = cudnnCreate(&h);
		if (st != CUDNN_STATUS_SUCCESS)
			return (int)st;
		l2c_fused_handle = h;
	}
	st = cudnnSetStream(l2c_fused_handle, s);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	struct l2c_fused_plan *p = NULL, *slot = NULL;
	for (int i = 0; i < L2C_FUSED_PLANS && p == NULL; i++) {
		if (memcmp(l2c_fused_plans[i].key, key, sizeof(l2c_fused_plans[i].key)) == 0)
			p = &l2c_fused_plans[i];
		else if (slot == NULL && l2c_fused_plans[i].key[0] == 0)
			slot = &l2c_fused_plans[i];
	}
	if (p == NULL) {
		if (slot == NULL) {
			slot = &l2c_fused_plans[l2c_fused_victim];
			l2c_fused_victim = (l2c_fused_victim + 1) % L2C_FUSED_PLANS;
			l2c_fused_free(slot);
		}
		int rc = make(slot);
		if (rc != 0)
			return rc;
		p = slot;
	}
	st = l2c_fused_call(p, p->algo, x, w, b, c);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	return (int)cudaGetLastError();
}

/* c = act(conv(x, w) + b) in one cuDNN call (cv forward, with bias). */
static inline int l2c_cudnn_fused_conv(const struct l2c_conv &cv, bool relu,
                                       const struct l2c_geom &g, const struct cua_tensor *in,
                                       float *c, cudaStream_t s)
{
	if (cv.transposed || !cv.bias)
		return CUA_CHECK_E_PARAM;
	for (int i = 0; i < 4; i++)
		if (in[0].shape[i] > INT_MAX || in[1].shape[i] > INT_MAX)
			return CUA_CHECK_E_SHAPE;
	if (g.N * g.F * g.OH * g.OW > INT_MAX || g.N * g.C * g.H * g.W > INT_MAX)
		return CUA_CHECK_E_SHAPE;
	int64_t key[9];
	for (int i = 0; i < 4; i++) {
		key[i] = in[0].shape[i];
		key[4 + i] = in[1].shape[i];
	}
	key[8] = relu;
	auto make = [&](struct l2c_fused_plan *slot) {
		return l2c_fused_make(slot, key, cv, relu, g, in[0].data, in[1].data, in[2].data, c);
	};
	return l2c_fused_run(key, make, in[0].data, in[1].data, in[2].data, c, s);
}

/* The whole fused baseline of Task: conv + bias (+ the leading ReLU) on cuDNN,
 * then the rest of the chain. */
template <class Task>
static inline int l2c_cudnn_fused(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                                  int n_out, cudaStream_t s)
{
	auto conv = [s](const struct l2c_geom &g, const struct cua_tensor *x, float *c) {
		return l2c_cudnn_fused_conv(Task::conv, Task::fuse_relu, g, x, c, s);
	};
	CUA_CHECK(mempool_keep());
	return l2c_chain<Task, float>(in, n_in, out, n_out, conv, Task::fuse_relu ? 1 : 0, s);
}

/* A baseline file is one of these lines: its cua_solve. */
#define L2C_CUDNN_UNFUSED(Task)                                                 \
	extern "C" int cua_solve(const struct cua_tensor *in, int n_in,             \
	                         struct cua_tensor *out, int n_out, cudaStream_t s) \
	{                                                                           \
		return l2c_cudnn_unfused<Task>(in, n_in, out, n_out, s);                \
	}
#define L2C_CUDNN_FUSED(Task)                                                   \
	extern "C" int cua_solve(const struct cua_tensor *in, int n_in,             \
	                         struct cua_tensor *out, int n_out, cudaStream_t s) \
	{                                                                           \
		return l2c_cudnn_fused<Task>(in, n_in, out, n_out, s);                  \
	}

#endif /* BASELINES_CUDNN_L2_CONV_COMMON_CUH */
