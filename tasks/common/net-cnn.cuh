/* net-cnn.cuh — the modern CNNs of Level 3 over net.cuh's backends: GoogLeNet Inception,
 * DenseNet, SqueezeNet, MobileNet V1/V2, EfficientNet (MBConv), ShuffleNet, RegNet
 * (KernelBench L3 6, 7, 13–27). Header-only.
 *
 * Each network is `template <class B> int NAME(B &b, const struct cua_tensor *in, int n_in,
 * struct cua_tensor *out, int n_out, ...)` over in = {x, params}, out = {y}, shared by the
 * task's reference.cu (CUA_NET_ENTRY_POINTS: naive fp32 and fp64 oracle) and its library
 * baseline (baselines/cudnn/l3-NNN.cu on net-lib-cnn.cuh). Layers follow the KernelBench
 * v0.1 modules (KernelBench/level3/<N>_<Name>.py) op for op; weights are taken from `params`
 * in the task's layer-list order, which is PyTorch's state_dict() order. Where that order
 * differs from the order of computation (DenseNet registers all dense blocks before all
 * transitions), the network takes every pointer first and computes after.
 *
 * Ops added here (templates over the backend; net-lib-cnn.cuh overloads what cuDNN does):
 *     cua_cnn_conv2d      net.cuh's conv2d, except on the oracle a convolution with one
 *                         input channel per group (depthwise) runs one fp64 thread per
 *                         output (9 or 25 taps): the tiled implicit GEMM would spend a
 *                         64-filter tile on one filter
 *     cua_cnn_shuffle     ShuffleNet's channel shuffle: view [N, G, C/G, H, W], transpose
 *                         (1, 2), view back: y channel j·G + g = x channel g·(C/G) + j
 *     cua_cnn_sigmoid     1 / (1 + e^-x), in place
 *     cua_cnn_maxpool_ceil max_pool2d with ceil_mode=True (SqueezeNet): the last window may
 *                         hang over the edge (it must start inside x or its left padding) */
#ifndef CUA_COMMON_NET_CNN_CUH
#define CUA_COMMON_NET_CNN_CUH

#include "net-classic.cuh"

/* ---- ops ------------------------------------------------------------------------ */

template <class B>
static inline int cua_cnn_conv2d(B &b, const cua_act<typename B::T> &x, const float *w,
                                 const float *bias, const struct cua_conv_p &cp,
                                 cua_act<typename B::T> *y)
{
	return cua_net_conv2d(b, x, w, bias, cp, y);
}

static inline int cua_cnn_conv2d(cua_net_oracle &b, const cua_act<double> &x, const float *w,
                                 const float *bias, const struct cua_conv_p &cp,
                                 cua_act<double> *y)
{
	struct cua_conv_oracle_desc d;
	if (x.nd != 4 || cp.G < 2 || x.s[1] != cp.G)
		return cua_net_conv2d(b, x, w, bias, cp, y);
	if (!w)
		return CUA_CHECK_E_NULL;
	CUA_CHECK(cua_net_conv_desc(x, cp, &d));
	CUA_CHECK(cua_net_alloc4(b, d.N, d.F, d.OH, d.OW, y));
	net_conv2d_naive_kernel<double><<<cua_blocks_1d(y->numel(), CUA_NET_THREADS),
	                                  CUA_NET_THREADS, 0, b.stream>>>(x.p, w, bias, y->p, d);
	return cua_net_last_error();
}

template <typename T>
__global__ void cnn_shuffle_kernel(const T *__restrict__ x, T *__restrict__ y, int64_t N,
                                   int64_t C, int64_t HW, int64_t G)
{
	const int64_t total = N * C * HW, cpg = C / G;
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total;
	     i += (int64_t)gridDim.x * blockDim.x) {
		const int64_t hw = i % HW, t = i / HW, c = t % C, n = t / C;
		const int64_t src = (c % G) * cpg + c / G;
		y[i] = x[(n * C + src) * HW + hw];
	}
}

/* y = channel_shuffle(x, groups); x [N, C, H, W], groups divides C. */
template <class B>
static inline int cua_cnn_shuffle(B &b, const cua_act<typename B::T> &x, int64_t groups,
                                  cua_act<typename B::T> *y)
{
	if (x.nd != 4)
		return CUA_CHECK_E_NDIM;
	if (groups < 1 || x.s[1] % groups != 0)
		return CUA_CHECK_E_PARAM;
	CUA_CHECK(cua_net_alloc(b, 4, x.s, y));
	cnn_shuffle_kernel<typename B::T><<<cua_blocks_1d(y->numel(), CUA_NET_THREADS),
	                                    CUA_NET_THREADS, 0, b.stream>>>(
		x.p, y->p, x.s[0], x.s[1], x.hw(), groups);
	return cua_net_last_error();
}

template <typename T>
__global__ void cnn_sigmoid_kernel(T *__restrict__ a, int64_t n)
{
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		a[i] = (T)1 / ((T)1 + exp(-a[i]));
}

/* In place: a = sigmoid(a). */
template <class B>
static inline int cua_cnn_sigmoid(B &b, cua_act<typename B::T> *a)
{
	CUA_CHECK(cua_net_own(b, a));
	cnn_sigmoid_kernel<typename B::T><<<cua_blocks_1d(a->numel(), CUA_NET_THREADS),
	                                    CUA_NET_THREADS, 0, b.stream>>>(a->p, a->numel());
	return cua_net_last_error();
}

/* PyTorch's ceil-mode output extent: ceil((in + 2p - k) / s) + 1, less one when the
 * last window would start past the input and its left padding. */
