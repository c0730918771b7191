/* net-classic.cuh — the classic Level 3 networks over net.cuh's backends: MLPs,
 * LeNet-5, AlexNet, VGG, ResNet (basic block, ResNet18, ResNet101). Header-only.
 *
 * Each network is `template <class B> int NAME(B &b, const struct cua_tensor *in,
 * int n_in, struct cua_tensor *out, int n_out)` over in = {x, params}, out = {y},
 * shared by the task's reference.cu (cua_solve on cua_net_naive, cua_oracle on
 * cua_net_oracle: CUA_NET_ENTRY_POINTS) and its library baseline
 * (baselines/cudnn/l3-NNN.cu or baselines/cublas/l3-NNN.cu: cua_net_lib). The
 * weights are taken from `params` with the params.cuh cursor in exactly the
 * order of the task's layer list (PyTorch state_dict() order); a mismatch ends
 * in a non-zero return, never a misread. Layers follow the KernelBench v0.1
 * modules (KernelBench/level3/<N>_<Name>.py) op for op. */
#ifndef CUA_COMMON_NET_CLASSIC_CUH
#define CUA_COMMON_NET_CLASSIC_CUH

#include "net.cuh"

/* x -> act(x·wᵀ + b) with the next weight and bias of par; replaces x. */
template <class B>
static inline int cua_net_fc(B &b, struct cua_par *par, cua_act<typename B::T> *x, int64_t out,
                             bool relu)
{
	cua_act<typename B::T> y;
	const float *w = cua_par_take(par, out * x->s[1]);
	const float *bias = cua_par_take(par, out);
	CUA_CHECK(cua_net_linear(b, *x, w, bias, out, &y));
	cua_net_free(b, x);
	*x = y;
	return relu ? cua_net_relu(b, x) : 0;
}

/* x -> conv(x) (+ bias when has_bias); replaces x. in = x's channels. */
template <class B>
static inline int cua_net_conv(B &b, struct cua_par *par, cua_act<typename B::T> *x,
                               const struct cua_conv_p &cp, bool has_bias)
{
	cua_act<typename B::T> y;
	if (x->nd != 4 || cp.G < 1)
		return CUA_CHECK_E_NDIM;
	const float *w = cua_par_take(par, cp.F * (x->s[1] / cp.G) * cp.KH * cp.KW);
	const float *bias = has_bias ? cua_par_take(par, cp.F) : NULL;
	if (has_bias && !bias)
		return CUA_CHECK_E_SHAPE;
	CUA_CHECK(cua_net_conv2d(b, *x, w, bias, cp, &y));
	cua_net_free(b, x);
	*x = y;
	return 0;
}

/* BatchNorm (batch statistics) with the next weight and bias of par, then act; in place. */
template <class B>
static inline int cua_net_bn(B &b, struct cua_par *par, cua_act<typename B::T> *x, int act)
{
	const float *g = cua_par_take(par, x->s[1]);
	const float *beta = cua_par_take(par, x->s[1]);
	return cua_net_batchnorm(b, x, g, beta, act);
}

template <class B>
static inline int cua_net_pool_max(B &b, cua_act<typename B::T> *x, int64_t k, int64_t s,
                                   int64_t p)
{
	cua_act<typename B::T> y;
	CUA_CHECK(cua_net_maxpool2d(b, *x, k, s, p, &y));
	cua_net_free(b, x);
	*x = y;
	return 0;
}

/* Common to every network here: in = {x (f32, rank nd), params}, out = {y}. */
template <class B>
static inline int cua_net_begin(B &b, const struct cua_tensor *in, int n_in,
                                struct cua_tensor *out, int n_out, int nd, struct cua_par *par,
                                cua_act<typename B::T> *x)
{
	CUA_CHECK(cua_check_counts(in, n_in, 2, out, n_out, 1));
	CUA_CHECK(cua_par_begin(par, &in[1]));
	return cua_net_input(b, &in[0], nd, x);
}

/* Every weight taken, then y out. */
template <class B>
static inline int cua_net_end(B &b, const struct cua_par *par, const cua_act<typename B::T> &y,
                              struct cua_tensor *out)
{
	CUA_CHECK(cua_par_end(par));
	return cua_net_output(b, y, &out[0]);
}

