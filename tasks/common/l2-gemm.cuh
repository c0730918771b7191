/* l2-gemm.cuh — the operator chains of the Level-2 GEMM (nn.Linear) tasks,
 * each written once against a linear policy L (linear.cuh) and the naive
 * epilogue kernels (epilogue.cuh), so that the task's reference (L =
 * cua_linear_naive: Acc = float is cua_solve, Acc = double cua_oracle) and its
 * cuBLAS baselines (baselines/cublas/l2-gemm-common.cuh) run the same kernels
 * after the main GEMM. Header-only.
 *
 * l2_NNN<L, Acc>(in, n_in, out, n_out, stream) is L2/NNN's whole body: it
 * checks every tensor (count, dtype, rank, extents), then enqueues one kernel
 * per operator of the chain, in the order the task's description states,
 * intermediates in stream-ordered scratch (or in the output buffer, updated in
 * place, when shapes allow). Outputs are Acc (f32 for cua_solve, f64 for the
 * oracle). The inputs are listed in each task.json in the order used here.
 *
 * CUA_L2_REFERENCE(l2_NNN) defines cua_solve and cua_oracle of a reference. */
#ifndef CUA_COMMON_L2_GEMM_CUH
#define CUA_COMMON_L2_GEMM_CUH

#include <math.h>
#include "linear.cuh"

#define CUA_L2_REFERENCE(chain)                                                          \
	extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, \
	                         int n_out, cudaStream_t stream)                               \
	{                                                                                    \
		return chain<cua_linear_naive, float>(in, n_in, out, n_out, stream);             \
	}                                                                                    \
	extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out, \
	                          int n_out, cudaStream_t stream)                              \
	{                                                                                    \
		return chain<cua_linear_naive, double>(in, n_in, out, n_out, stream);            \
	}

static inline const float *cua_l2_f32(const struct cua_tensor *t)
{
	return (const float *)t->data;
}

/* The prologue of most chains: n_in inputs with x, W at 0, 1 and the Linear's
 * bias at bias_at (-1: none), one output of rank ndim with extents dims, whose
 * last entries may name M, N, K via the returned values (the caller checks the
 * output after the call with cua_l2_check_out). */
struct cua_l2_lin {
	int64_t M, N, K;
	const float *x, *W, *b;
};

static inline int cua_l2_linear_in(const struct cua_tensor *in, int n_in, int want_in,
                                   const struct cua_tensor *out, int n_out, int bias_at,
                                   struct cua_l2_lin *l)
{
	CUA_CHECK(cua_check_counts(in, n_in, want_in, out, n_out, 1));
	CUA_CHECK(cua_check_linear(&in[0], &in[1], bias_at >= 0 ? &in[bias_at] : NULL, &l->M,
	                           &l->N, &l->K));
	l->x = cua_l2_f32(&in[0]);
	l->W = cua_l2_f32(&in[1]);
	l->b = bias_at >= 0 ? cua_l2_f32(&in[bias_at]) : NULL;
	return 0;
}

/* out[0] is Acc with extents dims[0..ndim); returns its data through *y. */
template <typename Acc>
static inline int cua_l2_check_out(struct cua_tensor *out, int ndim, const int64_t *dims, Acc **y)
{
	CUA_CHECK(cua_check_extents(&out[0], cua_dtype_of<Acc>::value, ndim, dims));
	*y = (Acc *)out[0].data;
	return 0;
}

/* The output shapes of the chains (075's [1,N,M,1] is checked by itself). */
enum cua_l2_out { CUA_L2_OUT_MN, CUA_L2_OUT_M1, CUA_L2_OUT_M, CUA_L2_OUT_1N, CUA_L2_OUT_MK };

/* A chain's checked tensors: the Linear's operands and the output y, n = M·N. */
template <typename Acc>
struct cua_l2_io : cua_l2_lin {
	int64_t n;
	Acc *y;
};

/* cua_l2_linear_in, then out[0] checked as Acc of the given shape. */
template <typename Acc>
static inline int cua_l2_begin(const struct cua_tensor *in, int n_in, int want_in,
                               struct cua_tensor *out, int n_out, int bias_at,
                               enum cua_l2_out shape, struct cua_l2_io<Acc> *io)
{
	CUA_CHECK(cua_l2_linear_in(in, n_in, want_in, out, n_out, bias_at, io));
	io->n = io->M * io->N;
	int64_t dims[2] = {io->M, io->N};
	int ndim = 2;
	if (shape == CUA_L2_OUT_M1)
		dims[1] = 1;
	else if (shape == CUA_L2_OUT_M)
		ndim = 1;
	else if (shape == CUA_L2_OUT_1N)
		dims[0] = 1;
	else if (shape == CUA_L2_OUT_MK)
		dims[1] = io->K;
	return cua_l2_check_out(out, ndim, dims, &io->y);
}

/* A Linear followed only by elementwise ops on its [M,N] output: x, W and
 * the bias at in[bias_at] (or none, -1 with epi CUA_LIN_NONE), then each op
 * of ops as its own kernel, in order, in place on y. */
template <typename L, typename Acc, typename... Ops>
static int cua_l2_unary_chain(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                              int n_out, cudaStream_t stream, enum cua_lin_epi epi, Ops... ops)
{
	cua_l2_io<Acc> l;
	CUA_CHECK(cua_l2_begin(in, n_in, 3, out, n_out, 2, CUA_L2_OUT_MN, &l));
	CUA_CHECK(L::run(l.x, l.W, l.b, epi, l.y, l.M, l.N, l.K, stream));
	(cua_ep_unary<Acc>(l.n, ops, l.y, l.y, stream), ...);
	return (int)cudaGetLastError();
}