static inline int64_t cua_cnn_ceil_out(int64_t in, int64_t k, int64_t s, int64_t p)
{
	const int64_t span = in + 2 * p - k;
	if (span < 0)
		return 0;
	int64_t o = (span + s - 1) / s + 1;
	if ((o - 1) * s >= in + p)
		o--;
	return o;
}

/* y = max_pool2d(x, k, s, p, ceil_mode=True); net.cuh's max kernel clips every window. */
template <class B>
static inline int cua_cnn_maxpool_ceil(B &b, const cua_act<typename B::T> &x, int64_t k,
                                       int64_t s, int64_t p, cua_act<typename B::T> *y)
{
	typedef typename B::T T;
	struct cua_pool2d_desc d;
	if (x.nd != 4)
		return CUA_CHECK_E_NDIM;
	if (k < 1 || s < 1 || p < 0 || 2 * p > k)
		return CUA_CHECK_E_PARAM;
	d.N = x.s[0], d.C = x.s[1], d.H = x.s[2], d.W = x.s[3];
	d.KH = d.KW = k;
	d.SH = d.SW = s;
	d.PH = d.PW = p;
	d.DH = d.DW = 1;
	d.count_include_pad = false;
	d.OH = cua_cnn_ceil_out(d.H, k, s, p);
	d.OW = cua_cnn_ceil_out(d.W, k, s, p);
	if (d.OH < 1 || d.OW < 1)
		return CUA_CHECK_E_SHAPE;
	CUA_CHECK(cua_net_alloc4(b, d.N, d.C, d.OH, d.OW, y));
	cua_maxpool2d<T, T, T>(x.p, y->p, d, b.stream);
	return cua_net_last_error();
}

/* ---- layer helpers (each replaces x; in-channel count from x) ----------------------- */

/* x -> conv(x) (+ bias) (the next segments of par); cua_cnn_conv2d's dispatch. */
template <class B>
static inline int cua_cnn_conv(B &b, struct cua_par *par, cua_act<typename B::T> *x,
                               const struct cua_conv_p &cp, bool has_bias)
{
	cua_act<typename B::T> y;
	if (x->nd != 4 || cp.G < 1 || x->s[1] % cp.G != 0)
		return CUA_CHECK_E_SHAPE;
	const float *w = cua_par_take(par, cp.F * (x->s[1] / cp.G) * cp.KH * cp.KW);
	const float *bias = has_bias ? cua_par_take(par, cp.F) : NULL;
	if (has_bias && !bias)
		return CUA_CHECK_E_SHAPE;
	CUA_CHECK(cua_cnn_conv2d(b, *x, w, bias, cp, &y));
	cua_net_free(b, x);
	*x = y;
	return 0;
}

/* conv (no bias) then BatchNorm then act: the conv/BN/act triple of most blocks here. */
template <class B>
static inline int cua_cnn_conv_bn(B &b, struct cua_par *par, cua_act<typename B::T> *x,
                                  const struct cua_conv_p &cp, int act)
{
	CUA_CHECK(cua_cnn_conv(b, par, x, cp, false));
	return cua_net_bn(b, par, x, act);
}

/* x -> a borrowed view of x: ops on it allocate (or copy) and never free x. */
template <typename T>
static inline cua_act<T> cnn_view(const cua_act<T> &x)
{
	cua_act<T> v = x;
	v.owned = false;
	return v;
}

template <class B>
static inline int cnn_replace(B &b, cua_act<typename B::T> *x, const cua_act<typename B::T> &y)
{
	cua_net_free(b, x);
	*x = y;
	return 0;
}

/* x -> cat(xs) along channels; the parts are freed. */
template <class B>
static inline int cnn_concat_free(B &b, cua_act<typename B::T> *xs, int n,
                                  cua_act<typename B::T> *y)
{
	CUA_CHECK(cua_net_concat(b, xs, n, y));
	for (int i = 0; i < n; i++)
		cua_net_free(b, &xs[i]);
	return 0;
}

/* adaptive average pool to 1x1 and flatten: [N, C, H, W] -> [N, C]. */
template <class B>
static inline int cnn_global_pool(B &b, cua_act<typename B::T> *x)
{
	cua_act<typename B::T> y;
	CUA_CHECK(cua_net_adaptive_avgpool2d(b, *x, 1, 1, &y));
	cnn_replace(b, x, y);
	cua_net_flatten(x);
	return 0;
}

/* ---- GoogLeNet Inception (L3/6, 7) ---------------------------------------------- */

struct cua_cnn_incep {
	int64_t c1, r3, c3, r5, c5, pp;   /* out_1x1, reduce_3x3, out_3x3, reduce_5x5, out_5x5, pool_proj */
};

/* cat(branch1x1(x), branch3x3(x), branch5x5(x), branch_pool(x)): 1x1; 1x1 then 3x3 pad 1;
 * 1x1 then 5x5 pad 2; max-pool 3/1/1 then 1x1; every conv with bias, no activation
 * (KernelBench's module has none). Segments: branch1x1, branch3x3.0, branch3x3.1,
 * branch5x5.0, branch5x5.1, branch_pool.1. Replaces x. */
