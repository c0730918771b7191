/* epilogue-conv3d.cuh — the Level-2 Conv3d and ConvTranspose3d tasks' chains,
 * shared by each task's reference.cu and its cuDNN baselines
 * (baselines/cudnn/l2-conv3d-common.cuh), so the three run the same epilogue
 * kernels. Header-only; the 3-D sibling of epilogue-conv.cuh, whose scratch
 * allocator (l2c_scratch), extent checks (l2c_expect) and elementwise launcher
 * (l2c_map) it reuses.
 *
 * A task is a struct l2d_tNNN (NNN = KernelBench's number) with
 *     n_in      its input count: x, w, then b (the conv's bias) when conv.bias,
 *               then the chain's parameter tensors in task.json order
 *     conv      the main operator (struct l2d_conv: cubic kernel, stride,
 *               padding, output padding, bias, and an optional average pool of
 *               x before it: L2/38)
 *     fuse_relu the chain's first epilogue operator is a ReLU that cuDNN's
 *               fused conv + bias + activation call can take over
 *     check()   the parameter tensors' and the output's dtype and extents
 *     epilogue<T>(c, g, in, y, from, sc, s)
 *               the operators after the convolution, one naive kernel each
 *               (epilogue.cuh, poolnd.cuh), from c = conv(x, w) + b
 *               [N, F, OD, OH, OW] (scratch the epilogue may overwrite) into y;
 *               from = 1 skips the leading ReLU (done by a fused baseline)
 * T is float for cua_solve and the baselines (intermediates f32) and double
 * for cua_oracle (intermediates f64). l2d_reference<Task, T>() is the whole
 * body of cua_solve / cua_oracle: checks, conv (L1's naive fp32 kernels of
 * convnd.cuh / conv-transpose.cuh then a bias kernel, or the tiled fp64
 * conv3d-oracle.cuh with the bias folded in), then the epilogue,
 * intermediates in cudaMallocAsync'd scratch on the stream, freed before it
 * returns.
 *
 * Napkin math: the convolution dominates every task (2·N·F·OD·OH·OW·C·k³ or
 * 2·N·C·D·H·W·F·k³ flops); each epilogue kernel moves ~8 bytes per element in
 * f32, which a fused candidate saves. */
#ifndef CUA_COMMON_EPILOGUE_CONV3D_CUH
#define CUA_COMMON_EPILOGUE_CONV3D_CUH

#include "epilogue-conv.cuh"
#include "convnd.cuh"
#include "conv3d-oracle.cuh"
#include "poolnd.cuh"

/* A task's convolution: cubic kernel k, stride s, padding p, output padding
 * op (transposed only), dilation 1, one group; bias: the conv has its own bias
 * input b [F]; prepool: x is first average-pooled with window = stride =
 * prepool, no padding (0 = not). */
struct l2d_conv {
	bool transposed;
	int k, s, p, op;
	bool bias;
	int prepool;
};

/* Extents: x as given [N, C, XD, XH, XW]; the convolution's input [N, C, D, H,
 * W] (x itself, or x pooled); its output [N, F, OD, OH, OW]. */
struct l2d_geom {
	int64_t N, C, XD, XH, XW, D, H, W, F, OD, OH, OW;
};

#define L2D_VOL(g) ((g).OD * (g).OH * (g).OW)        /* conv output voxels per channel */
#define L2D_NFV(g) ((g).N * (g).F * L2D_VOL(g))      /* conv output elements */
#define L2D_SAME(g) {(g).N, (g).F, (g).OD, (g).OH, (g).OW}

/* k³ pooling, stride k, no padding (nn.MaxPool3d(k) / nn.AvgPool3d(k)) of
 * [N, C, D, H, W] into [N, C, D/k, H/k, W/k] (floor). */
static inline struct cua_pool3d_desc l2d_pool(int64_t N, int64_t C, int64_t D, int64_t H,
                                              int64_t W, int64_t k)
{
	struct cua_pool3d_desc d;
	d.N = N, d.C = C, d.D = D, d.H = H, d.W = W;
	d.KD = d.KH = d.KW = d.SD = d.SH = d.SW = k;
	d.PD = d.PH = d.PW = 0;
	d.DD = d.DH = d.DW = 1;
	d.OD = cua_pool_out_size(D, k, k, 0, 1);
	d.OH = cua_pool_out_size(H, k, k, 0, 1);
	d.OW = cua_pool_out_size(W, k, k, 0, 1);
	d.count_include_pad = true;
	return d;
}

/* The pooling of the conv output by k (the chains' MaxPool3d / AvgPool3d). */
static inline struct cua_pool3d_desc l2d_pool_out(const struct l2d_geom &g, int64_t k)
{
	return l2d_pool(g.N, g.F, g.OD, g.OH, g.OW, k);
}
#define L2D_PVOL(p) ((p).OD * (p).OH * (p).OW)

/* Checks x, w (and b) against cv and fills *g. */
static inline int l2d_geom_make(const struct l2d_conv &cv, const struct cua_tensor *in,
                                struct l2d_geom *g)
{
	const struct cua_tensor *x = &in[0], *w = &in[1];
	CUA_CHECK(cua_check_tensor(x, CUA_F32, 5));
	CUA_CHECK(cua_check_tensor(w, CUA_F32, 5));
	g->N = x->shape[0];
	g->C = x->shape[1];
	g->XD = x->shape[2];
	g->XH = x->shape[3];
	g->XW = x->shape[4];
	if (cv.prepool > 0) {
		const struct cua_pool3d_desc p = l2d_pool(g->N, g->C, g->XD, g->XH, g->XW, cv.prepool);
		CUA_CHECK(cua_pool3d_validate(p));
		g->D = p.OD, g->H = p.OH, g->W = p.OW;
	} else {
		g->D = g->XD, g->H = g->XH, g->W = g->XW;
	}
	g->F = cv.transposed ? w->shape[1] : w->shape[0];
	CUA_CHECK(cua_check_dim(w, cv.transposed ? 0 : 1, g->C));
	for (int i = 2; i < 5; i++)
		CUA_CHECK(cua_check_dim(w, i, cv.k));
	const int64_t ie[3] = {g->D, g->H, g->W};
	int64_t oe[3];
	for (int e = 0; e < 3; e++) {
		oe[e] = cv.transposed ? cua_convt_out_size(ie[e], cv.k, cv.s, cv.p, cv.op, 1)
		                      : cua_conv_out_size(ie[e], cv.k, cv.s, cv.p, 1);
		if (oe[e] < 1)
			return CUA_CHECK_E_SHAPE;
	}
	g->OD = oe[0], g->OH = oe[1], g->OW = oe[2];
	if (cv.bias)
		CUA_CHECK(l2c_expect(&in[2], CUA_F32, {g->F}));
	return 0;
}

