/* l2-conv3d-common.cuh — the cuDNN baselines of the Level-2 Conv3d and
 * ConvTranspose3d tasks (baselines/cudnn/l2-NNN-{unfused,fused}.cu). Each
 * task's chain (struct l2d_tNNN) is in tasks/common/epilogue-conv3d.cuh, shared
 * with its reference, so a baseline differs from the reference only in the
 * convolution.
 *
 * unfused: what PyTorch eager runs. The convolution on cuDNN in strict fp32
 *     (conv-common.cuh: cudnnConvolutionForward; conv-transpose-common.cuh:
 *     cudnnConvolutionBackwardData; CUDNN_FMA_MATH, algorithm by Find, tensor-op
 *     results and fp32-inaccurate Winograd skipped), then the conv bias as its
 *     own kernel, then the task's naive epilogue kernels (L2/38's average pool
 *     of x before the convolution is the chain's naive pool kernel too).
 * fused: forward convolutions with a bias only (the Conv3d tasks but L2/79).
 *     cudnnConvolutionBiasActivationForward on 5-D descriptors computes
 *     act(conv(x, w) + b) in one call: act = ReLU when the chain's next operator
 *     is a ReLU (L2/7), else identity, which cuDNN takes only with
 *     IMPLICIT_PRECOMP_GEMM; with ReLU the candidates are Find's strict-fp32
 *     results, fastest first, and the first the fused call accepts is kept.
 *     The plan type, its release, the call and its workspace are
 *     l2-conv-common.cuh's (l2c_fused_plan, shared handle); per shape, cached
 *     for the life of the process.
 * Both keep the chain's scratch mapped between calls (../common/mempool-common.cuh).
 * Every status is checked; failures return non-zero (a cudnnStatus_t, a
 * cudaError_t or a negative check code), never abort. */
#ifndef BASELINES_CUDNN_L2_CONV3D_COMMON_CUH
#define BASELINES_CUDNN_L2_CONV3D_COMMON_CUH

#include "l2-conv-common.cuh"
#include "epilogue-conv3d.cuh"

/* c [N, F, OD, OH, OW] = conv(x, w) + b with the convolution on cuDNN; x is
 * in[0] as the chain passes it (f32: the task's x, or L2/38's pooled copy). */
static inline int l2d_cudnn_conv(const struct l2d_conv &cv, const struct l2d_geom &g,
                                 const struct cua_tensor *in, float *c, cudaStream_t s)
{
	struct cua_tensor ct;
	memset(&ct, 0, sizeof(ct));
	ct.data = c;
	ct.dtype = CUA_F32;
	ct.ndim = 5;
	ct.shape[0] = g.N, ct.shape[1] = g.F;
	ct.shape[2] = g.OD, ct.shape[3] = g.OH, ct.shape[4] = g.OW;
	int rc;
	if (cv.transposed) {
		const struct convt_hp hp = {3, {cv.k, cv.k, cv.k}, {cv.s, cv.s, cv.s},
		                            {cv.p, cv.p, cv.p}, {cv.op, cv.op, cv.op}, {1, 1, 1}, 1};
		rc = convt_cudnn(&hp, in, 2, &ct, 1, s);
	} else {
		const struct conv_spec sp = {3, {cv.k, cv.k, cv.k}, {cv.s, cv.s, cv.s},
		                             {cv.p, cv.p, cv.p}, {1, 1, 1}, 1};
		rc = conv_forward_raw(&sp, in[0].shape, in[0].data, in[1].shape, in[1].data, ct.shape,
		                      c, s);
	}
	if (rc != 0)
		return rc;
	if (cv.bias)
		cua_ep_bcast<float>(L2D_NFV(g), g.F, L2D_VOL(g), cua_ep_add(), c,
		                    (const float *)in[2].data, c, s);
	return (int)cudaGetLastError();
}

/* The whole unfused baseline of Task. */
template <class Task>
static inline int l2d_cudnn_unfused(const struct cua_tensor *in, int n_in,
                                    struct cua_tensor *out, int n_out, cudaStream_t s)
{
	auto conv = [s](const struct l2d_geom &g, const struct cua_tensor *x, float *c) {
		return l2d_cudnn_conv(Task::conv, g, x, c, s);
	};
	CUA_CHECK(mempool_keep());   /* the chain's scratch stays mapped between calls */
	return l2d_chain<Task, float>(in, n_in, out, n_out, conv, 0, s);
}

/* ---- fused conv + bias (+ ReLU), 5-D: plans cached by l2c_fused_run ---- */

/* Row-major strides of dims[0..5). */
static inline void l2d_strides5(const int *dims, int *strides)
{
	strides[4] = 1;
	for (int i = 3; i >= 0; i--)
		strides[i] = strides[i + 1] * dims[i + 1];
}

/* Builds p for cv at g (5-D descriptors) and picks its algorithm, running the
 * fused call on the caller's buffers (y is overwritten). On failure p is left
 * empty. */