/* Swish as eager runs x·sigmoid(x): s = sigmoid(t) into scratch s, then t = t·s. */
template <typename Acc>
static inline void cua_l2_swish2(Acc *t, Acc *s, int64_t n, cudaStream_t stream)
{
	cua_ep_unary<Acc>(n, cua_ep_sigmoid(), t, s, stream);
	cua_ep_binary<Acc>(n, cua_ep_mul(), t, s, t, stream);
}

/* L2/009: y = relu((x·Wᵀ + b − 2)·1.5). */
template <typename L, typename Acc>
static int l2_009(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	return cua_l2_unary_chain<L, Acc>(in, n_in, out, n_out, stream, CUA_LIN_BIAS,
	                                 cua_ep_sub_s{2.0}, cua_ep_mul_s{1.5}, cua_ep_relu());
}

/* L2/012: y = leaky_relu((x·Wᵀ + b)·2, 0.1). */
template <typename L, typename Acc>
static int l2_012(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	return cua_l2_unary_chain<L, Acc>(in, n_in, out, n_out, stream, CUA_LIN_BIAS,
	                                 cua_ep_mul_s{2.0}, cua_ep_leaky_relu{0.1});
}

/* L2/014: y[m,0] = 1.5·Σ_n (x·Wᵀ)[m,n]/2, no bias. */
template <typename L, typename Acc>
static int l2_014(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	cua_l2_io<Acc> l;
	CUA_CHECK(cua_l2_begin(in, n_in, 2, out, n_out, -1, CUA_L2_OUT_M1, &l));
	Acc *y = l.y, *t;
	cua_l2_scratch sc(stream);
	CUA_CHECK(sc.get(&t, l.M * l.N));
	CUA_CHECK(L::run(l.x, l.W, l.b, CUA_LIN_NONE, t, l.M, l.N, l.K, stream));
	cua_ep_unary<Acc>(l.M * l.N, cua_ep_div_s{2.0}, t, t, stream);
	cua_ep_reduce<Acc>(CUA_EP_SUM, t, y, l.M, l.N, 1, stream);
	cua_ep_unary<Acc>(l.M, cua_ep_mul_s{1.5}, y, y, stream);
	return (int)cudaGetLastError();
}

/* L2/018: s = Σ_n (x·Wᵀ + b)[m,n] keepdim, then max, mean, logsumexp,
 * logsumexp over that size-1 dim (each an identity, run as eager runs it). */
template <typename L, typename Acc>
static int l2_018(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	cua_l2_io<Acc> l;
	CUA_CHECK(cua_l2_begin(in, n_in, 3, out, n_out, 2, CUA_L2_OUT_M1, &l));
	Acc *y = l.y, *t, *s1, *s2;
	cua_l2_scratch sc(stream);
	CUA_CHECK(sc.get(&t, l.M * l.N));
	CUA_CHECK(sc.get(&s1, l.M));
	CUA_CHECK(sc.get(&s2, l.M));
	CUA_CHECK(L::run(l.x, l.W, l.b, CUA_LIN_BIAS, t, l.M, l.N, l.K, stream));
	cua_ep_reduce<Acc>(CUA_EP_SUM, t, s1, l.M, l.N, 1, stream);
	cua_ep_reduce<Acc>(CUA_EP_MAX, s1, s2, l.M, 1, 1, stream);
	cua_ep_reduce<Acc>(CUA_EP_MEAN, s2, s1, l.M, 1, 1, stream);
	cua_ep_reduce<Acc>(CUA_EP_LSE, s1, s2, l.M, 1, 1, stream);
	cua_ep_reduce<Acc>(CUA_EP_LSE, s2, y, l.M, 1, 1, stream);
	return (int)cudaGetLastError();
}

/* L2/022: t = clamp(2·(x·Wᵀ + b) doubled, −10, 10); l = logsumexp_n t;
 * y = l·mish(l), [M,1]. */
template <typename L, typename Acc>
static int l2_022(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	cua_l2_io<Acc> l;
	CUA_CHECK(cua_l2_begin(in, n_in, 3, out, n_out, 2, CUA_L2_OUT_M1, &l));
	const int64_t n = l.n;
	Acc *y = l.y, *t, *s, *m;
	cua_l2_scratch sc(stream);
	CUA_CHECK(sc.get(&t, n));
	CUA_CHECK(sc.get(&s, l.M));
	CUA_CHECK(sc.get(&m, l.M));
	CUA_CHECK(L::run(l.x, l.W, l.b, CUA_LIN_BIAS, t, l.M, l.N, l.K, stream));
	cua_ep_unary<Acc>(n, cua_ep_mul_s{2.0}, t, t, stream);
	cua_ep_binary<Acc>(n, cua_ep_add(), t, t, t, stream);
	cua_ep_unary<Acc>(n, cua_ep_clamp{-10.0, 10.0}, t, t, stream);
	cua_ep_reduce<Acc>(CUA_EP_LSE, t, s, l.M, l.N, 1, stream);
	cua_ep_unary<Acc>(l.M, cua_ep_mish(), s, m, stream);
	cua_ep_binary<Acc>(l.M, cua_ep_mul(), s, m, y, stream);
	return (int)cudaGetLastError();
}

/* L2/028: t = x·Wᵀ + b standardised over each row (InstanceNorm2d of the
 * [M,1,1,N] view, eps 1e-5, no affine); out = (t + y)·y. Inputs x, W, b, y. */