/* The fp64 oracle's view of the convolution. */
static inline struct cua_conv3d_oracle_desc l2d_oracle_desc(const struct l2d_conv &cv,
                                                            const struct l2d_geom &g)
{
	struct cua_conv3d_oracle_desc d;
	d.transposed = cv.transposed;
	d.N = g.N, d.C = g.C, d.F = g.F, d.G = 1;
	d.in[0] = g.D, d.in[1] = g.H, d.in[2] = g.W;
	d.out[0] = g.OD, d.out[1] = g.OH, d.out[2] = g.OW;
	for (int e = 0; e < 3; e++) {
		d.k[e] = cv.k;
		d.s[e] = cv.s;
		d.p[e] = cv.p;
		d.dil[e] = 1;
	}
	return d;
}

/* c = conv(x, w) + b, fp32: the naive kernel of L1, then one bias kernel. */
static inline int l2d_conv_run(const struct l2d_conv &cv, const struct l2d_geom &g,
                               const struct cua_tensor *in, float *c, cudaStream_t s)
{
	const float *x = (const float *)in[0].data, *w = (const float *)in[1].data;
	const int64_t ie[3] = {g.D, g.H, g.W}, oe[3] = {g.OD, g.OH, g.OW};
	if (cv.transposed) {
		struct cua_convt_desc d;
		d.N = g.N, d.C = g.C, d.F = g.F, d.G = 1;
		for (int e = 0; e < 3; e++) {
			d.in[e] = ie[e];
			d.out[e] = oe[e];
			d.k[e] = cv.k;
			d.s[e] = cv.s;
			d.p[e] = cv.p;
			d.dil[e] = 1;
			d.step[e] = cv.s;       /* s / gcd(s, 1) */
		}
		cua_convt_naive<float, float, float>(x, w, c, d, 3, s);
	} else {
		struct cua_convnd_desc d;
		d.nsp = 3;
		d.N = g.N, d.C = g.C, d.F = g.F, d.G = 1;
		for (int e = 0; e < 3; e++) {
			d.in[e] = ie[e];
			d.out[e] = oe[e];
			d.k[e] = cv.k;
			d.s[e] = cv.s;
			d.p[e] = cv.p;
			d.d[e] = 1;
		}
		cua_convnd_naive<float, float, float, float>(x, w, c, d, s);
	}
	if (cv.bias)
		cua_ep_bcast<float>(L2D_NFV(g), g.F, L2D_VOL(g), cua_ep_add(), c,
		                    (const float *)in[2].data, c, s);
	return 0;
}

/* c = conv(x, w) + b in double: the tiled oracle, bias folded into its store;
 * x is f32 (the task's input) or f64 (the oracle's pooled x). */
static inline int l2d_conv_run(const struct l2d_conv &cv, const struct l2d_geom &g,
                               const struct cua_tensor *in, double *c, cudaStream_t s)
{
	const struct cua_conv3d_oracle_desc d = l2d_oracle_desc(cv, g);
	CUA_CHECK(cua_conv3d_oracle_validate(d));
	const float *b = cv.bias ? (const float *)in[2].data : NULL;
	if (in[0].dtype == CUA_F64)
		cua_conv3d_oracle((const double *)in[0].data, (const float *)in[1].data, b, c, d, s);
	else
		cua_conv3d_oracle((const float *)in[0].data, (const float *)in[1].data, b, c, d, s);
	return 0;
}

/* Counts, x, w, b, the task's parameters and output: shared by the reference
 * and the baselines. */
template <class Task>
static inline int l2d_setup(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                            int n_out, enum cua_dtype out_dtype, struct l2d_geom *g)
{
	CUA_CHECK(cua_check_counts(in, n_in, Task::n_in, out, n_out, 1));
	CUA_CHECK(l2d_geom_make(Task::conv, in, g));
	return Task::check(*g, in, &out[0], out_dtype);
}

#define L2D_MAX_IN 8

/* Checks, then (x average-pooled into scratch when conv.prepool, the conv then
 * reading that copy in T), c = conv(in) by conv_fn (int conv_fn(const l2d_geom
 * &, const cua_tensor *in, T *c)), then Task's epilogue from operator `from`
 * into out[0], scratch freed before it returns: the body of the reference and
 * of every baseline, which differ only in conv_fn. */
template <class Task, typename T, typename ConvFn>
static inline int l2d_chain(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                            int n_out, ConvFn conv_fn, int from, cudaStream_t s)
{
	static_assert(Task::n_in <= L2D_MAX_IN, "too many inputs");
	struct l2d_geom g;
	CUA_CHECK(l2d_setup<Task>(in, n_in, out, n_out, cua_dtype_of<T>::value, &g));
	struct l2c_scratch sc(s);
	struct cua_tensor cin[L2D_MAX_IN];
	for (int i = 0; i < Task::n_in; i++)
		cin[i] = in[i];
	if (Task::conv.prepool > 0) {
		T *px = sc.get<T>(g.N * g.C * g.D * g.H * g.W);
		if (px == NULL)
			return sc.err;
		cua_avgpool3d<float, T, T>((const float *)in[0].data, px,
		                           l2d_pool(g.N, g.C, g.XD, g.XH, g.XW, Task::conv.prepool), s);
		cin[0].data = px;
		cin[0].dtype = cua_dtype_of<T>::value;
		cin[0].shape[2] = g.D, cin[0].shape[3] = g.H, cin[0].shape[4] = g.W;
	}
	T *c = sc.get<T>(L2D_NFV(g));
	if (c == NULL)
		return sc.err;
	int rc = conv_fn(g, cin, c);
	if (rc == 0)
		rc = Task::template epilogue<T>(c, g, in, (T *)out[0].data, from, sc, s);
	if (rc == 0)
		rc = (int)cudaGetLastError();
	return sc.finish(rc);
}

/* The whole of cua_solve (T = float) or cua_oracle (T = double). */
template <class Task, typename T>
static inline int l2d_reference(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                                int n_out, cudaStream_t s)
{
	auto conv = [s](const struct l2d_geom &g, const struct cua_tensor *x, T *c) {
		return l2d_conv_run(Task::conv, g, x, c, s);
	};
	return l2d_chain<Task, T>(in, n_in, out, n_out, conv, 0, s);
}

/* A task's reference.cu is this one line: cua_solve is the fp32 unfused chain,
 * cua_oracle the fp64 one. */