template <class B>
static int cua_cnn_inception(B &b, struct cua_par *par, cua_act<typename B::T> *x,
                             const struct cua_cnn_incep &m)
{
	cua_act<typename B::T> br[4], y;
	memset(br, 0, sizeof(br));
	br[0] = cnn_view(*x);
	CUA_CHECK(cua_cnn_conv(b, par, &br[0], cua_conv(m.c1, 1), true));
	br[1] = cnn_view(*x);
	CUA_CHECK(cua_cnn_conv(b, par, &br[1], cua_conv(m.r3, 1), true));
	CUA_CHECK(cua_cnn_conv(b, par, &br[1], cua_conv(m.c3, 3, 1, 1), true));
	br[2] = cnn_view(*x);
	CUA_CHECK(cua_cnn_conv(b, par, &br[2], cua_conv(m.r5, 1), true));
	CUA_CHECK(cua_cnn_conv(b, par, &br[2], cua_conv(m.c5, 5, 1, 2), true));
	CUA_CHECK(cua_net_maxpool2d(b, *x, 3, 1, 1, &br[3]));
	CUA_CHECK(cua_cnn_conv(b, par, &br[3], cua_conv(m.pp, 1), true));
	CUA_CHECK(cnn_concat_free(b, br, 4, &y));
	return cnn_replace(b, x, y);
}

/* L3/6: one Inception module, x [B, Cin, H, W] -> [B, c1 + c3 + c5 + pp, H, W]. */
template <class B>
static int cua_cnn_inception_module(B &b, const struct cua_tensor *in, int n_in,
                                    struct cua_tensor *out, int n_out, int64_t cin,
                                    const struct cua_cnn_incep &m)
{
	struct cua_par par;
	cua_act<typename B::T> x;
	CUA_CHECK(cua_net_begin(b, in, n_in, out, n_out, 4, &par, &x));
	CUA_CHECK(cua_check_dim(&in[0], 1, cin));
	CUA_CHECK(cua_cnn_inception(b, &par, &x, m));
	return cua_net_end(b, &par, x, out);
}

/* L3/7: conv1 7x7/2 pad 3 relu, maxpool 3/2/1, conv2 1x1 relu, conv3 3x3 pad 1 relu,
 * maxpool 3/2/1, 3a 3b, maxpool, 4a..4e, maxpool, 5a 5b, adaptive avg 1x1, fc 1024 -> classes. */
template <class B>
static int cua_cnn_googlenet(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                             int n_out, int64_t classes)
{
	static const struct cua_cnn_incep m[9] = {
		{64, 96, 128, 16, 32, 32},    {128, 128, 192, 32, 96, 64},
		{192, 96, 208, 16, 48, 64},   {160, 112, 224, 24, 64, 64},
		{128, 128, 256, 24, 64, 64},  {112, 144, 288, 32, 64, 64},
		{256, 160, 320, 32, 128, 128}, {256, 160, 320, 32, 128, 128},
		{384, 192, 384, 48, 128, 128},
	};
	struct cua_par par;
	cua_act<typename B::T> x;
	CUA_CHECK(cua_net_begin(b, in, n_in, out, n_out, 4, &par, &x));
	CUA_CHECK(cua_check_dim(&in[0], 1, 3));
	CUA_CHECK(cua_cnn_conv(b, &par, &x, cua_conv(64, 7, 2, 3), true));
	CUA_CHECK(cua_net_relu(b, &x));
	CUA_CHECK(cua_net_pool_max(b, &x, 3, 2, 1));
	CUA_CHECK(cua_cnn_conv(b, &par, &x, cua_conv(64, 1), true));
	CUA_CHECK(cua_net_relu(b, &x));
	CUA_CHECK(cua_cnn_conv(b, &par, &x, cua_conv(192, 3, 1, 1), true));
	CUA_CHECK(cua_net_relu(b, &x));
	CUA_CHECK(cua_net_pool_max(b, &x, 3, 2, 1));
	for (int i = 0; i < 9; i++) {
		if (i == 2 || i == 7)
			CUA_CHECK(cua_net_pool_max(b, &x, 3, 2, 1));
		CUA_CHECK(cua_cnn_inception(b, &par, &x, m[i]));
	}
	CUA_CHECK(cnn_global_pool(b, &x));
	CUA_CHECK(cua_net_dropout(b, &x, 0.0));
	CUA_CHECK(cua_net_fc(b, &par, &x, classes, false));
	return cua_net_end(b, &par, x, out);
}

/* ---- DenseNet (L3/13-16) --------------------------------------------------------- */

/* Transition: BatchNorm, ReLU, conv 1x1 (no bias) to cout, avg-pool 2/2. w_* from the caller. */
template <class B>
static int cua_cnn_transition(B &b, cua_act<typename B::T> *x, const float *gamma,
                              const float *beta, const float *w, int64_t cout)
{
	cua_act<typename B::T> y;
	CUA_CHECK(cua_net_batchnorm(b, x, gamma, beta, CUA_NET_RELU));
	CUA_CHECK(cua_cnn_conv2d(b, *x, w, NULL, cua_conv(cout, 1), &y));
	cnn_replace(b, x, y);
	CUA_CHECK(cua_net_avgpool2d(b, *x, 2, 2, 0, &y));
	return cnn_replace(b, x, y);
}

/* One dense layer's weights: BatchNorm gamma, beta, then the 3x3 conv. */
struct cua_cnn_dense_w {
	const float *gamma, *beta, *w;
};

/* Takes layer l's BatchNorm and conv (cin → growth) of a dense block from par. */
static inline int cua_cnn_take_dense(struct cua_par *par, int64_t cin, int64_t growth,
                                     struct cua_cnn_dense_w *l)
{
	l->gamma = cua_par_take(par, cin);
	l->beta = cua_par_take(par, cin);
	l->w = cua_par_take(par, growth * cin * 9);
	return l->w ? 0 : CUA_CHECK_E_SHAPE;
}