/* ---- MLP (L3/1-3) ------------------------------------------------------------- */

/* Linear layers of widths[0..n) (ReLU after all but the last), x [B, in_features]. */
template <class B>
static int cua_net_mlp(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                       int n_out, int64_t in_features, const int64_t *widths, int n)
{
	struct cua_par par;
	cua_act<typename B::T> x;
	CUA_CHECK(cua_net_begin(b, in, n_in, out, n_out, 2, &par, &x));
	CUA_CHECK(cua_check_dim(&in[0], 1, in_features));
	for (int l = 0; l < n; l++)
		CUA_CHECK(cua_net_fc(b, &par, &x, widths[l], l + 1 < n));
	return cua_net_end(b, &par, x, out);
}

/* ---- LeNet-5 (L3/4) ----------------------------------------------------------- */

/* x [B, 1, 32, 32] -> conv 5x5 (6) relu maxpool 2 -> conv 5x5 (16) relu maxpool 2
 * -> flatten 400 -> fc 120 relu -> fc 84 relu -> fc classes. */
template <class B>
static int cua_net_lenet5(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, int64_t classes)
{
	struct cua_par par;
	cua_act<typename B::T> x;
	CUA_CHECK(cua_net_begin(b, in, n_in, out, n_out, 4, &par, &x));
	CUA_CHECK(cua_check_dim(&in[0], 1, 1));
	CUA_CHECK(cua_net_conv(b, &par, &x, cua_conv(6, 5), true));
	CUA_CHECK(cua_net_relu(b, &x));
	CUA_CHECK(cua_net_pool_max(b, &x, 2, 2, 0));
	CUA_CHECK(cua_net_conv(b, &par, &x, cua_conv(16, 5), true));
	CUA_CHECK(cua_net_relu(b, &x));
	CUA_CHECK(cua_net_pool_max(b, &x, 2, 2, 0));
	if (x.s[1] * x.s[2] * x.s[3] != 16 * 5 * 5)
		return CUA_CHECK_E_SHAPE;    /* x.view(-1, 16*5*5): the image must be 32x32 */
	cua_net_flatten(&x);
	CUA_CHECK(cua_net_fc(b, &par, &x, 120, true));
	CUA_CHECK(cua_net_fc(b, &par, &x, 84, true));
	CUA_CHECK(cua_net_fc(b, &par, &x, classes, false));
	return cua_net_end(b, &par, x, out);
}

/* ---- AlexNet (L3/5) ----------------------------------------------------------- */

template <class B>
static int cua_net_alexnet(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                           int n_out, int64_t classes)
{
	struct cua_par par;
	cua_act<typename B::T> x;
	CUA_CHECK(cua_net_begin(b, in, n_in, out, n_out, 4, &par, &x));
	CUA_CHECK(cua_check_dim(&in[0], 1, 3));
	CUA_CHECK(cua_net_conv(b, &par, &x, cua_conv(96, 11, 4, 2), true));
	CUA_CHECK(cua_net_relu(b, &x));
	CUA_CHECK(cua_net_pool_max(b, &x, 3, 2, 0));
	CUA_CHECK(cua_net_conv(b, &par, &x, cua_conv(256, 5, 1, 2), true));
	CUA_CHECK(cua_net_relu(b, &x));
	CUA_CHECK(cua_net_pool_max(b, &x, 3, 2, 0));
	CUA_CHECK(cua_net_conv(b, &par, &x, cua_conv(384, 3, 1, 1), true));
	CUA_CHECK(cua_net_relu(b, &x));
	CUA_CHECK(cua_net_conv(b, &par, &x, cua_conv(384, 3, 1, 1), true));
	CUA_CHECK(cua_net_relu(b, &x));
	CUA_CHECK(cua_net_conv(b, &par, &x, cua_conv(256, 3, 1, 1), true));
	CUA_CHECK(cua_net_relu(b, &x));
	CUA_CHECK(cua_net_pool_max(b, &x, 3, 2, 0));
	if (x.s[2] != 6 || x.s[3] != 6)
		return CUA_CHECK_E_SHAPE;    /* fc1 takes 256*6*6 */
	cua_net_flatten(&x);
	CUA_CHECK(cua_net_fc(b, &par, &x, 4096, true));
	CUA_CHECK(cua_net_dropout(b, &x, 0.0));
	CUA_CHECK(cua_net_fc(b, &par, &x, 4096, true));
	CUA_CHECK(cua_net_dropout(b, &x, 0.0));
	CUA_CHECK(cua_net_fc(b, &par, &x, classes, false));
	return cua_net_end(b, &par, x, out);
}