template <typename L, typename Acc>
static int l2_028(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	struct cua_l2_lin l;
	CUA_CHECK(cua_l2_linear_in(in, n_in, 4, out, n_out, 2, &l));
	const int64_t dims[2] = {l.M, l.N}, n = l.M * l.N;
	CUA_CHECK(cua_check_extents(&in[3], CUA_F32, 2, dims));
	const float *yin = cua_l2_f32(&in[3]);
	Acc *o, *t;
	CUA_CHECK(cua_l2_check_out(out, 2, dims, &o));
	cua_l2_scratch sc(stream);
	CUA_CHECK(sc.get(&t, n));
	CUA_CHECK(L::run(l.x, l.W, l.b, CUA_LIN_BIAS, t, l.M, l.N, l.K, stream));
	cua_ep_groupnorm<Acc>(t, (const float *)NULL, (const float *)NULL, o, l.M, 1, l.N, 1, 1e-5,
	                      stream);
	cua_ep_binary<Acc>(n, cua_ep_add(), o, yin, o, stream);
	cua_ep_binary<Acc>(n, cua_ep_mul(), o, yin, o, stream);
	return (int)cudaGetLastError();
}

/* L2/029: y = mish(mish(x·Wᵀ + b)). */
template <typename L, typename Acc>
static int l2_029(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	return cua_l2_unary_chain<L, Acc>(in, n_in, out, n_out, stream, CUA_LIN_BIAS,
	                                 cua_ep_mish(), cua_ep_mish());
}

/* GroupNorm(G) over the N features of each row of t [M,N] into y, with the
 * affine vectors in[wi], in[wi + 1] ([N] each); checks them first. */
template <typename Acc>
static inline int cua_l2_groupnorm(const struct cua_tensor *in, int wi, const Acc *t, Acc *y,
                                   int64_t M, int64_t N, int64_t G, cudaStream_t stream)
{
	CUA_CHECK(cua_check_vec(&in[wi], N));
	CUA_CHECK(cua_check_vec(&in[wi + 1], N));
	if (N % G != 0)
		return CUA_CHECK_E_SHAPE;
	cua_ep_groupnorm<Acc>(t, cua_l2_f32(&in[wi]), cua_l2_f32(&in[wi + 1]), y, M, N, 1, G, 1e-5,
	                      stream);
	return 0;
}

/* BatchNorm1d with batch statistics over the M rows of t [M,N] into y, affine
 * vectors in[wi], in[wi + 1] ([N] each), eps 1e-5; checks them first. */
template <typename Acc>
static inline int cua_l2_batchnorm(const struct cua_tensor *in, int wi, const Acc *t, Acc *y,
                                   int64_t M, int64_t N, cudaStream_t stream)
{
	CUA_CHECK(cua_check_vec(&in[wi], N));
	CUA_CHECK(cua_check_vec(&in[wi + 1], N));
	cua_ep_batchnorm_train<Acc>(t, cua_l2_f32(&in[wi]), cua_l2_f32(&in[wi + 1]), y, M, N, 1,
	                            1e-5, stream);
	return 0;
}

/* L2/030: y = hardtanh(GroupNorm16(x·Wᵀ + b), −2, 2). Inputs x, W, b,
 * gn_weight, gn_bias. */
template <typename L, typename Acc>
static int l2_030(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	cua_l2_io<Acc> l;
	CUA_CHECK(cua_l2_begin(in, n_in, 5, out, n_out, 2, CUA_L2_OUT_MN, &l));
	const int64_t n = l.n;
	Acc *y = l.y, *t;
	cua_l2_scratch sc(stream);
	CUA_CHECK(sc.get(&t, n));
	CUA_CHECK(L::run(l.x, l.W, l.b, CUA_LIN_BIAS, t, l.M, l.N, l.K, stream));
	CUA_CHECK(cua_l2_groupnorm<Acc>(in, 3, t, y, l.M, l.N, 16, stream));
	cua_ep_unary<Acc>(n, cua_ep_clamp{-2.0, 2.0}, y, y, stream);
	return (int)cudaGetLastError();
}

/* L2/033 and L2/039: y = BatchNorm1d_batchstats((x·Wᵀ)·scale). Inputs x, W,
 * scale, bn_weight, bn_bias (the Linear's bias is dropped: BatchNorm removes
 * it exactly). */
template <typename L, typename Acc>
static int l2_gemm_scale_batchnorm(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                                   int n_out, cudaStream_t stream)
{
	cua_l2_io<Acc> l;
	CUA_CHECK(cua_l2_begin(in, n_in, 5, out, n_out, -1, CUA_L2_OUT_MN, &l));
	CUA_CHECK(cua_check_vec(&in[2], l.N));
	const int64_t n = l.n;
	Acc *y = l.y, *t;
	cua_l2_scratch sc(stream);
	CUA_CHECK(sc.get(&t, n));
	CUA_CHECK(L::run(l.x, l.W, l.b, CUA_LIN_NONE, t, l.M, l.N, l.K, stream));
	cua_ep_bcast<Acc>(n, l.N, 1, cua_ep_mul(), t, cua_l2_f32(&in[2]), t, stream);
	CUA_CHECK(cua_l2_batchnorm<Acc>(in, 3, t, y, l.M, l.N, stream));
	return (int)cudaGetLastError();
}

/* L2/037: y = GroupNorm64(swish(x·Wᵀ + b) + bias). Inputs x, W, b, bias,
 * gn_weight, gn_bias. */
template <typename L, typename Acc>
static int l2_037(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	cua_l2_io<Acc> l;
	CUA_CHECK(cua_l2_begin(in, n_in, 6, out, n_out, 2, CUA_L2_OUT_MN, &l));
	CUA_CHECK(cua_check_vec(&in[3], l.N));
	const int64_t n = l.n;
	Acc *y = l.y, *t, *s;
	cua_l2_scratch sc(stream);
	CUA_CHECK(sc.get(&t, n));
	CUA_CHECK(sc.get(&s, n));
	CUA_CHECK(L::run(l.x, l.W, l.b, CUA_LIN_BIAS, t, l.M, l.N, l.K, stream));
	cua_l2_swish2<Acc>(t, s, n, stream);
	cua_ep_bcast<Acc>(n, l.N, 1, cua_ep_add(), t, cua_l2_f32(&in[3]), t, stream);
	CUA_CHECK(cua_l2_groupnorm<Acc>(in, 4, t, y, l.M, l.N, 64, stream));
	return (int)cudaGetLastError();
}