#define L2D_REFERENCE(Task)                                                     \
	extern "C" int cua_solve(const struct cua_tensor *in, int n_in,             \
	                         struct cua_tensor *out, int n_out, cudaStream_t s) \
	{                                                                           \
		return l2d_reference<Task, float>(in, n_in, out, n_out, s);             \
	}                                                                           \
	extern "C" int cua_oracle(const struct cua_tensor *in, int n_in,            \
	                          struct cua_tensor *out, int n_out, cudaStream_t s) \
	{                                                                           \
		return l2d_reference<Task, double>(in, n_in, out, n_out, s);            \
	}

/* ---- shorthands for the chains below ---- */

/* y = f(x, v[c]) with v a per-channel [F, 1, 1, 1] parameter over [N, F, vol]. */
template <typename T, typename F>
static inline void l2d_chan(const struct l2d_geom &g, int64_t vol, F f, const T *x,
                            const float *v, T *y, cudaStream_t s)
{
	cua_ep_bcast<T>(g.N * g.F * vol, g.F, vol, f, x, v, y, s);
}

/* A per-channel parameter of shape [F, 1, 1, 1] (KernelBench's bias_shape). */
static inline int l2d_expect_chan(const struct cua_tensor *t, int64_t F)
{
	return l2c_expect(t, CUA_F32, {F, 1, 1, 1});
}

#define L2D_CHECK                                                               \
	static int check(const struct l2d_geom &g, const struct cua_tensor *in,     \
	                 const struct cua_tensor *y, enum cua_dtype dt)
#define L2D_EPILOGUE                                                            \
	template <typename T>                                                       \
	static int epilogue(T *c, const struct l2d_geom &g, const struct cua_tensor *in, T *y, \
	                    int from, struct l2c_scratch &sc, cudaStream_t s)

/* Defaults a task overrides: no leading ReLU to fuse; no parameter tensors to
 * check and an output shaped like the conv output. */
struct l2d_base {
	static constexpr bool fuse_relu = false;
	L2D_CHECK
	{
		(void)in;
		return l2c_expect(y, dt, L2D_SAME(g));
	}
};

/* The Conv3d tasks' convolution: k3, stride 1, no padding, with bias. */
#define L2D_CONV3 {false, 3, 1, 0, 0, true, 0}

/* ---- Conv3d tasks ---- */

/* L2/006: softmax over channels, max pool 2, max pool 2. in: x, w, b. */
struct l2d_t006 : l2d_base {
	static constexpr int n_in = 3;
	static constexpr struct l2d_conv conv = L2D_CONV3;
	L2D_CHECK
	{
		const struct cua_pool3d_desc p1 = l2d_pool_out(g, 2);
		CUA_CHECK(cua_pool3d_validate(p1));
		const struct cua_pool3d_desc p2 = l2d_pool(g.N, g.F, p1.OD, p1.OH, p1.OW, 2);
		CUA_CHECK(cua_pool3d_validate(p2));
		return l2c_expect(y, dt, {g.N, g.F, p2.OD, p2.OH, p2.OW});
	}
	L2D_EPILOGUE
	{
		const struct cua_pool3d_desc p1 = l2d_pool_out(g, 2);
		const struct cua_pool3d_desc p2 = l2d_pool(g.N, g.F, p1.OD, p1.OH, p1.OW, 2);
		T *t = sc.get<T>(L2D_NFV(g));
		if (t == NULL)
			return sc.err;
		cua_ep_softmax<T>(c, t, g.N, g.F, L2D_VOL(g), s);
		cua_maxpool3d<T, T, T>(t, c, p1, s);
		cua_maxpool3d<T, T, T>(c, y, p2, s);
		return 0;
	}
};

/* L2/007: relu, leaky ReLU 0.01, GELU (erf), sigmoid, + bias[F,1,1,1].
 * in: x, w, b, bias. */
struct l2d_t007 : l2d_base {
	static constexpr int n_in = 4;
	static constexpr struct l2d_conv conv = L2D_CONV3;
	static constexpr bool fuse_relu = true;
	L2D_CHECK
	{
		CUA_CHECK(l2d_expect_chan(&in[3], g.F));
		return l2c_expect(y, dt, L2D_SAME(g));
	}
	L2D_EPILOGUE
	{
		const int64_t n = L2D_NFV(g);
		if (from < 1)
			l2c_map(n, cua_ep_relu(), c, c, s);
		l2c_map(n, cua_ep_leaky_relu{0.01}, c, c, s);
		l2c_map(n, cua_ep_gelu_erf(), c, c, s);
		l2c_map(n, cua_ep_sigmoid(), c, c, s);
		l2d_chan(g, L2D_VOL(g), cua_ep_add(), c, L2C_P(3), y, s);
		return 0;
	}
};

/* L2/008: / 2, max pool 2, global average pool, + bias[F,1,1,1], sum over
 * channels. in: x, w, b, bias. Output [N, 1, 1, 1]. */
struct l2d_t008 : l2d_base {
	static constexpr int n_in = 4;
	static constexpr struct l2d_conv conv = L2D_CONV3;
	L2D_CHECK
	{
		CUA_CHECK(cua_pool3d_validate(l2d_pool_out(g, 2)));
		CUA_CHECK(l2d_expect_chan(&in[3], g.F));
		return l2c_expect(y, dt, {g.N, 1, 1, 1});
	}
	L2D_EPILOGUE
	{
		const struct cua_pool3d_desc p = l2d_pool_out(g, 2);
		T *t = sc.get<T>(g.N * g.F * L2D_PVOL(p)), *m = sc.get<T>(g.N * g.F);
		if (t == NULL || m == NULL)
			return sc.err;
		l2c_map(L2D_NFV(g), cua_ep_div_s{2.0}, c, c, s);
		cua_maxpool3d<T, T, T>(c, t, p, s);
		cua_ep_reduce<T>(CUA_EP_MEAN, t, m, g.N * g.F, L2D_PVOL(p), 1, s);
		cua_ep_bcast<T>(g.N * g.F, g.F, 1, cua_ep_add(), m, L2C_P(3), m, s);
		cua_ep_reduce<T>(CUA_EP_SUM, m, y, g.N, g.F, 1, s);
		return 0;
	}
};

/* L2/023: group norm (8 groups, eps 1e-5, affine), mean over (C, D, H, W).
 * in: x, w, b, gn_weight, gn_bias. Output [N]. */
