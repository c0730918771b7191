/* conv-transpose.cuh — direct N-D transposed convolution (1-D, 2-D, 3-D; as
 * torch.nn.functional.conv_transpose1d/2d/3d, no bias), channels-first, one
 * thread per output element gathering its contributions. Header-only.
 *
 *     y[n, g·Fg + f, o] = Σ_{c<Cg} Σ_{k} x[n, g·Cg + c, i] · w[g·Cg + c, f, k]
 *         over every (i, k) with o = i·S − P + k·DIL per spatial dimension,
 *         0 ≤ i < in, 0 ≤ k < K;   Cg = C/G, Fg = F/G, g < G
 *     out = (in − 1)·S − 2·P + DIL·(K − 1) + OP + 1   per spatial dimension
 *
 * x [N, C, in...], w [C, F/G, K...] (PyTorch's transposed-convolution weight
 * layout: input channel first), y [N, F, out...], all contiguous. Every case
 * is handled as 3-D with unit leading dimensions, the kernel templated on the
 * number of real ones (NSP) so the unit loops fold away: one kernel serves
 * conv_transpose1d/2d/3d, with any stride, padding, output padding, dilation
 * and groups.
 *
 * Gather form, no atomics, deterministic: for output coordinate o the taps with
 * a source are the k with (o + P − k·DIL) ≡ 0 (mod S) and 0 ≤ (o + P − k·DIL)/S
 * < in; they start at the first such k < S/gcd(S, DIL) and repeat every
 * S/gcd(S, DIL), so no thread walks taps that cannot contribute (neighbouring
 * threads run equal or nearly equal trip counts: little divergence at stride > 1).
 * Products are accumulated in Acc in (tap, c) order and stored as Out: the
 * fp32 reference and the fp64 oracle share the kernel.
 *
 * This is the nvcc baseline, deliberately untiled: consecutive threads take
 * consecutive output columns, so x loads are coalesced and w loads are warp
 * broadcasts; one L1/L2 load per FMA, ~1 TFLOP/s on an H200 (estimated from
 * L1/056's direct kernel; nvcc gives 63/72/96 registers for NSP 1/2/3, no
 * spills). Useful flops are 2·N·C·in_volume·(F/G)·K_volume (every input ×
 * weight product). Host-callable per-element code (convt_output) lets a CPU test
 * compare the index math with a brute-force scatter. */
#ifndef CUA_COMMON_CONV_TRANSPOSE_CUH
#define CUA_COMMON_CONV_TRANSPOSE_CUH

#include "check.cuh"

/* A task's fixed hyper-parameters, per spatial dimension in tensor order
 * (outermost first: depth, height, width; width alone for 1-D). */
struct cua_convt_params {
	int nsp;                     /* spatial dimensions: 1, 2 or 3 */
	int64_t k[3];                /* kernel extents the weight must have */
	int64_t s[3];                /* stride, >= 1 */
	int64_t p[3];                /* padding removed from each side, >= 0 */
	int64_t op[3];               /* output padding added at the end, 0 <= op < max(s, dil) */
	int64_t dil[3];              /* dilation, >= 1 */
	int64_t G;                   /* groups: divides C and F */
};

/* Everything the kernel needs; always 3 spatial dimensions, the unused leading
 * ones with extent 1, kernel 1, stride 1, padding 0, dilation 1. */
struct cua_convt_desc {
	int64_t N, C, F, G;          /* batch, input channels, output channels, groups */
	int64_t in[3], k[3], out[3]; /* spatial extents: input, kernel, output */
	int64_t s[3], p[3], dil[3];
	int64_t step[3];             /* tap period: s / gcd(s, dil) */
};

/* PyTorch's transposed-convolution output extent. */
static inline int64_t cua_convt_out_size(int64_t in, int64_t k, int64_t s, int64_t p, int64_t op,
                                         int64_t dil)
{
	return (in - 1) * s - 2 * p + dil * (k - 1) + op + 1;
}