/* L2/040: t = x·Wᵀ + b; y = t·0.5 + clone(t). */
template <typename L, typename Acc>
static int l2_040(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	cua_l2_io<Acc> l;
	CUA_CHECK(cua_l2_begin(in, n_in, 3, out, n_out, 2, CUA_L2_OUT_MN, &l));
	const int64_t n = l.n;
	Acc *y = l.y, *o;
	cua_l2_scratch sc(stream);
	CUA_CHECK(sc.get(&o, n));
	CUA_CHECK(L::run(l.x, l.W, l.b, CUA_LIN_BIAS, y, l.M, l.N, l.K, stream));
	CUA_CHECK((int)cudaMemcpyAsync(o, y, (size_t)n * sizeof(Acc), cudaMemcpyDeviceToDevice,
	                               stream));
	cua_ep_unary<Acc>(n, cua_ep_mul_s{0.5}, y, y, stream);
	cua_ep_binary<Acc>(n, cua_ep_add(), y, o, y, stream);
	return (int)cudaGetLastError();
}

/* L2/041: y = relu(gelu(BatchNorm1d_batchstats(x·Wᵀ))). Inputs x, W, bn_weight,
 * bn_bias (the Linear's bias is dropped: BatchNorm removes it exactly). */
template <typename L, typename Acc>
static int l2_041(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	cua_l2_io<Acc> l;
	CUA_CHECK(cua_l2_begin(in, n_in, 4, out, n_out, -1, CUA_L2_OUT_MN, &l));
	const int64_t n = l.n;
	Acc *y = l.y, *t;
	cua_l2_scratch sc(stream);
	CUA_CHECK(sc.get(&t, n));
	CUA_CHECK(L::run(l.x, l.W, l.b, CUA_LIN_NONE, t, l.M, l.N, l.K, stream));
	CUA_CHECK(cua_l2_batchnorm<Acc>(in, 2, t, y, l.M, l.N, stream));
	cua_ep_unary<Acc>(n, cua_ep_gelu_erf(), y, y, stream);
	cua_ep_unary<Acc>(n, cua_ep_relu(), y, y, stream);
	return (int)cudaGetLastError();
}

/* L2/045: h = sigmoid(x·W1ᵀ + b1); y[m] = logsumexp_o (h·W2ᵀ + b2)[m,o].
 * Inputs x, W1, b1, W2, b2. */
template <typename L, typename Acc>
static int l2_045(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	struct cua_l2_lin l;
	CUA_CHECK(cua_l2_linear_in(in, n_in, 5, out, n_out, 2, &l));
	const int64_t H = l.N;
	CUA_CHECK(cua_check_tensor(&in[3], CUA_F32, 2));
	const int64_t O = in[3].shape[0];
	CUA_CHECK(cua_check_dim(&in[3], 1, H));
	CUA_CHECK(cua_check_vec(&in[4], O));
	const int64_t dims[1] = {l.M};
	Acc *y, *h, *t;
	CUA_CHECK(cua_l2_check_out(out, 1, dims, &y));
	cua_l2_scratch sc(stream);
	CUA_CHECK(sc.get(&h, l.M * H));
	CUA_CHECK(sc.get(&t, l.M * O));
	CUA_CHECK(L::run(l.x, l.W, l.b, CUA_LIN_BIAS, h, l.M, H, l.K, stream));
	cua_ep_unary<Acc>(l.M * H, cua_ep_sigmoid(), h, h, stream);
	CUA_CHECK(L::run((const Acc *)h, cua_l2_f32(&in[3]), cua_l2_f32(&in[4]), CUA_LIN_BIAS, t,
	                 l.M, O, H, stream));
	cua_ep_reduce<Acc>(CUA_EP_LSE, t, y, l.M, O, 1, stream);
	return (int)cudaGetLastError();
}

/* L2/051: m = mean_n (x·Wᵀ + b − subtract)[m,n] keepdim; logsumexp over that
 * size-1 dim (an identity); y = clone(x) + gelu(m), broadcast to [M,K].
 * Inputs x, W, b, subtract. */
template <typename L, typename Acc>
static int l2_051(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	struct cua_l2_lin l;
	CUA_CHECK(cua_l2_linear_in(in, n_in, 4, out, n_out, 2, &l));
	CUA_CHECK(cua_check_vec(&in[3], l.N));
	const int64_t dims[2] = {l.M, l.K}, n = l.M * l.N;
	Acc *y, *t, *m1, *m2;
	float *xc;
	CUA_CHECK(cua_l2_check_out(out, 2, dims, &y));
	cua_l2_scratch sc(stream);
	CUA_CHECK(sc.get(&xc, l.M * l.K));
	CUA_CHECK(sc.get(&t, n));
	CUA_CHECK(sc.get(&m1, l.M));
	CUA_CHECK(sc.get(&m2, l.M));
	CUA_CHECK((int)cudaMemcpyAsync(xc, l.x, (size_t)(l.M * l.K) * sizeof(float),
	                               cudaMemcpyDeviceToDevice, stream));
	CUA_CHECK(L::run(l.x, l.W, l.b, CUA_LIN_BIAS, t, l.M, l.N, l.K, stream));
	cua_ep_bcast<Acc>(n, l.N, 1, cua_ep_sub(), t, cua_l2_f32(&in[3]), t, stream);
	cua_ep_reduce<Acc>(CUA_EP_MEAN, t, m1, l.M, l.N, 1, stream);
	cua_ep_reduce<Acc>(CUA_EP_LSE, m1, m2, l.M, 1, 1, stream);
	cua_ep_unary<Acc>(l.M, cua_ep_gelu_erf(), m2, m2, stream);
	cua_ep_bcast<Acc>(l.M * l.K, l.M, l.K, cua_ep_add(), (const float *)xc, m2, y, stream);
	return (int)cudaGetLastError();
}