struct l2d_t023 : l2d_base {
	static constexpr int n_in = 5;
	static constexpr struct l2d_conv conv = L2D_CONV3;
	static constexpr int groups = 8;
	L2D_CHECK
	{
		if (g.F % groups != 0)
			return CUA_CHECK_E_SHAPE;
		CUA_CHECK(l2c_expect(&in[3], CUA_F32, {g.F}));
		CUA_CHECK(l2c_expect(&in[4], CUA_F32, {g.F}));
		return l2c_expect(y, dt, {g.N});
	}
	L2D_EPILOGUE
	{
		cua_ep_groupnorm<T>(c, L2C_P(3), L2C_P(4), c, g.N, g.F, L2D_VOL(g), groups, 1e-5, s);
		cua_ep_reduce<T>(CUA_EP_MEAN, c, y, g.N, g.F * L2D_VOL(g), 1, s);
		return 0;
	}
};

/* L2/024: min over depth (dim 2, not kept), softmax over channels.
 * in: x, w, b. Output [N, F, OH, OW]. */
struct l2d_t024 : l2d_base {
	static constexpr int n_in = 3;
	static constexpr struct l2d_conv conv = L2D_CONV3;
	L2D_CHECK
	{
		return l2c_expect(y, dt, {g.N, g.F, g.OH, g.OW});
	}
	L2D_EPILOGUE
	{
		const int64_t P = g.OH * g.OW;
		T *t = sc.get<T>(g.N * g.F * P);
		if (t == NULL)
			return sc.err;
		cua_ep_reduce<T>(CUA_EP_MIN, c, t, g.N * g.F, g.OD, P, s);
		cua_ep_softmax<T>(t, y, g.N, g.F, P, s);
		return 0;
	}
};

/* L2/027: k4; hardswish, group norm (4 groups, eps 1e-5, affine), mean over
 * (D, H, W). in: x, w, b, gn_weight, gn_bias. Output [N, F]. */
struct l2d_t027 : l2d_base {
	static constexpr int n_in = 5;
	static constexpr struct l2d_conv conv = {false, 4, 1, 0, 0, true, 0};
	static constexpr int groups = 4;
	L2D_CHECK
	{
		if (g.F % groups != 0)
			return CUA_CHECK_E_SHAPE;
		CUA_CHECK(l2c_expect(&in[3], CUA_F32, {g.F}));
		CUA_CHECK(l2c_expect(&in[4], CUA_F32, {g.F}));
		return l2c_expect(y, dt, {g.N, g.F});
	}
	L2D_EPILOGUE
	{
		l2c_map(L2D_NFV(g), cua_ep_hardswish(), c, c, s);
		cua_ep_groupnorm<T>(c, L2C_P(3), L2C_P(4), c, g.N, g.F, L2D_VOL(g), groups, 1e-5, s);
		cua_ep_reduce<T>(CUA_EP_MEAN, c, y, g.N * g.F, L2D_VOL(g), 1, s);
		return 0;
	}
};

/* L2/043: k3 s1 p1; max pool 2, logsumexp over channels (keepdim), relu.
 * in: x, w, b. Output [N, 1, OD/2, OH/2, OW/2]. */
struct l2d_t043 : l2d_base {
	static constexpr int n_in = 3;
	static constexpr struct l2d_conv conv = {false, 3, 1, 1, 0, true, 0};
	L2D_CHECK
	{
		const struct cua_pool3d_desc p = l2d_pool_out(g, 2);
		CUA_CHECK(cua_pool3d_validate(p));
		return l2c_expect(y, dt, {g.N, 1, p.OD, p.OH, p.OW});
	}
	L2D_EPILOGUE
	{
		const struct cua_pool3d_desc p = l2d_pool_out(g, 2);
		T *t = sc.get<T>(g.N * g.F * L2D_PVOL(p));
		if (t == NULL)
			return sc.err;
		cua_maxpool3d<T, T, T>(c, t, p, s);
		cua_ep_reduce<T>(CUA_EP_LSE, t, y, g.N, g.F, L2D_PVOL(p), s);
		l2c_map(g.N * L2D_PVOL(p), cua_ep_relu(), y, y, s);
		return 0;
	}
};

/* L2/047: mish, tanh. in: x, w, b. */
struct l2d_t047 : l2d_base {
	static constexpr int n_in = 3;
	static constexpr struct l2d_conv conv = L2D_CONV3;
	L2D_EPILOGUE
	{
		l2c_map(L2D_NFV(g), cua_ep_mish(), c, c, s);
		l2c_map(L2D_NFV(g), cua_ep_tanh(), c, y, s);
		return 0;
	}
};

/* L2/048: · scaling_factor[F,1,1,1], tanh, · bias[F,1,1,1], sigmoid.
 * in: x, w, b, scaling_factor, bias. */
struct l2d_t048 : l2d_base {
	static constexpr int n_in = 5;
	static constexpr struct l2d_conv conv = L2D_CONV3;
	L2D_CHECK
	{
		CUA_CHECK(l2d_expect_chan(&in[3], g.F));
		CUA_CHECK(l2d_expect_chan(&in[4], g.F));
		return l2c_expect(y, dt, L2D_SAME(g));
	}
	L2D_EPILOGUE
	{
		l2d_chan(g, L2D_VOL(g), cua_ep_mul(), c, L2C_P(3), c, s);
		l2c_map(L2D_NFV(g), cua_ep_tanh(), c, c, s);
		l2d_chan(g, L2D_VOL(g), cua_ep_mul(), c, L2C_P(4), c, s);
		l2c_map(L2D_NFV(g), cua_ep_sigmoid(), c, y, s);
		return 0;
	}
};

/* L2/079: no conv bias; · multiplier[F,1,1,1], instance norm (no affine,
 * eps 1e-5), clamp(−1, 1), · multiplier, max over channels.
 * in: x, w, multiplier. Output [N, OD, OH, OW]. */
struct l2d_t079 : l2d_base {
	static constexpr int n_in = 3;
	static constexpr struct l2d_conv conv = {false, 3, 1, 0, 0, false, 0};
	L2D_CHECK
	{
		CUA_CHECK(l2d_expect_chan(&in[2], g.F));
		return l2c_expect(y, dt, {g.N, g.OD, g.OH, g.OW});
	}
	L2D_EPILOGUE
	{
		const int64_t n = L2D_NFV(g), V = L2D_VOL(g);
		l2d_chan(g, V, cua_ep_mul(), c, L2C_P(2), c, s);
		cua_ep_groupnorm<T>(c, NULL, NULL, c, g.N, g.F, V, g.F, 1e-5, s);
		l2c_map(n, cua_ep_clamp{-1.0, 1.0}, c, c, s);
		l2d_chan(g, V, cua_ep_mul(), c, L2C_P(2), c, s);
		cua_ep_reduce<T>(CUA_EP_MAX, c, y, g.N, g.F, V, s);
		return 0;
	}
};