/* Dense block: for each layer, new = conv3x3(relu(bn(x))) (growth channels, pad 1, no bias;
 * dropout p = 0) and x = cat(x, new): cat(features) of KernelBench, whose x is always the
 * concatenation of every feature so far. Replaces x. */
template <class B>
static int cua_cnn_dense_block(B &b, cua_act<typename B::T> *x, const struct cua_cnn_dense_w *l,
                               int n, int64_t growth)
{
	for (int i = 0; i < n; i++) {
		cua_act<typename B::T> parts[2], h = cnn_view(*x), y;
		CUA_CHECK(cua_net_batchnorm(b, &h, l[i].gamma, l[i].beta, CUA_NET_RELU));
		CUA_CHECK(cua_cnn_conv2d(b, h, l[i].w, NULL, cua_conv(growth, 3, 1, 1), &parts[1]));
		cua_net_free(b, &h);
		parts[0] = *x;
		CUA_CHECK(cua_net_concat(b, parts, 2, &y));
		cua_net_free(b, &parts[1]);
		cnn_replace(b, x, y);
	}
	return 0;
}

/* L3/13: the transition layer alone: BatchNorm (transition.0), ReLU, conv 1x1 (transition.2), avg 2/2. */
template <class B>
static int cua_cnn_densenet_transition(B &b, const struct cua_tensor *in, int n_in,
                                       struct cua_tensor *out, int n_out, int64_t cin,
                                       int64_t cout)
{
	struct cua_par par;
	cua_act<typename B::T> x;
	CUA_CHECK(cua_net_begin(b, in, n_in, out, n_out, 4, &par, &x));
	CUA_CHECK(cua_check_dim(&in[0], 1, cin));
	const float *g = cua_par_take(&par, cin), *be = cua_par_take(&par, cin);
	const float *w = cua_par_take(&par, cout * cin);
	CUA_CHECK(cua_cnn_transition(b, &x, g, be, w, cout));
	return cua_net_end(b, &par, x, out);
}

#define CUA_CNN_MAX_DENSE 64

/* L3/14: one dense block of n layers (layers.{i}.0 BatchNorm, layers.{i}.2 conv). */
template <class B>
static int cua_cnn_densenet_block(B &b, const struct cua_tensor *in, int n_in,
                                  struct cua_tensor *out, int n_out, int n, int64_t cin,
                                  int64_t growth)
{
	struct cua_par par;
	struct cua_cnn_dense_w l[CUA_CNN_MAX_DENSE];
	cua_act<typename B::T> x;
	if (n > CUA_CNN_MAX_DENSE)
		return CUA_CHECK_E_COUNT;
	CUA_CHECK(cua_net_begin(b, in, n_in, out, n_out, 4, &par, &x));
	CUA_CHECK(cua_check_dim(&in[0], 1, cin));
	for (int i = 0; i < n; i++)
		CUA_CHECK(cua_cnn_take_dense(&par, cin + i * growth, growth, &l[i]));
	CUA_CHECK(cua_cnn_dense_block(b, &x, l, n, growth));
	return cua_net_end(b, &par, x, out);
}

/* L3/15, 16: features (conv 7x7/2 pad 3 no bias, bn, relu, maxpool 3/2/1), four dense
 * blocks of blocks[i] layers (growth 32) with a transition halving the channels after
 * each but the last, final BatchNorm, ReLU, adaptive avg 1x1, classifier. The layout
 * holds features, then every dense block (dense_blocks.{i}), then every transition
 * (transition_layers.{i}), final_bn, classifier (registration order), so every pointer
 * is taken before the network runs. */
template <class B>
static int cua_cnn_densenet(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                            int n_out, const int *blocks, int64_t classes)
{
	const int64_t growth = 32;
	struct cua_par par;
	struct cua_cnn_dense_w l[4][CUA_CNN_MAX_DENSE];
	const float *tg[3], *tb[3], *tw[3];
	int64_t cin[4], tc[3];
	cua_act<typename B::T> x;
	CUA_CHECK(cua_net_begin(b, in, n_in, out, n_out, 4, &par, &x));
	CUA_CHECK(cua_check_dim(&in[0], 1, 3));
	const float *w0 = cua_par_take(&par, 64 * 3 * 49);
	const float *g0 = cua_par_take(&par, 64), *b0 = cua_par_take(&par, 64);
	int64_t c = 64;
	for (int k = 0; k < 4; k++) {
		if (blocks[k] > CUA_CNN_MAX_DENSE)
			return CUA_CHECK_E_COUNT;
		cin[k] = c;
		for (int i = 0; i < blocks[k]; i++)
			CUA_CHECK(cua_cnn_take_dense(&par, c + i * growth, growth, &l[k][i]));
		c += blocks[k] * growth;
		if (k < 3) {
			tc[k] = c;
			c /= 2;
		}
	}
	for (int k = 0; k < 3; k++) {
		tg[k] = cua_par_take(&par, tc[k]);
		tb[k] = cua_par_take(&par, tc[k]);
		tw[k] = cua_par_take(&par, tc[k] / 2 * tc[k]);
	}
	const float *fg = cua_par_take(&par, c), *fb = cua_par_take(&par, c);
	cua_act<typename B::T> y;
	CUA_CHECK(cua_cnn_conv2d(b, x, w0, NULL, cua_conv(64, 7, 2, 3), &y));
	cnn_replace(b, &x, y);
	CUA_CHECK(cua_net_batchnorm(b, &x, g0, b0, CUA_NET_RELU));
	CUA_CHECK(cua_net_pool_max(b, &x, 3, 2, 1));
	for (int k = 0; k < 4; k++) {
		if (x.s[1] != cin[k])
			return CUA_CHECK_E_SHAPE;
		CUA_CHECK(cua_cnn_dense_block(b, &x, l[k], blocks[k], growth));
		if (k < 3)
			CUA_CHECK(cua_cnn_transition(b, &x, tg[k], tb[k], tw[k], tc[k] / 2));
	}
	CUA_CHECK(cua_net_batchnorm(b, &x, fg, fb, CUA_NET_RELU));
	CUA_CHECK(cnn_global_pool(b, &x));
	CUA_CHECK(cua_net_fc(b, &par, &x, classes, false));
	return cua_net_end(b, &par, x, out);
}