/* L2/053: y = gelu(hardtanh((x·Wᵀ + b)·0.5, −2, 2)). */
template <typename L, typename Acc>
static int l2_053(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	return cua_l2_unary_chain<L, Acc>(in, n_in, out, n_out, stream, CUA_LIN_BIAS,
	                                 cua_ep_mul_s{0.5}, cua_ep_clamp{-2.0, 2.0},
	                                 cua_ep_gelu_erf());
}

/* L2/055: p = MaxPool1d(2) of each row of x·Wᵀ + b (N/2 windows, floor);
 * y[m] = 0.5·Σ_j p[m,j]. */
template <typename L, typename Acc>
static int l2_055(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	struct cua_l2_lin l;
	CUA_CHECK(cua_l2_linear_in(in, n_in, 3, out, n_out, 2, &l));
	if (l.N < 2)
		return CUA_CHECK_E_SHAPE;
	const int64_t dims[1] = {l.M}, P = l.N / 2;
	Acc *y, *t, *p;
	CUA_CHECK(cua_l2_check_out(out, 1, dims, &y));
	cua_l2_scratch sc(stream);
	CUA_CHECK(sc.get(&t, l.M * l.N));
	CUA_CHECK(sc.get(&p, l.M * P));
	CUA_CHECK(L::run(l.x, l.W, l.b, CUA_LIN_BIAS, t, l.M, l.N, l.K, stream));
	cua_ep_pool_last<Acc>(true, t, p, l.M, l.N, 2, stream);
	cua_ep_reduce<Acc>(CUA_EP_SUM, p, y, l.M, P, 1, stream);
	cua_ep_unary<Acc>(l.M, cua_ep_mul_s{0.5}, y, y, stream);
	return (int)cudaGetLastError();
}

/* L2/056: y[m,0] = Σ_n sigmoid(x·Wᵀ + b)[m,n]. */
template <typename L, typename Acc>
static int l2_056(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	cua_l2_io<Acc> l;
	CUA_CHECK(cua_l2_begin(in, n_in, 3, out, n_out, 2, CUA_L2_OUT_M1, &l));
	const int64_t n = l.n;
	Acc *y = l.y, *t;
	cua_l2_scratch sc(stream);
	CUA_CHECK(sc.get(&t, n));
	CUA_CHECK(L::run(l.x, l.W, l.b, CUA_LIN_BIAS, t, l.M, l.N, l.K, stream));
	cua_ep_unary<Acc>(n, cua_ep_sigmoid(), t, t, stream);
	cua_ep_reduce<Acc>(CUA_EP_SUM, t, y, l.M, l.N, 1, stream);
	return (int)cudaGetLastError();
}

/* L2/059: t = x·Wᵀ + b; y = (t·sigmoid(t))·2. */
template <typename L, typename Acc>
static int l2_059(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	cua_l2_io<Acc> l;
	CUA_CHECK(cua_l2_begin(in, n_in, 3, out, n_out, 2, CUA_L2_OUT_MN, &l));
	const int64_t n = l.n;
	Acc *y = l.y, *s;
	cua_l2_scratch sc(stream);
	CUA_CHECK(sc.get(&s, n));
	CUA_CHECK(L::run(l.x, l.W, l.b, CUA_LIN_BIAS, y, l.M, l.N, l.K, stream));
	cua_l2_swish2<Acc>(y, s, n, stream);
	cua_ep_unary<Acc>(n, cua_ep_mul_s{2.0}, y, y, stream);
	return (int)cudaGetLastError();
}

/* L2/062: t = leaky_relu(GroupNorm512(x·Wᵀ + b), 0.01); y = t + t. Inputs x,
 * W, b, gn_weight, gn_bias. */
template <typename L, typename Acc>
static int l2_062(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	cua_l2_io<Acc> l;
	CUA_CHECK(cua_l2_begin(in, n_in, 5, out, n_out, 2, CUA_L2_OUT_MN, &l));
	const int64_t n = l.n;
	Acc *y = l.y, *t;
	cua_l2_scratch sc(stream);
	CUA_CHECK(sc.get(&t, n));
	CUA_CHECK(L::run(l.x, l.W, l.b, CUA_LIN_BIAS, t, l.M, l.N, l.K, stream));
	CUA_CHECK(cua_l2_groupnorm<Acc>(in, 3, t, y, l.M, l.N, 512, stream));
	cua_ep_unary<Acc>(n, cua_ep_leaky_relu{0.01}, y, y, stream);
	cua_ep_binary<Acc>(n, cua_ep_add(), y, y, y, stream);
	return (int)cudaGetLastError();
}

/* L2/063: y = relu(x·Wᵀ + b) / 2. */
template <typename L, typename Acc>
static int l2_063(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	return cua_l2_unary_chain<L, Acc>(in, n_in, out, n_out, stream, CUA_LIN_BIAS_RELU,
	                                 cua_ep_div_s{2.0});
}

/* L2/064: s = logsumexp_n (x·Wᵀ + b)[m,n] keepdim; y = gelu(gelu(leaky(leaky(s)))),
 * slopes 0.01, [M,1]. */