/* L2/083: group norm (8 groups, eps 1e-5, affine), min(x, 1) (KernelBench:
 * min(x, 0), which with the clamp makes every output 0: DEPARTURES-conv3d.md),
 * clamp(0, 1), dropout p = 0.2 as a declared keep-mask (· keep / 0.8).
 * in: x, w, b, gn_weight, gn_bias, keep (u8). */
struct l2d_t083 : l2d_base {
	static constexpr int n_in = 6;
	static constexpr struct l2d_conv conv = L2D_CONV3;
	static constexpr int groups = 8;
	L2D_CHECK
	{
		if (g.F % groups != 0)
			return CUA_CHECK_E_SHAPE;
		CUA_CHECK(l2c_expect(&in[3], CUA_F32, {g.F}));
		CUA_CHECK(l2c_expect(&in[4], CUA_F32, {g.F}));
		CUA_CHECK(l2c_expect(&in[5], CUA_U8, L2D_SAME(g)));
		return l2c_expect(y, dt, L2D_SAME(g));
	}
	L2D_EPILOGUE
	{
		const int64_t n = L2D_NFV(g);
		cua_ep_groupnorm<T>(c, L2C_P(3), L2C_P(4), c, g.N, g.F, L2D_VOL(g), groups, 1e-5, s);
		l2c_map(n, cua_ep_clamp{-INFINITY, 1.0}, c, c, s);
		l2c_map(n, cua_ep_clamp{0.0, 1.0}, c, c, s);
		cua_ep_binary<T>(n, cua_ep_masked_scale{1.0 / 0.8}, c, (const uint8_t *)in[5].data, y,
		                 s);
		return 0;
	}
};

/* L2/090: leaky ReLU 0.2, + sum_tensor[F,1,1,1], clamp(−1, 1), GELU (erf).
 * in: x, w, b, sum_tensor. */
struct l2d_t090 : l2d_base {
	static constexpr int n_in = 4;
	static constexpr struct l2d_conv conv = L2D_CONV3;
	L2D_CHECK
	{
		CUA_CHECK(l2d_expect_chan(&in[3], g.F));
		return l2c_expect(y, dt, L2D_SAME(g));
	}
	L2D_EPILOGUE
	{
		const int64_t n = L2D_NFV(g);
		l2c_map(n, cua_ep_leaky_relu{0.2}, c, c, s);
		l2d_chan(g, L2D_VOL(g), cua_ep_add(), c, L2C_P(3), c, s);
		l2c_map(n, cua_ep_clamp{-1.0, 1.0}, c, c, s);
		l2c_map(n, cua_ep_gelu_erf(), c, y, s);
		return 0;
	}
};

/* ---- ConvTranspose3d tasks ---- */

/* Layer norm over the last dim (W) of [rows, OW], affine w, b [OW], eps 1e-5:
 * KernelBench's nn.LayerNorm(out_channels) on an NCDHW tensor whose width
 * equals out_channels. */
template <typename T>
static inline void l2d_layernorm_w(const struct l2d_geom &g, const T *x, const float *w,
                                   const float *b, T *y, cudaStream_t s)
{
	cua_ep_groupnorm<T>(x, w, b, y, g.N * g.F * g.OD * g.OH, g.OW, 1, 1, 1e-5, s);
}

/* L2/003: k3 s2 p1 op1, no conv bias; + 1.0 (sum_weight), layer norm over W
 * (affine), avg pool 2, GELU (erf). in: x, w, ln_weight, ln_bias. */
struct l2d_t003 : l2d_base {
	static constexpr int n_in = 4;
	static constexpr struct l2d_conv conv = {true, 3, 2, 1, 1, false, 0};
	L2D_CHECK
	{
		const struct cua_pool3d_desc p = l2d_pool_out(g, 2);
		CUA_CHECK(cua_pool3d_validate(p));
		CUA_CHECK(l2c_expect(&in[2], CUA_F32, {g.OW}));
		CUA_CHECK(l2c_expect(&in[3], CUA_F32, {g.OW}));
		return l2c_expect(y, dt, {g.N, g.F, p.OD, p.OH, p.OW});
	}
	L2D_EPILOGUE
	{
		const struct cua_pool3d_desc p = l2d_pool_out(g, 2);
		l2c_map(L2D_NFV(g), cua_ep_add_s{1.0}, c, c, s);
		l2d_layernorm_w<T>(g, c, L2C_P(2), L2C_P(3), c, s);
		cua_avgpool3d<T, T, T>(c, y, p, s);
		l2c_map(g.N * g.F * L2D_PVOL(p), cua_ep_gelu_erf(), y, y, s);
		return 0;
	}
};

/* L2/013: k3 s1 p1; mean over depth (keepdim), + bias[1,F,1,1,1], softmax over
 * channels, tanh, · 2. in: x, w, b, bias. Output [N, F, 1, OH, OW]. */
struct l2d_t013 : l2d_base {
	static constexpr int n_in = 4;
	static constexpr struct l2d_conv conv = {true, 3, 1, 1, 0, true, 0};
	L2D_CHECK
	{
		CUA_CHECK(l2c_expect(&in[3], CUA_F32, {1, g.F, 1, 1, 1}));
		return l2c_expect(y, dt, {g.N, g.F, 1, g.OH, g.OW});
	}
	L2D_EPILOGUE
	{
		const int64_t P = g.OH * g.OW, n = g.N * g.F * P;
		T *m = sc.get<T>(n);
		if (m == NULL)
			return sc.err;
		cua_ep_reduce<T>(CUA_EP_MEAN, c, m, g.N * g.F, g.OD, P, s);
		cua_ep_bcast<T>(n, g.F, P, cua_ep_add(), m, L2C_P(3), m, s);
		cua_ep_softmax<T>(m, y, g.N, g.F, P, s);
		l2c_map(n, cua_ep_tanh(), y, y, s);
		l2c_map(n, cua_ep_mul_s{2.0}, y, y, s);
		return 0;
	}
};

/* L2/015: k3 s2 p1, no conv bias; batch norm (batch statistics, eps 1e-5,
 * weight only: its bias and the conv's are removed by the next step), minus the
 * mean over (D, H, W) (keepdim). in: x, w, bn_weight. */
