/* convnd.cuh — direct 1-D / 2-D / 3-D convolution (cross-correlation, as in
 * PyTorch's conv1d/conv2d/conv3d), channels-first (NCL, NCHW, NCDHW), one thread
 * per output element. Header-only; the references of L1/056–072 use it.
 *
 *     y[n,f,o..] = Σ_{c<C/G} Σ_{k..} x[n, g·C/G + c, o..·s − p + k..·d] · w[f,c,k..]
 *     g = f / (F/G);  x outside the input is zero (zero padding)
 *
 * per spatial dim: output extent (in + 2p − d(k−1) − 1)/s + 1, stride s ≥ 1,
 * padding p ≥ 0 on each side, dilation d ≥ 1. x [N,C,in..], w [F,C/G,k..],
 * y [N,F,out..], all contiguous. Products are accumulated in Acc in (c, kd, kh,
 * kw) order and stored as Out: the fp32 reference and the fp64 oracle share the
 * kernel, and an intermediate (depthwise-separable) may be fp32 or fp64 (TX).
 *
 * This is the nvcc baseline, deliberately untiled: consecutive threads take
 * consecutive outputs along the fastest dim, so x loads are coalesced (stride
 * s) and w loads are warp broadcasts; 2·N·F·out..·(C/G)·k.. flops at about one
 * L1 load per FMA (~1.2 TFLOP/s on an H200 for a 3×3, C = 128 layer). */
#ifndef CUA_COMMON_CONVND_CUH
#define CUA_COMMON_CONVND_CUH

#include "check.cuh"

#define CUA_CONV_THREADS 256

/* PyTorch's output extent: floor((in + 2p - d(k-1) - 1) / s) + 1; < 1 if the
 * dilated kernel does not fit in the padded input. */
static inline int64_t cua_conv_out_size(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d)
{
	int64_t span = in + 2 * p - d * (k - 1) - 1;
	return span < 0 ? 0 : span / s + 1;
}

/* A task's fixed hyper-parameters: nsp entries per array, slowest spatial dim
 * first (D, H, W; or H, W; or L). */
struct cua_conv_hparams {
	int nsp;                     /* spatial dims: 1, 2 or 3 */
	int64_t k[3];                /* kernel extents the task fixes */
	int64_t s[3], p[3], d[3];    /* stride >= 1, padding >= 0, dilation >= 1 */
	int64_t groups;              /* >= 1; 0 = depthwise (one group per input channel) */
};

/* One convolution, fully resolved. Spatial arrays are right-aligned: entry
 * 3 − nsp + i is spatial dim i, so [2] is always the fastest (L or W); unused
 * leading entries are 1 (in, k, out, s, d) or 0 (p). */
struct cua_convnd_desc {
	int nsp;
	int64_t N, C, F, G;          /* G divides C and F */
	int64_t in[3], k[3], out[3], s[3], p[3], d[3];
};

/* Resolves hp against the extents of x (xs, nsp + 2 of them) and w (ws): checks
 * the hyper-parameters (CUA_CHECK_E_PARAM) and that w matches them and x
 * (CUA_CHECK_E_SHAPE), and computes the output extents (>= 1, else E_SHAPE). */
static inline int cua_convnd_make(const struct cua_conv_hparams *hp, const int64_t *xs,
                                  const int64_t *ws, struct cua_convnd_desc *d)
{
	const int nsp = hp->nsp;
	if (nsp < 1 || nsp > 3 || hp->groups < 0)
		return CUA_CHECK_E_PARAM;
	for (int i = 0; i < nsp; i++)
		if (hp->k[i] < 1 || hp->s[i] < 1 || hp->p[i] < 0 || hp->d[i] < 1)
			return CUA_CHECK_E_PARAM;
	d->nsp = nsp;
	d->N = xs[0];
	d->C = xs[1];
	d->F = ws[0];
	d->G = hp->groups > 0 ? hp->groups : d->C;
	if (d->C % d->G != 0 || d->F % d->G != 0 || ws[1] != d->C / d->G)
		return CUA_CHECK_E_SHAPE;
	for (int j = 0; j < 3; j++) {
		d->in[j] = d->k[j] = d->out[j] = d->s[j] = d->d[j] = 1;
		d->p[j] = 0;
	}
	for (int i = 0; i < nsp; i++) {
		const int j = 3 - nsp + i;
		if (ws[2 + i] != hp->k[i])
			return CUA_CHECK_E_SHAPE;
		d->in[j] = xs[2 + i];
		d->k[j] = hp->k[i];
		d->s[j] = hp->s[i];
		d->p[j] = hp->p[i];
		d->d[j] = hp->d[i];
		d->out[j] = cua_conv_out_size(d->in[j], d->k[j], d->s[j], d->p[j], d->d[j]);
		if (d->out[j] < 1)
			return CUA_CHECK_E_SHAPE;
	}
	return 0;
}

/* y is [N, F, out..] of d. */
static inline int cua_convnd_check_out(const struct cua_tensor *y, const struct cua_convnd_desc *d)
{
	if (y->ndim != d->nsp + 2)
		return CUA_CHECK_E_NDIM;
	if (y->shape[0] != d->N || y->shape[1] != d->F)
		return CUA_CHECK_E_SHAPE;
	for (int i = 0; i < d->nsp; i++)
		if (y->shape[2 + i] != d->out[3 - d->nsp + i])
			return CUA_CHECK_E_SHAPE;
	return 0;
}

/* Checks x and w (f32) and y (dtype of Out), all of rank nsp + 2, against hp
 * and fills d. */