template <typename L, typename Acc>
static int l2_064(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	cua_l2_io<Acc> l;
	CUA_CHECK(cua_l2_begin(in, n_in, 3, out, n_out, 2, CUA_L2_OUT_M1, &l));
	Acc *y = l.y, *t;
	cua_l2_scratch sc(stream);
	CUA_CHECK(sc.get(&t, l.M * l.N));
	CUA_CHECK(L::run(l.x, l.W, l.b, CUA_LIN_BIAS, t, l.M, l.N, l.K, stream));
	cua_ep_reduce<Acc>(CUA_EP_LSE, t, y, l.M, l.N, 1, stream);
	cua_ep_unary<Acc>(l.M, cua_ep_leaky_relu{0.01}, y, y, stream);
	cua_ep_unary<Acc>(l.M, cua_ep_leaky_relu{0.01}, y, y, stream);
	cua_ep_unary<Acc>(l.M, cua_ep_gelu_erf(), y, y, stream);
	cua_ep_unary<Acc>(l.M, cua_ep_gelu_erf(), y, y, stream);
	return (int)cudaGetLastError();
}

/* L2/066: t = (x·Wᵀ + b)·keep/0.8 (dropout p = 0.2 with the declared u8 keep
 * mask); y = softmax over n. Inputs x, W, b, keep [M,N]. */
template <typename L, typename Acc>
static int l2_066(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	cua_l2_io<Acc> l;
	CUA_CHECK(cua_l2_begin(in, n_in, 4, out, n_out, 2, CUA_L2_OUT_MN, &l));
	const int64_t dims[2] = {l.M, l.N};
	CUA_CHECK(cua_check_extents(&in[3], CUA_U8, 2, dims));
	const int64_t n = l.n;
	Acc *y = l.y, *t;
	cua_l2_scratch sc(stream);
	CUA_CHECK(sc.get(&t, n));
	CUA_CHECK(L::run(l.x, l.W, l.b, CUA_LIN_BIAS, t, l.M, l.N, l.K, stream));
	cua_ep_binary<Acc>(n, cua_ep_masked_scale{1.0 / 0.8}, t, (const uint8_t *)in[3].data, t,
	                   stream);
	cua_ep_softmax<Acc>(t, y, l.M, l.N, 1, stream);
	return (int)cudaGetLastError();
}

/* L2/068: y = min(x·Wᵀ + b, 2) − 2. */
template <typename L, typename Acc>
static int l2_068(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	return cua_l2_unary_chain<L, Acc>(in, n_in, out, n_out, stream, CUA_LIN_BIAS,
	                                 cua_ep_clamp{-INFINITY, 2.0}, cua_ep_sub_s{2.0});
}

/* L2/070: t = x·Wᵀ + b; y = sigmoid(t)·2 + t. */
template <typename L, typename Acc>
static int l2_070(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	cua_l2_io<Acc> l;
	CUA_CHECK(cua_l2_begin(in, n_in, 3, out, n_out, 2, CUA_L2_OUT_MN, &l));
	const int64_t n = l.n;
	Acc *y = l.y, *s;
	cua_l2_scratch sc(stream);
	CUA_CHECK(sc.get(&s, n));
	CUA_CHECK(L::run(l.x, l.W, l.b, CUA_LIN_BIAS, y, l.M, l.N, l.K, stream));
	cua_ep_unary<Acc>(n, cua_ep_sigmoid(), y, s, stream);
	cua_ep_unary<Acc>(n, cua_ep_mul_s{2.0}, s, s, stream);
	cua_ep_binary<Acc>(n, cua_ep_add(), y, s, y, stream);
	return (int)cudaGetLastError();
}

/* L2/075: g = GroupNorm512(x·Wᵀ + b); m[r] = min_n g[r,n]; the [M,1] m plus
 * bias [1,N,1,1] broadcasts to y [1,N,M,1]: y[0,c,r,0] = m[r] + bias[c].
 * Inputs x, W, b, gn_weight, gn_bias, bias. */
template <typename L, typename Acc>
static int l2_075(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	struct cua_l2_lin l;
	CUA_CHECK(cua_l2_linear_in(in, n_in, 6, out, n_out, 2, &l));
	const int64_t bdims[4] = {1, l.N, 1, 1};
	CUA_CHECK(cua_check_extents(&in[5], CUA_F32, 4, bdims));
	const int64_t dims[4] = {1, l.N, l.M, 1}, n = l.M * l.N;
	Acc *y, *t, *g, *m;
	CUA_CHECK(cua_l2_check_out(out, 4, dims, &y));
	cua_l2_scratch sc(stream);
	CUA_CHECK(sc.get(&t, n));
	CUA_CHECK(sc.get(&g, n));
	CUA_CHECK(sc.get(&m, l.M));
	CUA_CHECK(L::run(l.x, l.W, l.b, CUA_LIN_BIAS, t, l.M, l.N, l.K, stream));
	CUA_CHECK(cua_l2_groupnorm<Acc>(in, 3, t, g, l.M, l.N, 512, stream));
	cua_ep_reduce<Acc>(CUA_EP_MIN, g, m, l.M, l.N, 1, stream);
	cua_ep_bcast2<Acc>(n, cua_ep_add(), (const Acc *)m, l.M, 1, cua_l2_f32(&in[5]), l.N, l.M, y,
	                   stream);
	return (int)cudaGetLastError();
}

/* L2/076: y = relu(x·Wᵀ + bias) (Linear without bias, then + bias). Inputs x,
 * W, bias. */
template <typename L, typename Acc>
static int l2_076(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	return cua_l2_unary_chain<L, Acc>(in, n_in, out, n_out, stream, CUA_LIN_BIAS_RELU);
}

/* L2/080 (max over dim 0, a departure): c[n] = max_m (x·Wᵀ + b)[m,n], [1,N];
 * y = gelu(c − mean_n c), [1,N]. */