struct l2d_t015 : l2d_base {
	static constexpr int n_in = 3;
	static constexpr struct l2d_conv conv = {true, 3, 2, 1, 0, false, 0};
	L2D_CHECK
	{
		CUA_CHECK(l2c_expect(&in[2], CUA_F32, {g.F}));
		return l2c_expect(y, dt, L2D_SAME(g));
	}
	L2D_EPILOGUE
	{
		const int64_t V = L2D_VOL(g);
		float *zero = sc.get<float>(g.F);
		T *m = sc.get<T>(g.N * g.F);
		if (zero == NULL || m == NULL)
			return sc.err;
		CUA_CHECK((int)cudaMemsetAsync(zero, 0, (size_t)g.F * sizeof(float), s));
		cua_ep_batchnorm_train<T>(c, L2C_P(2), zero, c, g.N, g.F, V, 1e-5, s);
		cua_ep_reduce<T>(CUA_EP_MEAN, c, m, g.N * g.F, V, 1, s);
		cua_ep_bcast<T>(L2D_NFV(g), g.N * g.F, V, cua_ep_sub(), c, m, y, s);
		return 0;
	}
};

/* L2/020: k3 s2 p1 op1; with o = conv output: ((o + bias) + o) · o + o.
 * in: x, w, b, bias[F,1,1,1]. */
struct l2d_t020 : l2d_base {
	static constexpr int n_in = 4;
	static constexpr struct l2d_conv conv = {true, 3, 2, 1, 1, true, 0};
	L2D_CHECK
	{
		CUA_CHECK(l2d_expect_chan(&in[3], g.F));
		return l2c_expect(y, dt, L2D_SAME(g));
	}
	L2D_EPILOGUE
	{
		const int64_t n = L2D_NFV(g);
		T *t = sc.get<T>(n);
		if (t == NULL)
			return sc.err;
		l2d_chan(g, L2D_VOL(g), cua_ep_add(), c, L2C_P(3), t, s);
		cua_ep_binary<T>(n, cua_ep_add(), t, c, t, s);
		cua_ep_binary<T>(n, cua_ep_mul(), t, c, t, s);
		cua_ep_binary<T>(n, cua_ep_add(), t, c, y, s);
		return 0;
	}
};

/* L2/026: k3 s2 p1 op1; + add_input, then x · hardswish(x).
 * in: x, w, b, add_input [N, F, OD, OH, OW]. */
struct l2d_t026 : l2d_base {
	static constexpr int n_in = 4;
	static constexpr struct l2d_conv conv = {true, 3, 2, 1, 1, true, 0};
	L2D_CHECK
	{
		CUA_CHECK(l2c_expect(&in[3], CUA_F32, L2D_SAME(g)));
		return l2c_expect(y, dt, L2D_SAME(g));
	}
	L2D_EPILOGUE
	{
		const int64_t n = L2D_NFV(g);
		cua_ep_binary<T>(n, cua_ep_add(), c, L2C_P(3), c, s);
		l2c_map(n, cua_ep_hardswish(), c, y, s);
		cua_ep_binary<T>(n, cua_ep_mul(), c, y, y, s);
		return 0;
	}
};

/* L2/034: k4 s2 p1, no conv bias; layer norm over W (affine, eps 1e-5), GELU
 * (erf), · 1.0. in: x, w, ln_weight, ln_bias. */
struct l2d_t034 : l2d_base {
	static constexpr int n_in = 4;
	static constexpr struct l2d_conv conv = {true, 4, 2, 1, 0, false, 0};
	L2D_CHECK
	{
		CUA_CHECK(l2c_expect(&in[2], CUA_F32, {g.OW}));
		CUA_CHECK(l2c_expect(&in[3], CUA_F32, {g.OW}));
		return l2c_expect(y, dt, L2D_SAME(g));
	}
	L2D_EPILOGUE
	{
		const int64_t n = L2D_NFV(g);
		l2d_layernorm_w<T>(g, c, L2C_P(2), L2C_P(3), c, s);
		l2c_map(n, cua_ep_gelu_erf(), c, c, s);
		l2c_map(n, cua_ep_mul_s{1.0}, c, y, s);
		return 0;
	}
};

/* L2/038: avg pool 2 of x, then k3 s2 p1 op1; clamp(0, 1), softmax over the
 * flattened (D, H, W) of each (n, f), · scale[1,F,1,1,1].
 * in: x, w, b, scale. */
struct l2d_t038 : l2d_base {
	static constexpr int n_in = 4;
	static constexpr struct l2d_conv conv = {true, 3, 2, 1, 1, true, 2};
	L2D_CHECK
	{
		CUA_CHECK(l2c_expect(&in[3], CUA_F32, {1, g.F, 1, 1, 1}));
		return l2c_expect(y, dt, L2D_SAME(g));
	}
	L2D_EPILOGUE
	{
		const int64_t V = L2D_VOL(g);
		l2c_map(L2D_NFV(g), cua_ep_clamp{0.0, 1.0}, c, c, s);
		cua_ep_softmax<T>(c, y, g.N * g.F, V, 1, s);
		l2d_chan(g, V, cua_ep_mul(), y, L2C_P(3), y, s);
		return 0;
	}
};

/* L2/049: k3 s2 p1 op1; softmax over channels, sigmoid. in: x, w, b. */
struct l2d_t049 : l2d_base {
	static constexpr int n_in = 3;
	static constexpr struct l2d_conv conv = {true, 3, 2, 1, 1, true, 0};
	L2D_EPILOGUE
	{
		cua_ep_softmax<T>(c, y, g.N, g.F, L2D_VOL(g), s);
		l2c_map(L2D_NFV(g), cua_ep_sigmoid(), y, y, s);
		return 0;
	}
};

/* L2/050: k3 s2 p1; · 0.5, avg pool 2, + bias[F,1,1,1], · 1.0.
 * in: x, w, b, bias. */
struct l2d_t050 : l2d_base {
	static constexpr int n_in = 4;
	static constexpr struct l2d_conv conv = {true, 3, 2, 1, 0, true, 0};
	L2D_CHECK
	{
		const struct cua_pool3d_desc p = l2d_pool_out(g, 2);
		CUA_CHECK(cua_pool3d_validate(p));
		CUA_CHECK(l2d_expect_chan(&in[3], g.F));
		return l2c_expect(y, dt, {g.N, g.F, p.OD, p.OH, p.OW});
	}
	L2D_EPILOGUE
	{
		const struct cua_pool3d_desc p = l2d_pool_out(g, 2);
		l2c_map(L2D_NFV(g), cua_ep_mul_s{0.5}, c, c, s);
		cua_avgpool3d<T, T, T>(c, y, p, s);
		l2d_chan(g, L2D_PVOL(p), cua_ep_add(), y, L2C_P(3), y, s);
		l2c_map(g.N * g.F * L2D_PVOL(p), cua_ep_mul_s{1.0}, y, y, s);
		return 0;
	}
};

