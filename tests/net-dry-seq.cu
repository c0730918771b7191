/* net-dry-seq.cu — the recurrent and attention Level 3 references (net-seq.cuh) walked on a
 * dry backend, as tests/net-dry.cu does for the classic networks: shapes only, no device.
 * Each op checks and allocates extents; the forward must take exactly the task's P weights
 * from `params` and produce every output's element count. These tasks have several inputs
 * and outputs, hence a command line of their own:
 *
 *     build/net-dry-seq FOLDER IN0 IN1 ... -- OUT0 ...     # each a shape "d0xd1x...";
 *                                                         # prints "ok" or the error
 *
 * tests/net-dry-seq.sh feeds it every shape set of every task in the table below.
 * Build: nvcc -std=c++17 -Iinclude -Itasks/common -o build/net-dry-seq tests/net-dry-seq.cu */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuarena.h"
#include "net-seq.cuh"

#include "net-dry-backend.cuh"

static int cua_net_linear(cua_net_dry &b, const dact &x, const float *w, const float *bias,
                          int64_t out, dact *y)
{
	return cua_net_linear_prep(b, x, w, out, y);
}

static int cua_net_add(cua_net_dry &b, dact *a, const dact &r, int act = CUA_NET_NONE)
{
	return a->numel() == r.numel() && a->nd == r.nd ? 0 : CUA_CHECK_E_SHAPE;
}

static int cua_net_concat(cua_net_dry &b, const dact *xs, int n, dact *y)
{
	int64_t s[4];
	memcpy(s, xs[0].s, sizeof(s));
	s[1] = 0;
	for (int i = 0; i < n; i++) {
		if (xs[i].nd != xs[0].nd || xs[i].s[0] != xs[0].s[0] || xs[i].hw() != xs[0].hw())
			return CUA_CHECK_E_SHAPE;
		s[1] += xs[i].s[1];
	}
	return cua_net_alloc(b, xs[0].nd, s, y);
}

template <int Cell>
static int cua_net_rnn(cua_net_dry &b, const struct seq_rnn_dims *d, const float *x,
                       const struct seq_rnn_w *w, const float *h0, const float *c0, dact *y,
                       dact *hn, dact *cn)
{
	const int64_t k = (int64_t)d->layers * d->dirs;
	if ((int)d->cell != Cell || !x || !h0 || (Cell == SEQ_CELL_LSTM && !c0))
		return CUA_CHECK_E_PARAM;
	for (int64_t i = 0; i < k; i++)
		if (!w[i].w_ih || !w[i].w_hh || !w[i].b_ih || (d->rec_bias && !w[i].b_hh))
			return CUA_CHECK_E_NULL;
	CUA_CHECK(cua_net_alloc2(b, d->T * d->B, d->dirs * d->H, y));
	if (hn)
		CUA_CHECK(cua_net_alloc2(b, k * d->B, d->H, hn));
	if (cn)
		CUA_CHECK(cua_net_alloc2(b, k * d->B, d->H, cn));
	return 0;
}

static int cua_net_seq_step(cua_net_dry &b, const dact &x, int64_t Bn, int64_t Tn, int64_t t,
                            dact *y)
{
	if (x.nd != 2 || x.s[0] != Bn * Tn || t < 0 || t >= Tn)
		return CUA_CHECK_E_SHAPE;
	return cua_net_alloc2(b, Bn, x.s[1], y);
}

static int cua_net_layernorm(cua_net_dry &b, dact *a, const float *w, const float *bias,
                             double eps)
{
	return w && bias ? cua_net_own(b, a) : CUA_CHECK_E_NULL;
}

static int cua_net_gelu_tanh(cua_net_dry &b, dact *a)
{
	return cua_net_own(b, a);
}

static int cua_net_tanh(cua_net_dry &b, dact *a)
{
	return cua_net_own(b, a);
}

static int cua_net_attention(cua_net_dry &b, const dact &qkv, int64_t Bn, int64_t Tn,
                             int64_t nh, enum seq_att_kind kind, dact *y)
{
	const int64_t C = qkv.s[1] / 3;
	if (qkv.nd != 2 || qkv.s[0] != Bn * Tn || qkv.s[1] != 3 * C || C % nh)
		return CUA_CHECK_E_SHAPE;
	return cua_net_alloc2(b, Bn * Tn, C, y);
}

static int cua_net_transpose12(cua_net_dry &b, const dact &x, int64_t N, int64_t R, int64_t Cc,
                               int nd, const int64_t *ys, dact *y)
{
	if (x.numel() != N * R * Cc)
		return CUA_CHECK_E_SHAPE;
	CUA_CHECK(cua_net_alloc(b, nd, ys, y));
	return y->numel() == N * R * Cc ? 0 : CUA_CHECK_E_SHAPE;
}

typedef int (*dry_fn)(cua_net_dry &, const struct cua_tensor *, int, struct cua_tensor *, int);

#undef CUA_NET_ENTRY_POINTS
#define CUA_NET_ENTRY_POINTS(FORWARD)                                                     \
	static int dry(cua_net_dry &b, const struct cua_tensor *in, int n_in,                 \
	               struct cua_tensor *out, int n_out)                                     \
	{                                                                                     \
		return FORWARD(b, in, n_in, out, n_out);                                          \
	}

namespace t031 {
#include "../tasks/L3/031-vision-attention/reference.cu"
}
namespace t033 {
#include "../tasks/L3/033-vanilla-rnn/reference.cu"
}
namespace t034 {
#include "../tasks/L3/034-vanilla-rnn-hidden/reference.cu"
}
namespace t035 {
#include "../tasks/L3/035-lstm/reference.cu"
}
namespace t036 {
#include "../tasks/L3/036-lstm-hn/reference.cu"
}
namespace t037 {
#include "../tasks/L3/037-lstm-cn/reference.cu"
}
namespace t038 {
#include "../tasks/L3/038-lstm-bidirectional/reference.cu"
}
namespace t039 {
#include "../tasks/L3/039-gru/reference.cu"
}
namespace t040 {
#include "../tasks/L3/040-gru-hidden/reference.cu"
}
namespace t041 {
#include "../tasks/L3/041-gru-bidirectional/reference.cu"
}
namespace t042 {
#include "../tasks/L3/042-gru-bidirectional-hidden/reference.cu"
}
namespace t043 {
#include "../tasks/L3/043-mingpt-causal-attention/reference.cu"
}
namespace t044 {
#include "../tasks/L3/044-minigpt-block/reference.cu"
}
namespace t050 {
#include "../tasks/L3/050-relu-self-attention/reference.cu"
}

static const struct {
	const char *folder;
	dry_fn fn;
} nets[] = {
	{"031-vision-attention", t031::dry},
	{"033-vanilla-rnn", t033::dry},
	{"034-vanilla-rnn-hidden", t034::dry},
	{"035-lstm", t035::dry},
	{"036-lstm-hn", t036::dry},
	{"037-lstm-cn", t037::dry},
	{"038-lstm-bidirectional", t038::dry},
	{"039-gru", t039::dry},
	{"040-gru-hidden", t040::dry},
	{"041-gru-bidirectional", t041::dry},
	{"042-gru-bidirectional-hidden", t042::dry},
	{"043-mingpt-causal-attention", t043::dry},
	{"044-minigpt-block", t044::dry},
	{"050-relu-self-attention", t050::dry},
};

#define NET_DRY_NAME "net-dry-seq"
#include "net-dry-main.cuh"