template <typename L, typename Acc>
static int l2_080(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	cua_l2_io<Acc> l;
	CUA_CHECK(cua_l2_begin(in, n_in, 3, out, n_out, 2, CUA_L2_OUT_1N, &l));
	Acc *y = l.y, *t, *c, *mu;
	cua_l2_scratch sc(stream);
	CUA_CHECK(sc.get(&t, l.M * l.N));
	CUA_CHECK(sc.get(&c, l.N));
	CUA_CHECK(sc.get(&mu, 1));
	CUA_CHECK(L::run(l.x, l.W, l.b, CUA_LIN_BIAS, t, l.M, l.N, l.K, stream));
	cua_ep_reduce<Acc>(CUA_EP_MAX, t, c, 1, l.M, l.N, stream);
	cua_ep_reduce<Acc>(CUA_EP_MEAN, c, mu, 1, l.N, 1, stream);
	cua_ep_bcast<Acc>(l.N, 1, l.N, cua_ep_sub(), c, mu, y, stream);
	cua_ep_unary<Acc>(l.N, cua_ep_gelu_erf(), y, y, stream);
	return (int)cudaGetLastError();
}

/* L2/081: y = clamp(tanh(clamp(swish(x·Wᵀ + b)/2, −1, 1)), −1, 1). */
template <typename L, typename Acc>
static int l2_081(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	cua_l2_io<Acc> l;
	CUA_CHECK(cua_l2_begin(in, n_in, 3, out, n_out, 2, CUA_L2_OUT_MN, &l));
	const int64_t n = l.n;
	Acc *y = l.y, *s;
	cua_l2_scratch sc(stream);
	CUA_CHECK(sc.get(&s, n));
	CUA_CHECK(L::run(l.x, l.W, l.b, CUA_LIN_BIAS, y, l.M, l.N, l.K, stream));
	cua_l2_swish2<Acc>(y, s, n, stream);
	cua_ep_unary<Acc>(n, cua_ep_div_s{2.0}, y, y, stream);
	cua_ep_unary<Acc>(n, cua_ep_clamp{-1.0, 1.0}, y, y, stream);
	cua_ep_unary<Acc>(n, cua_ep_tanh(), y, y, stream);
	cua_ep_unary<Acc>(n, cua_ep_clamp{-1.0, 1.0}, y, y, stream);
	return (int)cudaGetLastError();
}

/* L2/084: y = softmax_n(scale·BatchNorm1d_batchstats(x·Wᵀ)). Inputs x, W,
 * bn_weight, bn_bias, scale [1] (the Linear's bias is dropped: BatchNorm
 * removes it exactly). */
template <typename L, typename Acc>
static int l2_084(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	cua_l2_io<Acc> l;
	CUA_CHECK(cua_l2_begin(in, n_in, 5, out, n_out, -1, CUA_L2_OUT_MN, &l));
	CUA_CHECK(cua_check_vec(&in[4], 1));
	const int64_t n = l.n;
	Acc *y = l.y, *t, *u;
	cua_l2_scratch sc(stream);
	CUA_CHECK(sc.get(&t, n));
	CUA_CHECK(sc.get(&u, n));
	CUA_CHECK(L::run(l.x, l.W, l.b, CUA_LIN_NONE, t, l.M, l.N, l.K, stream));
	CUA_CHECK(cua_l2_batchnorm<Acc>(in, 2, t, u, l.M, l.N, stream));
	cua_ep_bcast<Acc>(n, 1, 1, cua_ep_mul(), u, cua_l2_f32(&in[4]), u, stream);
	cua_ep_softmax<Acc>(u, y, l.M, l.N, 1, stream);
	return (int)cudaGetLastError();
}

/* L2/086: y = gelu((x·Wᵀ + b)/10). */
template <typename L, typename Acc>
static int l2_086(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	return cua_l2_unary_chain<L, Acc>(in, n_in, out, n_out, stream, CUA_LIN_BIAS,
	                                 cua_ep_div_s{10.0}, cua_ep_gelu_erf());
}

/* L2/088: g = GroupNorm256(x·Wᵀ + b); u = swish(g)·multiply_weight;
 * y = swish(u). Inputs x, W, b, gn_weight, gn_bias, multiply_weight. */
template <typename L, typename Acc>
static int l2_088(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	cua_l2_io<Acc> l;
	CUA_CHECK(cua_l2_begin(in, n_in, 6, out, n_out, 2, CUA_L2_OUT_MN, &l));
	CUA_CHECK(cua_check_vec(&in[5], l.N));
	const int64_t n = l.n;
	Acc *y = l.y, *t, *s;
	cua_l2_scratch sc(stream);
	CUA_CHECK(sc.get(&t, n));
	CUA_CHECK(sc.get(&s, n));
	CUA_CHECK(L::run(l.x, l.W, l.b, CUA_LIN_BIAS, t, l.M, l.N, l.K, stream));
	CUA_CHECK(cua_l2_groupnorm<Acc>(in, 3, t, y, l.M, l.N, 256, stream));
	cua_l2_swish2<Acc>(y, s, n, stream);
	cua_ep_bcast<Acc>(n, l.N, 1, cua_ep_mul(), y, cua_l2_f32(&in[5]), y, stream);
	cua_l2_swish2<Acc>(y, s, n, stream);
	return (int)cudaGetLastError();
}

/* L2/094: y = GroupNorm256(mish(hardtanh(x·Wᵀ + b + bias, −1, 1))). Inputs x,
 * W, b, bias, gn_weight, gn_bias. */