/* ---- VGG (L3/11, 12) ---------------------------------------------------------- */

/* cfg: output channels of each 3x3 conv (padding 1, bias, ReLU), 0 = max pool 2/2;
 * then flatten (512*7*7), fc 4096 relu, fc 4096 relu, fc classes (p=0 dropouts). */
template <class B>
static int cua_net_vgg(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                       int n_out, const int *cfg, int n_cfg, int64_t classes)
{
	struct cua_par par;
	cua_act<typename B::T> x;
	CUA_CHECK(cua_net_begin(b, in, n_in, out, n_out, 4, &par, &x));
	CUA_CHECK(cua_check_dim(&in[0], 1, 3));
	for (int i = 0; i < n_cfg; i++) {
		if (cfg[i] == 0) {
			CUA_CHECK(cua_net_pool_max(b, &x, 2, 2, 0));
			continue;
		}
		CUA_CHECK(cua_net_conv(b, &par, &x, cua_conv(cfg[i], 3, 1, 1), true));
		CUA_CHECK(cua_net_relu(b, &x));
	}
	if (x.s[1] != 512 || x.s[2] != 7 || x.s[3] != 7)
		return CUA_CHECK_E_SHAPE;    /* the classifier takes 512*7*7 */
	cua_net_flatten(&x);
	CUA_CHECK(cua_net_fc(b, &par, &x, 4096, true));
	CUA_CHECK(cua_net_dropout(b, &x, 0.0));
	CUA_CHECK(cua_net_fc(b, &par, &x, 4096, true));
	CUA_CHECK(cua_net_dropout(b, &x, 0.0));
	CUA_CHECK(cua_net_fc(b, &par, &x, classes, false));
	return cua_net_end(b, &par, x, out);
}

/* ---- ResNet (L3/8, 9, 10) ----------------------------------------------------- */

/* BasicBlock: relu(bn2(conv2(relu(bn1(conv1(x))))) + identity), conv1 3x3 stride s,
 * conv2 3x3, no biases; identity = bn(conv1x1 stride s (x)) when downsample.
 * Segment order: conv1, bn1, conv2, bn2, downsample.0, downsample.1. */
template <class B>
static int cua_net_basic_block(B &b, struct cua_par *par, cua_act<typename B::T> *x,
                               int64_t planes, int64_t stride, bool downsample)
{
	cua_act<typename B::T> h = *x, id = *x;
	h.owned = false;                         /* x stays alive as the identity */
	CUA_CHECK(cua_net_conv(b, par, &h, cua_conv(planes, 3, stride, 1), false));
	CUA_CHECK(cua_net_bn(b, par, &h, CUA_NET_RELU));
	CUA_CHECK(cua_net_conv(b, par, &h, cua_conv(planes, 3, 1, 1), false));
	CUA_CHECK(cua_net_bn(b, par, &h, CUA_NET_NONE));
	if (downsample) {
		id.owned = false;
		CUA_CHECK(cua_net_conv(b, par, &id, cua_conv(planes, 1, stride, 0), false));
		CUA_CHECK(cua_net_bn(b, par, &id, CUA_NET_NONE));
	}
	CUA_CHECK(cua_net_add(b, &h, id, CUA_NET_RELU));
	if (downsample)
		cua_net_free(b, &id);
	cua_net_free(b, x);
	*x = h;
	return 0;
}

/* Bottleneck (expansion 4): conv1 1x1 (planes), conv2 3x3 stride s, conv3 1x1
 * (4·planes), each with its BatchNorm, ReLU after the first two and after the
 * residual add; downsample as in the basic block (to 4·planes). */