/* ---- SqueezeNet (L3/17, 18) ------------------------------------------------------ */

/* Fire: s = relu(squeeze 1x1(x)); cat(relu(expand1x1(s)), relu(expand3x3 pad 1(s))); biases. */
template <class B>
static int cua_cnn_fire(B &b, struct cua_par *par, cua_act<typename B::T> *x, int64_t sq,
                        int64_t e1, int64_t e3)
{
	cua_act<typename B::T> br[2], y;
	CUA_CHECK(cua_cnn_conv(b, par, x, cua_conv(sq, 1), true));
	CUA_CHECK(cua_net_relu(b, x));
	br[0] = cnn_view(*x);
	CUA_CHECK(cua_cnn_conv(b, par, &br[0], cua_conv(e1, 1), true));
	CUA_CHECK(cua_net_relu(b, &br[0]));
	br[1] = cnn_view(*x);
	CUA_CHECK(cua_cnn_conv(b, par, &br[1], cua_conv(e3, 3, 1, 1), true));
	CUA_CHECK(cua_net_relu(b, &br[1]));
	CUA_CHECK(cnn_concat_free(b, br, 2, &y));
	return cnn_replace(b, x, y);
}

/* L3/17: one Fire module. */
template <class B>
static int cua_cnn_fire_module(B &b, const struct cua_tensor *in, int n_in,
                               struct cua_tensor *out, int n_out, int64_t cin, int64_t sq,
                               int64_t e1, int64_t e3)
{
	struct cua_par par;
	cua_act<typename B::T> x;
	CUA_CHECK(cua_net_begin(b, in, n_in, out, n_out, 4, &par, &x));
	CUA_CHECK(cua_check_dim(&in[0], 1, cin));
	CUA_CHECK(cua_cnn_fire(b, &par, &x, sq, e1, e3));
	return cua_net_end(b, &par, x, out);
}

template <class B>
static inline int cnn_pool_ceil(B &b, cua_act<typename B::T> *x, int64_t k, int64_t s)
{
	cua_act<typename B::T> y;
	CUA_CHECK(cua_cnn_maxpool_ceil(b, *x, k, s, 0, &y));
	return cnn_replace(b, x, y);
}

/* L3/18: conv 7x7/2 (96, bias) relu, maxpool 3/2 ceil, fire ×3, maxpool, fire ×4, maxpool,
 * fire; classifier: (dropout 0) conv 1x1 512 -> classes, relu, adaptive avg 1x1, flatten. */
template <class B>
static int cua_cnn_squeezenet(B &b, const struct cua_tensor *in, int n_in,
                              struct cua_tensor *out, int n_out, int64_t classes)
{
	static const int64_t f[8][3] = {{16, 64, 64},   {16, 64, 64},   {32, 128, 128},
	                                {32, 128, 128}, {48, 192, 192}, {48, 192, 192},
	                                {64, 256, 256}, {64, 256, 256}};
	struct cua_par par;
	cua_act<typename B::T> x;
	CUA_CHECK(cua_net_begin(b, in, n_in, out, n_out, 4, &par, &x));
	CUA_CHECK(cua_check_dim(&in[0], 1, 3));
	CUA_CHECK(cua_cnn_conv(b, &par, &x, cua_conv(96, 7, 2), true));
	CUA_CHECK(cua_net_relu(b, &x));
	CUA_CHECK(cnn_pool_ceil(b, &x, 3, 2));
	for (int i = 0; i < 8; i++) {
		if (i == 3 || i == 7)
			CUA_CHECK(cnn_pool_ceil(b, &x, 3, 2));
		CUA_CHECK(cua_cnn_fire(b, &par, &x, f[i][0], f[i][1], f[i][2]));
	}
	CUA_CHECK(cua_net_dropout(b, &x, 0.0));
	CUA_CHECK(cua_cnn_conv(b, &par, &x, cua_conv(classes, 1), true));
	CUA_CHECK(cua_net_relu(b, &x));
	CUA_CHECK(cnn_global_pool(b, &x));
	return cua_net_end(b, &par, x, out);
}

/* ---- MobileNet V1 / V2 (L3/19, 20) ----------------------------------------------- */

/* L3/19: conv_bn(3 -> 32, stride 2), 13 conv_dw (depthwise 3x3 pad 1 + bn + relu, then
 * pointwise 1x1 + bn + relu), avg-pool 7 (stride 7), view, fc 1024 -> classes. */