template <typename L, typename Acc>
static int l2_094(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	cua_l2_io<Acc> l;
	CUA_CHECK(cua_l2_begin(in, n_in, 6, out, n_out, 2, CUA_L2_OUT_MN, &l));
	CUA_CHECK(cua_check_vec(&in[3], l.N));
	const int64_t n = l.n;
	Acc *y = l.y, *t;
	cua_l2_scratch sc(stream);
	CUA_CHECK(sc.get(&t, n));
	CUA_CHECK(L::run(l.x, l.W, l.b, CUA_LIN_BIAS, t, l.M, l.N, l.K, stream));
	cua_ep_bcast<Acc>(n, l.N, 1, cua_ep_add(), t, cua_l2_f32(&in[3]), t, stream);
	cua_ep_unary<Acc>(n, cua_ep_clamp{-1.0, 1.0}, t, t, stream);
	cua_ep_unary<Acc>(n, cua_ep_mish(), t, t, stream);
	CUA_CHECK(cua_l2_groupnorm<Acc>(in, 4, t, y, l.M, l.N, 256, stream));
	return (int)cudaGetLastError();
}

/* L2/095: t = x·Wᵀ + b + add_value; y = hardtanh(gelu(tanh(swish(t))), −1, 1).
 * Inputs x, W, b, add_value. */
template <typename L, typename Acc>
static int l2_095(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	cua_l2_io<Acc> l;
	CUA_CHECK(cua_l2_begin(in, n_in, 4, out, n_out, 2, CUA_L2_OUT_MN, &l));
	CUA_CHECK(cua_check_vec(&in[3], l.N));
	const int64_t n = l.n;
	Acc *y = l.y, *s;
	cua_l2_scratch sc(stream);
	CUA_CHECK(sc.get(&s, n));
	CUA_CHECK(L::run(l.x, l.W, l.b, CUA_LIN_BIAS, y, l.M, l.N, l.K, stream));
	cua_ep_bcast<Acc>(n, l.N, 1, cua_ep_add(), y, cua_l2_f32(&in[3]), y, stream);
	cua_l2_swish2<Acc>(y, s, n, stream);
	cua_ep_unary<Acc>(n, cua_ep_tanh(), y, y, stream);
	cua_ep_unary<Acc>(n, cua_ep_gelu_erf(), y, y, stream);
	cua_ep_unary<Acc>(n, cua_ep_clamp{-1.0, 1.0}, y, y, stream);
	return (int)cudaGetLastError();
}

/* L2/097: t = BatchNorm1d_batchstats(x·Wᵀ) + bias; y = swish(t / 1). Inputs x,
 * W, bn_weight, bn_bias, bias [1] (the Linear's bias is dropped: BatchNorm
 * removes it exactly). */
template <typename L, typename Acc>
static int l2_097(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	cua_l2_io<Acc> l;
	CUA_CHECK(cua_l2_begin(in, n_in, 5, out, n_out, -1, CUA_L2_OUT_MN, &l));
	CUA_CHECK(cua_check_vec(&in[4], 1));
	const int64_t n = l.n;
	Acc *y = l.y, *t, *s;
	cua_l2_scratch sc(stream);
	CUA_CHECK(sc.get(&t, n));
	CUA_CHECK(sc.get(&s, n));
	CUA_CHECK(L::run(l.x, l.W, l.b, CUA_LIN_NONE, t, l.M, l.N, l.K, stream));
	CUA_CHECK(cua_l2_batchnorm<Acc>(in, 2, t, y, l.M, l.N, stream));
	cua_ep_bcast<Acc>(n, 1, 1, cua_ep_add(), y, cua_l2_f32(&in[4]), y, stream);
	cua_ep_unary<Acc>(n, cua_ep_div_s{1.0}, y, y, stream);
	cua_l2_swish2<Acc>(y, s, n, stream);
	return (int)cudaGetLastError();
}

/* L2/098: p = AvgPool1d(16) of each row of x·Wᵀ + b (N/16 windows, floor);
 * y[m] = max_j (gelu(p)·2)[m,j]. */
template <typename L, typename Acc>
static int l2_098(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	struct cua_l2_lin l;
	CUA_CHECK(cua_l2_linear_in(in, n_in, 3, out, n_out, 2, &l));
	if (l.N < 16)
		return CUA_CHECK_E_SHAPE;
	const int64_t dims[1] = {l.M}, P = l.N / 16;
	Acc *y, *t, *p;
	CUA_CHECK(cua_l2_check_out(out, 1, dims, &y));
	cua_l2_scratch sc(stream);
	CUA_CHECK(sc.get(&t, l.M * l.N));
	CUA_CHECK(sc.get(&p, l.M * P));
	CUA_CHECK(L::run(l.x, l.W, l.b, CUA_LIN_BIAS, t, l.M, l.N, l.K, stream));
	cua_ep_pool_last<Acc>(false, t, p, l.M, l.N, 16, stream);
	cua_ep_unary<Acc>(l.M * P, cua_ep_gelu_erf(), p, p, stream);
	cua_ep_unary<Acc>(l.M * P, cua_ep_mul_s{2.0}, p, p, stream);
	cua_ep_reduce<Acc>(CUA_EP_MAX, p, y, l.M, P, 1, stream);
	return (int)cudaGetLastError();
}

/* L2/099: y = softmax_n(gelu(x·Wᵀ + b)). */
template <typename L, typename Acc>
static int l2_099(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	cua_l2_io<Acc> l;
	CUA_CHECK(cua_l2_begin(in, n_in, 3, out, n_out, 2, CUA_L2_OUT_MN, &l));
	const int64_t n = l.n;
	Acc *y = l.y, *t;
	cua_l2_scratch sc(stream);
	CUA_CHECK(sc.get(&t, n));
	CUA_CHECK(L::run(l.x, l.W, l.b, CUA_LIN_BIAS, t, l.M, l.N, l.K, stream));
	cua_ep_unary<Acc>(n, cua_ep_gelu_erf(), t, t, stream);
	cua_ep_softmax<Acc>(t, y, l.M, l.N, 1, stream);
	return (int)cudaGetLastError();
}

#endif /* CUA_COMMON_L2_GEMM_CUH */