/* L2/058: k3 s2 p1; logsumexp over channels (keepdim), x · sigmoid(x + 3) / 6
 * as written (four kernels), − bias[1,1,1,1], clamp(−1, 1).
 * in: x, w, b, bias. Output [N, 1, OD, OH, OW]. */
struct l2d_t058 : l2d_base {
	static constexpr int n_in = 4;
	static constexpr struct l2d_conv conv = {true, 3, 2, 1, 0, true, 0};
	L2D_CHECK
	{
		CUA_CHECK(l2c_expect(&in[3], CUA_F32, {1, 1, 1, 1}));
		return l2c_expect(y, dt, {g.N, 1, g.OD, g.OH, g.OW});
	}
	L2D_EPILOGUE
	{
		const int64_t V = L2D_VOL(g), n = g.N * V;
		T *t = sc.get<T>(n);
		if (t == NULL)
			return sc.err;
		cua_ep_reduce<T>(CUA_EP_LSE, c, y, g.N, g.F, V, s);
		l2c_map(n, cua_ep_add_s{3.0}, y, t, s);
		l2c_map(n, cua_ep_sigmoid(), t, t, s);
		cua_ep_binary<T>(n, cua_ep_mul(), y, t, t, s);
		l2c_map(n, cua_ep_div_s{6.0}, t, t, s);
		cua_ep_bcast<T>(n, 1, 1, cua_ep_sub(), t, L2C_P(3), y, s);
		l2c_map(n, cua_ep_clamp{-1.0, 1.0}, y, y, s);
		return 0;
	}
};

/* L2/060: k3 s2 p1; sigmoid(x) · x as written (two kernels), group norm
 * (4 groups, eps 1e-5, affine), hardswish. in: x, w, b, gn_weight, gn_bias. */
struct l2d_t060 : l2d_base {
	static constexpr int n_in = 5;
	static constexpr struct l2d_conv conv = {true, 3, 2, 1, 0, true, 0};
	static constexpr int groups = 4;
	L2D_CHECK
	{
		if (g.F % groups != 0)
			return CUA_CHECK_E_SHAPE;
		CUA_CHECK(l2c_expect(&in[3], CUA_F32, {g.F}));
		CUA_CHECK(l2c_expect(&in[4], CUA_F32, {g.F}));
		return l2c_expect(y, dt, L2D_SAME(g));
	}
	L2D_EPILOGUE
	{
		const int64_t n = L2D_NFV(g);
		T *t = sc.get<T>(n);
		if (t == NULL)
			return sc.err;
		l2c_map(n, cua_ep_sigmoid(), c, t, s);
		cua_ep_binary<T>(n, cua_ep_mul(), t, c, t, s);
		cua_ep_groupnorm<T>(t, L2C_P(3), L2C_P(4), c, g.N, g.F, L2D_VOL(g), groups, 1e-5, s);
		l2c_map(n, cua_ep_hardswish(), c, y, s);
		return 0;
	}
};

/* L2/061: k3 s1 p0, no conv bias (as KernelBench); relu, group norm (8 groups,
 * eps 1e-5, affine). in: x, w, gn_weight, gn_bias. */
struct l2d_t061 : l2d_base {
	static constexpr int n_in = 4;
	static constexpr struct l2d_conv conv = {true, 3, 1, 0, 0, false, 0};
	static constexpr int groups = 8;
	L2D_CHECK
	{
		if (g.F % groups != 0)
			return CUA_CHECK_E_SHAPE;
		CUA_CHECK(l2c_expect(&in[2], CUA_F32, {g.F}));
		CUA_CHECK(l2c_expect(&in[3], CUA_F32, {g.F}));
		return l2c_expect(y, dt, L2D_SAME(g));
	}
	L2D_EPILOGUE
	{
		l2c_map(L2D_NFV(g), cua_ep_relu(), c, c, s);
		cua_ep_groupnorm<T>(c, L2C_P(2), L2C_P(3), y, g.N, g.F, L2D_VOL(g), groups, 1e-5, s);
		return 0;
	}
};

/* L2/072: k3 s2 p1, no conv bias; batch norm (batch statistics, eps 1e-5),
 * avg pool 2, avg pool 2. in: x, w, bn_weight, bn_bias. */
struct l2d_t072 : l2d_base {
	static constexpr int n_in = 4;
	static constexpr struct l2d_conv conv = {true, 3, 2, 1, 0, false, 0};
	L2D_CHECK
	{
		const struct cua_pool3d_desc p1 = l2d_pool_out(g, 2);
		CUA_CHECK(cua_pool3d_validate(p1));
		const struct cua_pool3d_desc p2 = l2d_pool(g.N, g.F, p1.OD, p1.OH, p1.OW, 2);
		CUA_CHECK(cua_pool3d_validate(p2));
		CUA_CHECK(l2c_expect(&in[2], CUA_F32, {g.F}));
		CUA_CHECK(l2c_expect(&in[3], CUA_F32, {g.F}));
		return l2c_expect(y, dt, {g.N, g.F, p2.OD, p2.OH, p2.OW});
	}
	L2D_EPILOGUE
	{
		const struct cua_pool3d_desc p1 = l2d_pool_out(g, 2);
		const struct cua_pool3d_desc p2 = l2d_pool(g.N, g.F, p1.OD, p1.OH, p1.OW, 2);
		T *t = sc.get<T>(g.N * g.F * L2D_PVOL(p1));
		if (t == NULL)
			return sc.err;
		cua_ep_batchnorm_train<T>(c, L2C_P(2), L2C_P(3), c, g.N, g.F, L2D_VOL(g), 1e-5, s);
		cua_avgpool3d<T, T, T>(c, t, p1, s);
		cua_avgpool3d<T, T, T>(t, y, p2, s);
		return 0;
	}
};

/* L2/074: k3 s2 p1 op1; leaky ReLU 0.2, · multiplier[F,1,1,1], leaky ReLU 0.2,
 * max pool 2. in: x, w, b, multiplier. */
struct l2d_t074 : l2d_base {
	static constexpr int n_in = 4;
	static constexpr struct l2d_conv conv = {true, 3, 2, 1, 1, true, 0};
	L2D_CHECK
	{
		const struct cua_pool3d_desc p = l2d_pool_out(g, 2);
		CUA_CHECK(cua_pool3d_validate(p));
		CUA_CHECK(l2d_expect_chan(&in[3], g.F));
		return l2c_expect(y, dt, {g.N, g.F, p.OD, p.OH, p.OW});
	}
	L2D_EPILOGUE
	{
		const int64_t n = L2D_NFV(g);
		l2c_map(n, cua_ep_leaky_relu{0.2}, c, c, s);
		l2d_chan(g, L2D_VOL(g), cua_ep_mul(), c, L2C_P(3), c, s);
		l2c_map(n, cua_ep_leaky_relu{0.2}, c, c, s);
		cua_maxpool3d<T, T, T>(c, y, l2d_pool_out(g, 2), s);
		return 0;
	}
};