template <typename Out>
static inline int cua_convnd_setup(const struct cua_tensor *x, const struct cua_tensor *w,
                                   const struct cua_tensor *y, const struct cua_conv_hparams *hp,
                                   struct cua_convnd_desc *d)
{
	if (hp->nsp < 1 || hp->nsp > 3)
		return CUA_CHECK_E_PARAM;
	CUA_CHECK(cua_check_tensor(x, CUA_F32, hp->nsp + 2));
	CUA_CHECK(cua_check_tensor(w, CUA_F32, hp->nsp + 2));
	CUA_CHECK(cua_check_tensor(y, cua_dtype_of<Out>::value, hp->nsp + 2));
	CUA_CHECK(cua_convnd_make(hp, x->shape, w->shape, d));
	return cua_convnd_check_out(y, d);
}

/* NSP is d.nsp: the extents of unused leading dims are compile-time 1 (padding
 * 0), so their loops and index terms fold away and the 2-D instance is the
 * plain 2-D loop nest. */
template <int NSP, typename TX, typename TW, typename Acc, typename Out>
__global__ void convnd_kernel(const TX *__restrict__ x, const TW *__restrict__ w,
                              Out *__restrict__ y, struct cua_convnd_desc d)
{
	const int64_t ID = NSP >= 3 ? d.in[0] : 1, IH = NSP >= 2 ? d.in[1] : 1, IW = d.in[2];
	const int64_t KD = NSP >= 3 ? d.k[0] : 1, KH = NSP >= 2 ? d.k[1] : 1, KW = d.k[2];
	const int64_t OD = NSP >= 3 ? d.out[0] : 1, OH = NSP >= 2 ? d.out[1] : 1, OW = d.out[2];
	const int64_t SD = NSP >= 3 ? d.s[0] : 1, SH = NSP >= 2 ? d.s[1] : 1, SW = d.s[2];
	const int64_t PD = NSP >= 3 ? d.p[0] : 0, PH = NSP >= 2 ? d.p[1] : 0, PW = d.p[2];
	const int64_t DD = NSP >= 3 ? d.d[0] : 1, DH = NSP >= 2 ? d.d[1] : 1, DW = d.d[2];
	const int64_t total = d.N * d.F * OD * OH * OW;
	const int64_t Cg = d.C / d.G, Fg = d.F / d.G;
	const int64_t vol = ID * IH * IW, kvol = KD * KH * KW;
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total;
	     i += (int64_t)gridDim.x * blockDim.x) {
		int64_t ow = i % OW, t = i / OW;
		int64_t oh = t % OH;
		t /= OH;
		int64_t od = t % OD;
		t /= OD;
		int64_t f = t % d.F, n = t / d.F;
		const int64_t id0 = od * SD - PD, ih0 = oh * SH - PH, iw0 = ow * SW - PW;
		const TX *xc = x + (n * d.C + (f / Fg) * Cg) * vol;
		const TW *wc = w + f * Cg * kvol;
		Acc acc = 0;
		for (int64_t c = 0; c < Cg; c++, xc += vol, wc += kvol) {
			for (int64_t kd = 0; kd < KD; kd++) {
				const int64_t id = id0 + kd * DD;
				if (id < 0 || id >= ID)
					continue;
				for (int64_t kh = 0; kh < KH; kh++) {
					const int64_t ih = ih0 + kh * DH;
					if (ih < 0 || ih >= IH)
						continue;
					for (int64_t kw = 0; kw < KW; kw++) {
						const int64_t iw = iw0 + kw * DW;
						if (iw < 0 || iw >= IW)
							continue;
						acc += (Acc)xc[(id * IH + ih) * IW + iw] *
						       (Acc)wc[(kd * KH + kh) * KW + kw];
					}
				}
			}
		}
		y[i] = (Out)acc;
	}
}

/* Enqueue on stream; the caller validated d and checks cudaGetLastError(). */
template <typename TX, typename TW, typename Acc, typename Out>
static inline void cua_convnd_naive(const TX *x, const TW *w, Out *y,
                                    const struct cua_convnd_desc &d, cudaStream_t stream)
{
	const int64_t total = d.N * d.F * d.out[0] * d.out[1] * d.out[2];
	const unsigned int blocks = cua_blocks_1d(total, CUA_CONV_THREADS);
	if (d.nsp == 1)
		convnd_kernel<1, TX, TW, Acc, Out><<<blocks, CUA_CONV_THREADS, 0, stream>>>(x, w, y, d);
	else if (d.nsp == 2)
		convnd_kernel<2, TX, TW, Acc, Out><<<blocks, CUA_CONV_THREADS, 0, stream>>>(x, w, y, d);
	else
		convnd_kernel<3, TX, TW, Acc, Out><<<blocks, CUA_CONV_THREADS, 0, stream>>>(x, w, y, d);
}

/* A whole single-convolution reference: in = {x, w} (f32), out = {y} (Out),
 * hyper-parameters hp. cua_solve is cua_convnd_reference<float, float>,
 * cua_oracle cua_convnd_reference<double, double>. */
template <typename Acc, typename Out>
static inline int cua_convnd_reference(const struct cua_tensor *in, int n_in,
                                       struct cua_tensor *out, int n_out,
                                       const struct cua_conv_hparams *hp, cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 2, out, n_out, 1));
	struct cua_convnd_desc d;
	CUA_CHECK(cua_convnd_setup<Out>(&in[0], &in[1], &out[0], hp, &d));
	cua_convnd_naive<float, float, Acc, Out>((const float *)in[0].data,
	                                         (const float *)in[1].data, (Out *)out[0].data, d,
	                                         stream);
	return (int)cudaGetLastError();
}

#endif /* CUA_COMMON_CONVND_CUH */