template <class B>
static int cua_net_bottleneck(B &b, struct cua_par *par, cua_act<typename B::T> *x,
                              int64_t planes, int64_t stride, bool downsample)
{
	cua_act<typename B::T> h = *x, id = *x;
	h.owned = false;
	CUA_CHECK(cua_net_conv(b, par, &h, cua_conv(planes, 1), false));
	CUA_CHECK(cua_net_bn(b, par, &h, CUA_NET_RELU));
	CUA_CHECK(cua_net_conv(b, par, &h, cua_conv(planes, 3, stride, 1), false));
	CUA_CHECK(cua_net_bn(b, par, &h, CUA_NET_RELU));
	CUA_CHECK(cua_net_conv(b, par, &h, cua_conv(4 * planes, 1), false));
	CUA_CHECK(cua_net_bn(b, par, &h, CUA_NET_NONE));
	if (downsample) {
		id.owned = false;
		CUA_CHECK(cua_net_conv(b, par, &id, cua_conv(4 * planes, 1, stride, 0), false));
		CUA_CHECK(cua_net_bn(b, par, &id, CUA_NET_NONE));
	}
	CUA_CHECK(cua_net_add(b, &h, id, CUA_NET_RELU));
	if (downsample)
		cua_net_free(b, &id);
	cua_net_free(b, x);
	*x = h;
	return 0;
}

/* L3/8: one BasicBlock with a downsample branch, x [B, Cin, H, W] -> [B, planes, H, W]. */
template <class B>
static int cua_net_resnet_block(B &b, const struct cua_tensor *in, int n_in,
                                struct cua_tensor *out, int n_out, int64_t planes,
                                int64_t stride)
{
	struct cua_par par;
	cua_act<typename B::T> x;
	CUA_CHECK(cua_net_begin(b, in, n_in, out, n_out, 4, &par, &x));
	CUA_CHECK(cua_net_basic_block(b, &par, &x, planes, stride, true));
	return cua_net_end(b, &par, x, out);
}

/* ResNet: conv1 7x7/2 (64, no bias), bn1, relu, maxpool 3/2/1; four stages of
 * blocks[l] blocks at 64, 128, 256, 512 planes (stride 2 from the second stage);
 * adaptive avg pool to 1x1, flatten, fc classes. bottleneck selects the block. */
template <class B>
static int cua_net_resnet(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, const int *blocks, bool bottleneck, int64_t classes)
{
	struct cua_par par;
	cua_act<typename B::T> x, y;
	CUA_CHECK(cua_net_begin(b, in, n_in, out, n_out, 4, &par, &x));
	CUA_CHECK(cua_check_dim(&in[0], 1, 3));
	CUA_CHECK(cua_net_conv(b, &par, &x, cua_conv(64, 7, 2, 3), false));
	CUA_CHECK(cua_net_bn(b, &par, &x, CUA_NET_RELU));
	CUA_CHECK(cua_net_pool_max(b, &x, 3, 2, 1));
	const int64_t expansion = bottleneck ? 4 : 1;
	int64_t channels = 64;
	for (int l = 0; l < 4; l++) {
		const int64_t planes = 64 << l;
		for (int i = 0; i < blocks[l]; i++) {
			const int64_t stride = i == 0 && l > 0 ? 2 : 1;
			const bool down = i == 0 && (stride != 1 || channels != planes * expansion);
			if (bottleneck)
				CUA_CHECK(cua_net_bottleneck(b, &par, &x, planes, stride, down));
			else
				CUA_CHECK(cua_net_basic_block(b, &par, &x, planes, stride, down));
			channels = planes * expansion;
		}
	}
	CUA_CHECK(cua_net_adaptive_avgpool2d(b, x, 1, 1, &y));
	cua_net_free(b, &x);
	x = y;
	cua_net_flatten(&x);
	CUA_CHECK(cua_net_fc(b, &par, &x, classes, false));
	return cua_net_end(b, &par, x, out);
}

#endif /* CUA_COMMON_NET_CLASSIC_CUH */