template <class B>
static int cua_cnn_mobilenet_v1(B &b, const struct cua_tensor *in, int n_in,
                                struct cua_tensor *out, int n_out, int64_t classes)
{
	static const int64_t dw[13][2] = {{64, 1},  {128, 2}, {128, 1}, {256, 2}, {256, 1},
	                                  {512, 2}, {512, 1}, {512, 1}, {512, 1}, {512, 1},
	                                  {512, 1}, {1024, 2}, {1024, 1}};
	struct cua_par par;
	cua_act<typename B::T> x, y;
	CUA_CHECK(cua_net_begin(b, in, n_in, out, n_out, 4, &par, &x));
	CUA_CHECK(cua_check_dim(&in[0], 1, 3));
	CUA_CHECK(cua_cnn_conv_bn(b, &par, &x, cua_conv(32, 3, 2, 1), CUA_NET_RELU));
	for (int i = 0; i < 13; i++) {
		const int64_t c = x.s[1];
		CUA_CHECK(cua_cnn_conv_bn(b, &par, &x, cua_conv(c, 3, dw[i][1], 1, 1, c), CUA_NET_RELU));
		CUA_CHECK(cua_cnn_conv_bn(b, &par, &x, cua_conv(dw[i][0], 1), CUA_NET_RELU));
	}
	CUA_CHECK(cua_net_avgpool2d(b, x, 7, 7, 0, &y));
	cnn_replace(b, &x, y);
	if (x.s[2] != 1 || x.s[3] != 1)
		return CUA_CHECK_E_SHAPE;    /* view(B, -1) must give fc's 1024 */
	cua_net_flatten(&x);
	CUA_CHECK(cua_net_fc(b, &par, &x, classes, false));
	return cua_net_end(b, &par, x, out);
}

/* MBConv / inverted residual without the residual: [expand 1x1 + bn + act] (when
 * hidden != cin), depthwise k×k stride s pad (k-1)/2 + bn + act, project 1x1 + bn. */
template <class B>
static int cua_cnn_inverted(B &b, struct cua_par *par, cua_act<typename B::T> *x,
                            int64_t hidden, int64_t cout, int64_t k, int64_t s, bool expand,
                            int act)
{
	if (expand)
		CUA_CHECK(cua_cnn_conv_bn(b, par, x, cua_conv(hidden, 1), act));
	if (x->s[1] != hidden)
		return CUA_CHECK_E_SHAPE;
	CUA_CHECK(cua_cnn_conv_bn(b, par, x, cua_conv(hidden, k, s, (k - 1) / 2, 1, hidden), act));
	return cua_cnn_conv_bn(b, par, x, cua_conv(cout, 1), CUA_NET_NONE);
}

/* L3/20: conv 3x3/2 (32) bn relu6; 17 inverted-residual blocks (t, c, n, s) of the
 * standard table, KernelBench's module dropping every residual connection (it appends
 * only the block's Sequential); conv 1x1 320 -> 1280 bn relu6; adaptive avg; fc. */
template <class B>
static int cua_cnn_mobilenet_v2(B &b, const struct cua_tensor *in, int n_in,
                                struct cua_tensor *out, int n_out, int64_t classes)
{
	static const int64_t set[7][4] = {{1, 16, 1, 1},  {6, 24, 2, 2},  {6, 32, 3, 2},
	                                  {6, 64, 4, 2},  {6, 96, 3, 1},  {6, 160, 3, 2},
	                                  {6, 320, 1, 1}};
	struct cua_par par;
	cua_act<typename B::T> x;
	CUA_CHECK(cua_net_begin(b, in, n_in, out, n_out, 4, &par, &x));
	CUA_CHECK(cua_check_dim(&in[0], 1, 3));
	CUA_CHECK(cua_cnn_conv_bn(b, &par, &x, cua_conv(32, 3, 2, 1), CUA_NET_RELU6));
	for (int g = 0; g < 7; g++)
		for (int i = 0; i < set[g][2]; i++) {
			const int64_t cin = x.s[1], hidden = cin * set[g][0];
			CUA_CHECK(cua_cnn_inverted(b, &par, &x, hidden, set[g][1], 3,
			                           i == 0 ? set[g][3] : 1, set[g][0] != 1, CUA_NET_RELU6));
		}
	CUA_CHECK(cua_cnn_conv_bn(b, &par, &x, cua_conv(1280, 1), CUA_NET_RELU6));
	CUA_CHECK(cnn_global_pool(b, &x));
	CUA_CHECK(cua_net_dropout(b, &x, 0.0));
	CUA_CHECK(cua_net_fc(b, &par, &x, classes, false));
	return cua_net_end(b, &par, x, out);
}

/* ---- EfficientNet (L3/21-24) ------------------------------------------------------ */

/* KernelBench's MBConv (L3/21, 22): inverted block with ReLU6, the expansion only when
 * ratio != 1, x + block(x) when stride 1 and cin == cout. Replaces x. */
template <class B>
static int cua_cnn_mbconv(B &b, struct cua_par *par, cua_act<typename B::T> *x, int64_t cout,
                          int64_t k, int64_t s, int64_t ratio)
{
	const int64_t cin = x->s[1];
	cua_act<typename B::T> h = cnn_view(*x);
	CUA_CHECK(cua_cnn_inverted(b, par, &h, cin * ratio, cout, k, s, ratio != 1, CUA_NET_RELU6));
	if (s == 1 && cin == cout)
		CUA_CHECK(cua_net_add(b, &h, *x));
	return cnn_replace(b, x, h);
}

/* L3/21: one MBConv block. */
template <class B>
static int cua_cnn_mbconv_block(B &b, const struct cua_tensor *in, int n_in,
                                struct cua_tensor *out, int n_out, int64_t cin, int64_t cout,
                                int64_t k, int64_t s, int64_t ratio)
{
	struct cua_par par;
	cua_act<typename B::T> x;
	CUA_CHECK(cua_net_begin(b, in, n_in, out, n_out, 4, &par, &x));
	CUA_CHECK(cua_check_dim(&in[0], 1, cin));
	CUA_CHECK(cua_cnn_mbconv(b, &par, &x, cout, k, s, ratio));
	return cua_net_end(b, &par, x, out);
}