/* L2/077: k5 s1 p0, no conv bias; · 2, batch norm (batch statistics, eps 1e-5),
 * global average pool. in: x, w, bn_weight, bn_bias. Output [N, F, 1, 1, 1]. */
struct l2d_t077 : l2d_base {
	static constexpr int n_in = 4;
	static constexpr struct l2d_conv conv = {true, 5, 1, 0, 0, false, 0};
	L2D_CHECK
	{
		CUA_CHECK(l2c_expect(&in[2], CUA_F32, {g.F}));
		CUA_CHECK(l2c_expect(&in[3], CUA_F32, {g.F}));
		return l2c_expect(y, dt, {g.N, g.F, 1, 1, 1});
	}
	L2D_EPILOGUE
	{
		l2c_map(L2D_NFV(g), cua_ep_mul_s{2.0}, c, c, s);
		cua_ep_batchnorm_train<T>(c, L2C_P(2), L2C_P(3), c, g.N, g.F, L2D_VOL(g), 1e-5, s);
		cua_ep_reduce<T>(CUA_EP_MEAN, c, y, g.N * g.F, L2D_VOL(g), 1, s);
		return 0;
	}
};

/* L2/078: k5 s2 p2; max pool 2, max pool 3, sum over channels (keepdim).
 * in: x, w, b. Output [N, 1, PD, PH, PW]. */
struct l2d_t078 : l2d_base {
	static constexpr int n_in = 3;
	static constexpr struct l2d_conv conv = {true, 5, 2, 2, 0, true, 0};
	L2D_CHECK
	{
		const struct cua_pool3d_desc p1 = l2d_pool_out(g, 2);
		CUA_CHECK(cua_pool3d_validate(p1));
		const struct cua_pool3d_desc p2 = l2d_pool(g.N, g.F, p1.OD, p1.OH, p1.OW, 3);
		CUA_CHECK(cua_pool3d_validate(p2));
		return l2c_expect(y, dt, {g.N, 1, p2.OD, p2.OH, p2.OW});
	}
	L2D_EPILOGUE
	{
		const struct cua_pool3d_desc p1 = l2d_pool_out(g, 2);
		const struct cua_pool3d_desc p2 = l2d_pool(g.N, g.F, p1.OD, p1.OH, p1.OW, 3);
		T *t = sc.get<T>(g.N * g.F * L2D_PVOL(p1)), *u = sc.get<T>(g.N * g.F * L2D_PVOL(p2));
		if (t == NULL || u == NULL)
			return sc.err;
		cua_maxpool3d<T, T, T>(c, t, p1, s);
		cua_maxpool3d<T, T, T>(t, u, p2, s);
		cua_ep_reduce<T>(CUA_EP_SUM, u, y, g.N, g.F, L2D_PVOL(p2), s);
		return 0;
	}
};

/* L2/089: k3 s2 p1 op1; max pool 2, softmax over channels, − subtract[F],
 * sigmoid(x) · x as written (two kernels), max over channels.
 * in: x, w, b, subtract. Output [N, PD, PH, PW]. */
struct l2d_t089 : l2d_base {
	static constexpr int n_in = 4;
	static constexpr struct l2d_conv conv = {true, 3, 2, 1, 1, true, 0};
	L2D_CHECK
	{
		const struct cua_pool3d_desc p = l2d_pool_out(g, 2);
		CUA_CHECK(cua_pool3d_validate(p));
		CUA_CHECK(l2c_expect(&in[3], CUA_F32, {g.F}));
		return l2c_expect(y, dt, {g.N, p.OD, p.OH, p.OW});
	}
	L2D_EPILOGUE
	{
		const struct cua_pool3d_desc p = l2d_pool_out(g, 2);
		const int64_t V = L2D_PVOL(p), n = g.N * g.F * V;
		T *t = sc.get<T>(n), *u = sc.get<T>(n);
		if (t == NULL || u == NULL)
			return sc.err;
		cua_maxpool3d<T, T, T>(c, t, p, s);
		cua_ep_softmax<T>(t, u, g.N, g.F, V, s);
		cua_ep_bcast<T>(n, g.F, V, cua_ep_sub(), u, L2C_P(3), u, s);
		l2c_map(n, cua_ep_sigmoid(), u, t, s);
		cua_ep_binary<T>(n, cua_ep_mul(), t, u, t, s);
		cua_ep_reduce<T>(CUA_EP_MAX, t, y, g.N, g.F, V, s);
		return 0;
	}
};

/* L2/096: k3 s2 p1; · 0.5, max pool 2, global average pool, clamp(0, 1).
 * in: x, w, b. Output [N, F, 1, 1, 1]. */
struct l2d_t096 : l2d_base {
	static constexpr int n_in = 3;
	static constexpr struct l2d_conv conv = {true, 3, 2, 1, 0, true, 0};
	L2D_CHECK
	{
		CUA_CHECK(cua_pool3d_validate(l2d_pool_out(g, 2)));
		return l2c_expect(y, dt, {g.N, g.F, 1, 1, 1});
	}
	L2D_EPILOGUE
	{
		const struct cua_pool3d_desc p = l2d_pool_out(g, 2);
		T *t = sc.get<T>(g.N * g.F * L2D_PVOL(p));
		if (t == NULL)
			return sc.err;
		l2c_map(L2D_NFV(g), cua_ep_mul_s{0.5}, c, c, s);
		cua_maxpool3d<T, T, T>(c, t, p, s);
		cua_ep_reduce<T>(CUA_EP_MEAN, t, y, g.N * g.F, L2D_PVOL(p), 1, s);
		l2c_map(g.N * g.F, cua_ep_clamp{0.0, 1.0}, y, y, s);
		return 0;
	}
};

/* L2/100: k3 s2 p1; clamp(min = −1), / 2. in: x, w, b. */
struct l2d_t100 : l2d_base {
	static constexpr int n_in = 3;
	static constexpr struct l2d_conv conv = {true, 3, 2, 1, 0, true, 0};
	L2D_EPILOGUE
	{
		l2c_map(L2D_NFV(g), cua_ep_clamp{-1.0, INFINITY}, c, c, s);
		l2c_map(L2D_NFV(g), cua_ep_div_s{2.0}, c, y, s);
		return 0;
	}
};

#endif /* CUA_COMMON_EPILOGUE_CONV3D_CUH */