static inline int64_t cua_convt_gcd(int64_t a, int64_t b)
{
	while (b != 0) {
		int64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* Limits that keep every extent formula far from int64 overflow. */
#define CUA_CONVT_MAX_PARAM (INT64_C(1) << 20)
#define CUA_CONVT_MAX_EXTENT (INT64_C(1) << 40)

/* Validates in = {x, w}, out = {y} against hp (x and w f32, y of dtype
 * out_dtype, ranks nsp + 2, channel counts and every output extent consistent
 * with the formula above) and fills *d. Returns 0 or a CUA_CHECK_E_* code. */
static inline int cua_convt_setup(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                                  int n_out, const struct cua_convt_params &hp,
                                  enum cua_dtype out_dtype, struct cua_convt_desc *d)
{
	CUA_CHECK(cua_check_counts(in, n_in, 2, out, n_out, 1));
	if (hp.nsp < 1 || hp.nsp > 3 || hp.G < 1 || hp.G > CUA_CONVT_MAX_PARAM)
		return CUA_CHECK_E_PARAM;
	for (int j = 0; j < hp.nsp; j++) {
		if (hp.k[j] < 1 || hp.s[j] < 1 || hp.p[j] < 0 || hp.dil[j] < 1 || hp.op[j] < 0 ||
		    hp.k[j] > CUA_CONVT_MAX_PARAM || hp.s[j] > CUA_CONVT_MAX_PARAM ||
		    hp.p[j] > CUA_CONVT_MAX_PARAM || hp.dil[j] > CUA_CONVT_MAX_PARAM ||
		    (hp.op[j] >= hp.s[j] && hp.op[j] >= hp.dil[j]))
			return CUA_CHECK_E_PARAM;
	}
	const int rank = hp.nsp + 2;
	const struct cua_tensor *x = &in[0], *w = &in[1];
	struct cua_tensor *y = &out[0];
	CUA_CHECK(cua_check_tensor(x, CUA_F32, rank));
	CUA_CHECK(cua_check_tensor(w, CUA_F32, rank));
	CUA_CHECK(cua_check_tensor(y, out_dtype, rank));

	d->N = x->shape[0];
	d->C = x->shape[1];
	d->G = hp.G;
	if (d->C % d->G != 0 || w->shape[1] > CUA_CONVT_MAX_EXTENT)
		return CUA_CHECK_E_SHAPE;
	d->F = w->shape[1] * d->G;
	CUA_CHECK(cua_check_dim(w, 0, d->C));
	CUA_CHECK(cua_check_dim(y, 0, d->N));
	CUA_CHECK(cua_check_dim(y, 1, d->F));
	for (int e = 0; e < 3; e++) {
		const int j = e - (3 - hp.nsp);     /* index into hp, < 0 for unused dims */
		if (j < 0) {
			d->in[e] = d->k[e] = d->out[e] = 1;
			d->s[e] = d->dil[e] = d->step[e] = 1;
			d->p[e] = 0;
			continue;
		}
		d->in[e] = x->shape[2 + j];
		d->k[e] = w->shape[2 + j];
		d->out[e] = y->shape[2 + j];
		d->s[e] = hp.s[j];
		d->p[e] = hp.p[j];
		d->dil[e] = hp.dil[j];
		d->step[e] = hp.s[j] / cua_convt_gcd(hp.s[j], hp.dil[j]);
		if (d->in[e] > CUA_CONVT_MAX_EXTENT || d->k[e] != hp.k[j])
			return CUA_CHECK_E_SHAPE;
		if (d->out[e] != cua_convt_out_size(d->in[e], d->k[e], d->s[e], d->p[e], hp.op[j],
		                                    d->dil[e]))
			return CUA_CHECK_E_SHAPE;
	}
	return 0;
}

#define CUA_CONVT_THREADS 256

/* First tap k of one dimension that lands on an input sample (o + p − k·dil
 * divisible by s), or k_n when no k < min(step, k_n) does. */
__host__ __device__ __forceinline__ int64_t convt_first_tap(int64_t o, int64_t k_n, int64_t s,
                                                            int64_t p, int64_t dil, int64_t step)
{
	if (s == 1)
		return 0;
	const int64_t lim = step < k_n ? step : k_n;
	for (int64_t k = 0; k < lim; k++)
		if ((o + p - k * dil) % s == 0)
			return k;
	return k_n;
}

/* Spatial dimension e of d, or the unit dimension's value when e is one of the
 * 3 − NSP unused leading ones (a compile-time constant, so those loops fold away). */
#define CONVT_DIM(e, field, unit) ((e) >= 3 - NSP ? d.field[e] : (int64_t)(unit))

/* Output element i (row-major index into y [N, F, out0, out1, out2]) in Acc, for
 * NSP = d's number of spatial dimensions. Host-callable too, so a CPU test can
 * check the index math without a GPU. */
template <int NSP, typename In, typename Acc>
__host__ __device__ __forceinline__ Acc convt_output(const In *__restrict__ x,
                                                     const In *__restrict__ w,
                                                     const struct cua_convt_desc &d, int64_t i)
{
	const int64_t in0 = CONVT_DIM(0, in, 1), in1 = CONVT_DIM(1, in, 1), in2 = d.in[2];
	const int64_t k0n = CONVT_DIM(0, k, 1), k1n = CONVT_DIM(1, k, 1), k2n = d.k[2];
	const int64_t Cg = d.C / d.G, Fg = d.F / d.G;
	const int64_t xplane = in0 * in1 * in2;
	const int64_t kvol = k0n * k1n * k2n;
	const int64_t wstride = Fg * kvol;          /* from w[c, f, ...] to w[c + 1, f, ...] */
	const int64_t o2 = i % d.out[2];
	int64_t t = i / d.out[2];
	const int64_t o1 = NSP >= 2 ? t % d.out[1] : 0;
	t = NSP >= 2 ? t / d.out[1] : t;
	const int64_t o0 = NSP >= 3 ? t % d.out[0] : 0;
	t = NSP >= 3 ? t / d.out[0] : t;
	const int64_t f = t % d.F, n = t / d.F;
	const int64_t g = f / Fg, fg = f - g * Fg;
	const In *xg = x + (n * d.C + g * Cg) * xplane;         /* x[n, g·Cg, 0, 0, 0] */
	const In *wg = w + (g * Cg * Fg + fg) * kvol;           /* w[g·Cg, fg, 0, 0, 0] */
	Acc acc = 0;
	for (int64_t k0 = convt_first_tap(o0, k0n, CONVT_DIM(0, s, 1), CONVT_DIM(0, p, 0),
	                                  CONVT_DIM(0, dil, 1), CONVT_DIM(0, step, 1));
	     k0 < k0n; k0 += CONVT_DIM(0, step, 1)) {
		const int64_t t0 = o0 + CONVT_DIM(0, p, 0) - k0 * CONVT_DIM(0, dil, 1);
		if (t0 < 0)
			break;                                  /* t0 falls as k0 grows */
		const int64_t i0 = CONVT_DIM(0, s, 1) == 1 ? t0 : t0 / CONVT_DIM(0, s, 1);
		if (i0 >= in0)
			continue;
		for (int64_t k1 = convt_first_tap(o1, k1n, CONVT_DIM(1, s, 1), CONVT_DIM(1, p, 0),
		                                  CONVT_DIM(1, dil, 1), CONVT_DIM(1, step, 1));
		     k1 < k1n; k1 += CONVT_DIM(1, step, 1)) {
			const int64_t t1 = o1 + CONVT_DIM(1, p, 0) - k1 * CONVT_DIM(1, dil, 1);
			if (t1 < 0)
				break;
			const int64_t i1 = CONVT_DIM(1, s, 1) == 1 ? t1 : t1 / CONVT_DIM(1, s, 1);
			if (i1 >= in1)
				continue;
			for (int64_t k2 = convt_first_tap(o2, k2n, d.s[2], d.p[2], d.dil[2], d.step[2]);
			     k2 < k2n; k2 += d.step[2]) {
				const int64_t t2 = o2 + d.p[2] - k2 * d.dil[2];
				if (t2 < 0)
					break;
				const int64_t i2 = d.s[2] == 1 ? t2 : t2 / d.s[2];
				if (i2 >= in2)
					continue;
				const In *xp = xg + (i0 * in1 + i1) * in2 + i2;
				const In *wp = wg + (k0 * k1n + k1) * k2n + k2;
#ifdef __CUDA_ARCH__
#pragma unroll 4
#endif
				for (int64_t c = 0; c < Cg; c++)
					acc += (Acc)xp[c * xplane] * (Acc)wp[c * wstride];
			}
		}
	}
	return acc;
}

#undef CONVT_DIM

template <int NSP, typename In, typename Acc, typename Out>
__global__ void conv_transpose_kernel(const In *__restrict__ x, const In *__restrict__ w,
                                      Out *__restrict__ y, struct cua_convt_desc d)
{
	const int64_t total = d.N * d.F * d.out[0] * d.out[1] * d.out[2];
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total;
	     i += (int64_t)gridDim.x * blockDim.x)
		y[i] = (Out)convt_output<NSP, In, Acc>(x, w, d, i);
}

/* Enqueue on stream for nsp spatial dimensions (1–3); the caller validated d
 * with cua_convt_setup() and checks cudaGetLastError(). */
template <typename In, typename Acc, typename Out>
static inline void cua_convt_naive(const In *x, const In *w, Out *y,
                                   const struct cua_convt_desc &d, int nsp, cudaStream_t stream)
{
	const int64_t total = d.N * d.F * d.out[0] * d.out[1] * d.out[2];
	const unsigned int blocks = cua_blocks_1d(total, CUA_CONVT_THREADS);
	if (nsp == 1)
		conv_transpose_kernel<1, In, Acc, Out>
		    <<<blocks, CUA_CONVT_THREADS, 0, stream>>>(x, w, y, d);
	else if (nsp == 2)
		conv_transpose_kernel<2, In, Acc, Out>
		    <<<blocks, CUA_CONVT_THREADS, 0, stream>>>(x, w, y, d);
	else
		conv_transpose_kernel<3, In, Acc, Out>
		    <<<blocks, CUA_CONVT_THREADS, 0, stream>>>(x, w, y, d);
}

/* The whole reference: validate, launch, report. Acc/Out = float/float for
 * cua_solve, double/double for cua_oracle. */
template <typename Acc, typename Out>
static inline int cua_convt_reference(const struct cua_tensor *in, int n_in,
                                      struct cua_tensor *out, int n_out,
                                      const struct cua_convt_params &hp, cudaStream_t stream)
{
	struct cua_convt_desc d;
	CUA_CHECK(cua_convt_setup(in, n_in, out, n_out, hp, cua_dtype_of<Out>::value, &d));
	cua_convt_naive<float, Acc, Out>((const float *)in[0].data, (const float *)in[1].data,
	                                 (Out *)out[0].data, d, hp.nsp, stream);
	return (int)cudaGetLastError();
}

#endif /* CUA_COMMON_CONV_TRANSPOSE_CUH */