/* The stem and head every EfficientNet here shares: conv1 3x3/2 (32, no bias) bn1 relu
 * before the blocks; conv 1x1 (head, no bias) bn relu, adaptive avg, fc after. */
template <class B>
static int cnn_effnet_stem(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                           int n_out, struct cua_par *par, cua_act<typename B::T> *x)
{
	CUA_CHECK(cua_net_begin(b, in, n_in, out, n_out, 4, par, x));
	CUA_CHECK(cua_check_dim(&in[0], 1, 3));
	return cua_cnn_conv_bn(b, par, x, cua_conv(32, 3, 2, 1), CUA_NET_RELU);
}

template <class B>
static int cnn_effnet_head(B &b, struct cua_par *par, cua_act<typename B::T> *x, int64_t head,
                           int64_t classes, struct cua_tensor *out)
{
	CUA_CHECK(cua_cnn_conv_bn(b, par, x, cua_conv(head, 1), CUA_NET_RELU));
	CUA_CHECK(cnn_global_pool(b, x));
	CUA_CHECK(cua_net_fc(b, par, x, classes, false));
	return cua_net_end(b, par, *x, out);
}

/* L3/22: 13 MBConv blocks (cout, k, s, ratio), head 320 -> 1280. */
template <class B>
static int cua_cnn_effnet_b0(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                             int n_out, int64_t classes)
{
	static const int64_t blk[13][4] = {
		{16, 3, 1, 1},  {24, 3, 2, 6},  {24, 3, 1, 6},  {40, 5, 2, 6},  {40, 5, 1, 6},
		{80, 3, 2, 6},  {80, 3, 1, 6},  {112, 5, 1, 6}, {112, 5, 1, 6}, {192, 5, 2, 6},
		{192, 5, 1, 6}, {192, 5, 1, 6}, {320, 3, 1, 6}};
	struct cua_par par;
	cua_act<typename B::T> x;
	CUA_CHECK(cnn_effnet_stem(b, in, n_in, out, n_out, &par, &x));
	for (int i = 0; i < 13; i++)
		CUA_CHECK(cua_cnn_mbconv(b, &par, &x, blk[i][0], blk[i][1], blk[i][2], blk[i][3]));
	return cnn_effnet_head(b, &par, &x, 1280, classes, out);
}

/* L3/23: seven blocks, each expand 1x1 (always, hidden = round(cin·ratio)) bn relu6,
 * depthwise 3x3 stride s bn relu6, project bn; no residuals; head 320 -> 1280. */
template <class B>
static int cua_cnn_effnet_b1(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                             int n_out, int64_t classes)
{
	static const int64_t blk[7][3] = {{16, 1, 1},  {24, 2, 6},  {40, 2, 6}, {80, 2, 6},
	                                  {112, 1, 6}, {192, 2, 6}, {320, 1, 6}};
	struct cua_par par;
	cua_act<typename B::T> x;
	CUA_CHECK(cnn_effnet_stem(b, in, n_in, out, n_out, &par, &x));
	for (int i = 0; i < 7; i++)
		CUA_CHECK(cua_cnn_inverted(b, &par, &x, x.s[1] * blk[i][2], blk[i][0], 3, blk[i][1],
		                           true, CUA_NET_RELU6));
	return cnn_effnet_head(b, &par, &x, 1280, classes, out);
}

/* L3/24 block: expand 1x1 bn relu, depthwise 3x3 stride s bn relu, adaptive avg to 1x1,
 * conv 1x1 e -> e/4 relu, conv 1x1 e/4 -> e sigmoid, conv 1x1 e -> cout bn (all without
 * bias). KernelBench's Sequential applies the squeeze-excitation convs to the pooled map
 * itself (no multiply back), so every map after the first block is 1x1. */
template <class B>
static int cnn_effnet_b2_block(B &b, struct cua_par *par, cua_act<typename B::T> *x,
                               int64_t cout, int64_t s, int64_t ratio)
{
	const int64_t e = x->s[1] * ratio;
	CUA_CHECK(cua_cnn_conv_bn(b, par, x, cua_conv(e, 1), CUA_NET_RELU));
	CUA_CHECK(cua_cnn_conv_bn(b, par, x, cua_conv(e, 3, s, 1, 1, e), CUA_NET_RELU));
	cua_act<typename B::T> y;
	CUA_CHECK(cua_net_adaptive_avgpool2d(b, *x, 1, 1, &y));
	cnn_replace(b, x, y);
	CUA_CHECK(cua_cnn_conv(b, par, x, cua_conv(e / 4, 1), false));
	CUA_CHECK(cua_net_relu(b, x));
	CUA_CHECK(cua_cnn_conv(b, par, x, cua_conv(e, 1), false));
	CUA_CHECK(cua_cnn_sigmoid(b, x));
	return cua_cnn_conv_bn(b, par, x, cua_conv(cout, 1), CUA_NET_NONE);
}

/* L3/24: five blocks (cout, s, ratio), head 384 -> 1408. */
template <class B>
static int cua_cnn_effnet_b2(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                             int n_out, int64_t classes)
{
	static const int64_t blk[5][3] = {{96, 1, 3}, {144, 2, 6}, {192, 2, 6}, {288, 2, 6},
	                                  {384, 1, 6}};
	struct cua_par par;
	cua_act<typename B::T> x;
	CUA_CHECK(cnn_effnet_stem(b, in, n_in, out, n_out, &par, &x));
	for (int i = 0; i < 5; i++)
		CUA_CHECK(cnn_effnet_b2_block(b, &par, &x, blk[i][0], blk[i][1], blk[i][2]));
	return cnn_effnet_head(b, &par, &x, 1408, classes, out);
}