static inline int l2d_fused_make(struct l2c_fused_plan *p, const int64_t *key,
                                 const struct l2d_conv &cv, bool relu, const struct l2d_geom &g,
                                 const void *x, const void *w, const void *b, void *y)
{
	int rc = 0, st5[5];
	const int xd[5] = {(int)g.N, (int)g.C, (int)g.D, (int)g.H, (int)g.W};
	const int wd[5] = {(int)g.F, (int)g.C, cv.k, cv.k, cv.k};
	const int bd[5] = {1, (int)g.F, 1, 1, 1}, bs[5] = {(int)g.F, 1, 1, 1, 1};
	const int pad[3] = {cv.p, cv.p, cv.p}, str[3] = {cv.s, cv.s, cv.s}, dil[3] = {1, 1, 1};
	int yd[5];
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
	l2d_strides5(xd, st5);
	TRY(cudnnSetTensorNdDescriptor(p->x, CUDNN_DATA_FLOAT, 5, xd, st5));
	TRY(cudnnSetFilterNdDescriptor(p->w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 5, wd));
	TRY(cudnnSetConvolutionNdDescriptor(p->conv, 3, pad, str, dil, CUDNN_CROSS_CORRELATION,
	                                    CUDNN_DATA_FLOAT));
	TRY(cudnnSetConvolutionMathType(p->conv, CUDNN_FMA_MATH));
	TRY(cudnnGetConvolutionNdForwardOutputDim(p->conv, p->x, p->w, 5, yd));
	if (yd[0] != g.N || yd[1] != g.F || yd[2] != g.OD || yd[3] != g.OH || yd[4] != g.OW) {
		rc = CUA_CHECK_E_SHAPE;
		goto fail;
	}
	l2d_strides5(yd, st5);
	TRY(cudnnSetTensorNdDescriptor(p->y, CUDNN_DATA_FLOAT, 5, yd, st5));
	TRY(cudnnSetTensorNdDescriptor(p->b, CUDNN_DATA_FLOAT, 5, bd, bs));
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
		const int k3[3] = {cv.k, cv.k, cv.k};
		const int skip = cudnn_skip_fwd(k3, 3);
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

/* c = act(conv(x, w) + b) in one cuDNN call (cv forward, with bias). */
static inline int l2d_cudnn_fused_conv(const struct l2d_conv &cv, bool relu,
                                       const struct l2d_geom &g, const struct cua_tensor *in,
                                       float *c, cudaStream_t s)
{
	if (cv.transposed || !cv.bias || cv.prepool > 0)
		return CUA_CHECK_E_PARAM;
	for (int i = 0; i < 5; i++)
		if (in[0].shape[i] > INT_MAX || in[1].shape[i] > INT_MAX)
			return CUA_CHECK_E_SHAPE;
	if (L2D_NFV(g) > INT_MAX || g.N * g.C * g.D * g.H * g.W > INT_MAX)
		return CUA_CHECK_E_SHAPE;
	/* x's extents, F, k, relu: they determine the plan. */
	int64_t key[9] = {in[0].shape[0], in[0].shape[1], in[0].shape[2], in[0].shape[3],
	                  in[0].shape[4], g.F, cv.k, relu ? 1 : 0, 5};
	auto make = [&](struct l2c_fused_plan *slot) {
		return l2d_fused_make(slot, key, cv, relu, g, in[0].data, in[1].data, in[2].data, c);
	};
	return l2c_fused_run(key, make, in[0].data, in[1].data, in[2].data, c, s);
}

/* The whole fused baseline of Task: conv + bias (+ the leading ReLU) on cuDNN,
 * then the rest of the chain. */
template <class Task>
static inline int l2d_cudnn_fused(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                                  int n_out, cudaStream_t s)
{
	auto conv = [s](const struct l2d_geom &g, const struct cua_tensor *x, float *c) {
		return l2d_cudnn_fused_conv(Task::conv, Task::fuse_relu, g, x, c, s);
	};
	CUA_CHECK(mempool_keep());
	return l2d_chain<Task, float>(in, n_in, out, n_out, conv, Task::fuse_relu ? 1 : 0, s);
}

/* A baseline file is one of these lines: its cua_solve. */
#define L2D_CUDNN_UNFUSED(Task)                                                 \
	extern "C" int cua_solve(const struct cua_tensor *in, int n_in,             \
	                         struct cua_tensor *out, int n_out, cudaStream_t s) \
	{                                                                           \
		return l2d_cudnn_unfused<Task>(in, n_in, out, n_out, s);                \
	}
#define L2D_CUDNN_FUSED(Task)                                                   \
	extern "C" int cua_solve(const struct cua_tensor *in, int n_in,             \
	                         struct cua_tensor *out, int n_out, cudaStream_t s) \
	{                                                                           \
		return l2d_cudnn_fused<Task>(in, n_in, out, n_out, s);                  \
	}

#endif /* BASELINES_CUDNN_L2_CONV3D_COMMON_CUH */