/* ---- ShuffleNet (L3/25, 26) ------------------------------------------------------ */

/* Unit: out = relu(bn1(gconv1 1x1 (cin -> cout/4, groups))); bn2(dwconv 3x3 pad 1);
 * channel shuffle (groups); relu(bn3(gconv3 1x1 (-> cout, groups))); + shortcut(x), the
 * shortcut a 1x1 conv + bn when cin != cout, else x. No biases; stride 1 throughout. */
template <class B>
static int cua_cnn_shuffle_unit(B &b, struct cua_par *par, cua_act<typename B::T> *x,
                                int64_t cout, int64_t groups)
{
	const int64_t mid = cout / 4, cin = x->s[1];
	cua_act<typename B::T> h = cnn_view(*x), y;
	CUA_CHECK(cua_cnn_conv_bn(b, par, &h, cua_conv(mid, 1, 1, 0, 1, groups), CUA_NET_RELU));
	CUA_CHECK(cua_cnn_conv_bn(b, par, &h, cua_conv(mid, 3, 1, 1, 1, mid), CUA_NET_NONE));
	CUA_CHECK(cua_cnn_shuffle(b, h, groups, &y));
	cnn_replace(b, &h, y);
	CUA_CHECK(cua_cnn_conv_bn(b, par, &h, cua_conv(cout, 1, 1, 0, 1, groups), CUA_NET_RELU));
	if (cin != cout) {
		cua_act<typename B::T> sc = cnn_view(*x);
		CUA_CHECK(cua_cnn_conv_bn(b, par, &sc, cua_conv(cout, 1), CUA_NET_NONE));
		CUA_CHECK(cua_net_add(b, &h, sc));
		cua_net_free(b, &sc);
	} else {
		CUA_CHECK(cua_net_add(b, &h, *x));
	}
	return cnn_replace(b, x, h);
}

/* L3/25: one unit. */
template <class B>
static int cua_cnn_shufflenet_unit(B &b, const struct cua_tensor *in, int n_in,
                                   struct cua_tensor *out, int n_out, int64_t cin, int64_t cout,
                                   int64_t groups)
{
	struct cua_par par;
	cua_act<typename B::T> x;
	CUA_CHECK(cua_net_begin(b, in, n_in, out, n_out, 4, &par, &x));
	CUA_CHECK(cua_check_dim(&in[0], 1, cin));
	CUA_CHECK(cua_cnn_shuffle_unit(b, &par, &x, cout, groups));
	return cua_net_end(b, &par, x, out);
}

/* L3/26: conv1 3x3/2 (24) bn relu, maxpool 3/2/1, stages of 3, 7, 3 units at 240, 480,
 * 960 channels (groups 3), conv5 1x1 960 -> 1024 bn relu, adaptive avg, fc. */
template <class B>
static int cua_cnn_shufflenet(B &b, const struct cua_tensor *in, int n_in,
                              struct cua_tensor *out, int n_out, int64_t classes)
{
	static const int reps[3] = {3, 7, 3};
	static const int64_t ch[3] = {240, 480, 960};
	struct cua_par par;
	cua_act<typename B::T> x;
	CUA_CHECK(cua_net_begin(b, in, n_in, out, n_out, 4, &par, &x));
	CUA_CHECK(cua_check_dim(&in[0], 1, 3));
	CUA_CHECK(cua_cnn_conv_bn(b, &par, &x, cua_conv(24, 3, 2, 1), CUA_NET_RELU));
	CUA_CHECK(cua_net_pool_max(b, &x, 3, 2, 1));
	for (int st = 0; st < 3; st++)
		for (int i = 0; i < reps[st]; i++)
			CUA_CHECK(cua_cnn_shuffle_unit(b, &par, &x, ch[st], 3));
	CUA_CHECK(cua_cnn_conv_bn(b, &par, &x, cua_conv(1024, 1), CUA_NET_RELU));
	CUA_CHECK(cnn_global_pool(b, &x));
	CUA_CHECK(cua_net_fc(b, &par, &x, classes, false));
	return cua_net_end(b, &par, x, out);
}

/* ---- RegNet (L3/27) -------------------------------------------------------------- */

/* stages × (conv 3x3 pad 1 (bias) bn relu, conv 3x3 pad 1 (bias) bn relu, maxpool 2/2),
 * mean over H, W, fc. */
template <class B>
static int cua_cnn_regnet(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, const int64_t *widths, int stages, int64_t classes)
{
	struct cua_par par;
	cua_act<typename B::T> x;
	CUA_CHECK(cua_net_begin(b, in, n_in, out, n_out, 4, &par, &x));
	CUA_CHECK(cua_check_dim(&in[0], 1, 3));
	for (int i = 0; i < stages; i++) {
		for (int j = 0; j < 2; j++) {
			CUA_CHECK(cua_cnn_conv(b, &par, &x, cua_conv(widths[i], 3, 1, 1), true));
			CUA_CHECK(cua_net_bn(b, &par, &x, CUA_NET_RELU));
		}
		CUA_CHECK(cua_net_pool_max(b, &x, 2, 2, 0));
	}
	CUA_CHECK(cnn_global_pool(b, &x));
	CUA_CHECK(cua_net_fc(b, &par, &x, classes, false));
	return cua_net_end(b, &par, x, out);
}

#endif /* CUA_COMMON_NET_CNN_CUH */
