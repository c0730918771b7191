/* poolnd.cuh — 3-D max and average pooling, NCDHW, one thread per output
 * element. Header-only; the 3-D sibling of pool2d.cuh (1-D and 2-D pooling use
 * pool2d.cuh, 1-D as H = 1), plus cua_pool_task(), the body every pooling
 * task's reference shares. Windows follow PyTorch (floor mode):
 *
 *     window(od, oh, ow) = { (od*SD - PD + kd*DD, oh*SH - PH + kh*DH, ow*SW - PW + kw*DW) :
 *                            kd < KD, kh < KH, kw < KW }
 *     max: y = max of x over the window positions inside [0,D)×[0,H)×[0,W) —
 *          padding never wins (it acts as -inf)
 *     avg: y = (Σ of x over the real positions) / divisor, where divisor counts
 *          the real positions, or, with count_include_pad, the positions inside
 *          the padded extent [-PD, D+PD)×[-PH, H+PH)×[-PW, W+PW) (PyTorch's
 *          avg_pool3d rule; with dilation 1 in floor mode that is KD·KH·KW)
 *
 * x [N,C,D,H,W], y [N,C,OD,OH,OW] contiguous; OD/OH/OW from
 * cua_pool_out_size() (pool2d.cuh). The reduction runs in Acc and is stored as
 * Out: the fp32 reference and the fp64 oracle share the kernels.
 *
 * Napkin math: each input element is read about (KD/SD)·(KH/SH)·(KW/SW) times,
 * mostly from L1/L2; the HBM floor is 4·(N·C·D·H·W + N·C·OD·OH·OW) bytes for
 * f32. Consecutive threads take consecutive ow, so a warp's loads of one
 * (kd, kh, kw) span 32·SW consecutive floats. */
#ifndef CUA_COMMON_POOLND_CUH
#define CUA_COMMON_POOLND_CUH

#include "pool2d.cuh"   /* cua_pool_out_size, CUA_POOL_THREADS */

struct cua_pool3d_desc {
	int64_t N, C, D, H, W;       /* input */
	int64_t OD, OH, OW;          /* output */
	int64_t KD, KH, KW;          /* window */
	int64_t SD, SH, SW;          /* stride, >= 1 */
	int64_t PD, PH, PW;          /* implicit padding on each side, >= 0 */
	int64_t DD, DH, DW;          /* dilation, >= 1 */
	bool count_include_pad;      /* avg only */
};

/* Checks the hyper-parameters and that OD/OH/OW match them. PyTorch also
 * requires each padding <= half its window; with it every window holds a real
 * position. */
static inline int cua_pool3d_validate(const struct cua_pool3d_desc &d)
{
	if (d.KD < 1 || d.KH < 1 || d.KW < 1 || d.SD < 1 || d.SH < 1 || d.SW < 1 || d.DD < 1 ||
	    d.DH < 1 || d.DW < 1 || d.PD < 0 || d.PH < 0 || d.PW < 0 || 2 * d.PD > d.KD ||
	    2 * d.PH > d.KH || 2 * d.PW > d.KW)
		return CUA_CHECK_E_PARAM;
	if (d.OD != cua_pool_out_size(d.D, d.KD, d.SD, d.PD, d.DD) ||
	    d.OH != cua_pool_out_size(d.H, d.KH, d.SH, d.PH, d.DH) ||
	    d.OW != cua_pool_out_size(d.W, d.KW, d.SW, d.PW, d.DW) || d.OD < 1 || d.OH < 1 ||
	    d.OW < 1)
		return CUA_CHECK_E_SHAPE;
	return 0;
}

/* Number of window taps k < K with start + k*dil in [lo, hi). */
static __device__ __forceinline__ int64_t pool_taps_in(int64_t start, int64_t K, int64_t dil,
                                                       int64_t lo, int64_t hi)
{
	int64_t n = 0;
	for (int64_t k = 0; k < K; k++) {
		int64_t p = start + k * dil;
		n += p >= lo && p < hi;
	}
	return n;
}

/* Max (IsMax) or average pooling, one output per loop iteration. */
template <typename In, typename Acc, typename Out, bool IsMax>
__global__ void pool3d_kernel(const In *__restrict__ x, Out *__restrict__ y,
                              struct cua_pool3d_desc d)
{
	const int64_t total = d.N * d.C * d.OD * d.OH * d.OW;
	const int64_t plane = d.H * d.W, volume = d.D * plane;
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total;
	     i += (int64_t)gridDim.x * blockDim.x) {
		int64_t ow = i % d.OW, t = i / d.OW;
		int64_t oh = t % d.OH;
		t /= d.OH;
		int64_t od = t % d.OD, nc = t / d.OD;
		const int64_t id0 = od * d.SD - d.PD, ih0 = oh * d.SH - d.PH, iw0 = ow * d.SW - d.PW;
		const In *xp = x + nc * volume;
		Acc acc = IsMax ? (Acc)-INFINITY : (Acc)0;
		for (int64_t kd = 0; kd < d.KD; kd++) {
			const int64_t id = id0 + kd * d.DD;
			if (id < 0 || id >= d.D)
				continue;
			for (int64_t kh = 0; kh < d.KH; kh++) {
				const int64_t ih = ih0 + kh * d.DH;
				if (ih < 0 || ih >= d.H)
					continue;
				for (int64_t kw = 0; kw < d.KW; kw++) {
					const int64_t iw = iw0 + kw * d.DW;
					if (iw < 0 || iw >= d.W)
						continue;
					const Acc v = (Acc)xp[id * plane + ih * d.W + iw];
					if (IsMax)
						acc = v > acc ? v : acc;
					else
						acc += v;
				}
			}
		}
		if (!IsMax) {
			int64_t div;
			if (d.count_include_pad)
				div = pool_taps_in(id0, d.KD, d.DD, -d.PD, d.D + d.PD) *
				      pool_taps_in(ih0, d.KH, d.DH, -d.PH, d.H + d.PH) *
				      pool_taps_in(iw0, d.KW, d.DW, -d.PW, d.W + d.PW);
			else
				div = pool_taps_in(id0, d.KD, d.DD, 0, d.D) *
				      pool_taps_in(ih0, d.KH, d.DH, 0, d.H) *
				      pool_taps_in(iw0, d.KW, d.DW, 0, d.W);
			acc = acc / (Acc)div;
		}
		y[i] = (Out)acc;
	}
}

/* Enqueue on stream; the caller validates d and checks cudaGetLastError(). */
template <typename In, typename Acc, typename Out>
static inline void cua_maxpool3d(const In *x, Out *y, const struct cua_pool3d_desc &d,
                                 cudaStream_t stream)
{
	int64_t total = d.N * d.C * d.OD * d.OH * d.OW;
	pool3d_kernel<In, Acc, Out, true><<<cua_blocks_1d(total, CUA_POOL_THREADS), CUA_POOL_THREADS,
	                                    0, stream>>>(x, y, d);
}

template <typename In, typename Acc, typename Out>
static inline void cua_avgpool3d(const In *x, Out *y, const struct cua_pool3d_desc &d,
                                 cudaStream_t stream)
{
	int64_t total = d.N * d.C * d.OD * d.OH * d.OW;
	pool3d_kernel<In, Acc, Out, false><<<cua_blocks_1d(total, CUA_POOL_THREADS),
	                                     CUA_POOL_THREADS, 0, stream>>>(x, y, d);
}

/* A pooling task's fixed hyper-parameters: nsp spatial dims (1, 2 or 3) that
 * share one window K, stride S and padding P, dilation 1. */
struct cua_pool_spec {
	int nsp;
	int64_t K, S, P;
	bool is_max;                 /* else average */
	bool count_include_pad;      /* average only */
};

/* The whole body of a pooling task: in = {x} f32 [N,C,spatial...], out = {y}
 * of Out with the same N and C. Checks counts, dtypes, ranks and extents, then
 * enqueues on stream; 1-D runs as 2-D with H = 1. */
template <typename Acc, typename Out>
static inline int cua_pool_task(const struct cua_pool_spec &sp, const struct cua_tensor *in,
                                int n_in, struct cua_tensor *out, int n_out, cudaStream_t stream)
{
	if (sp.nsp < 1 || sp.nsp > 3)
		return CUA_CHECK_E_PARAM;
	CUA_CHECK(cua_check_counts(in, n_in, 1, out, n_out, 1));
	const struct cua_tensor *x = &in[0];
	struct cua_tensor *y = &out[0];
	CUA_CHECK(cua_check_tensor(x, CUA_F32, sp.nsp + 2));
	CUA_CHECK(cua_check_tensor(y, cua_dtype_of<Out>::value, sp.nsp + 2));
	CUA_CHECK(cua_check_dim(y, 0, x->shape[0]));
	CUA_CHECK(cua_check_dim(y, 1, x->shape[1]));
	const float *xp = (const float *)x->data;
	Out *yp = (Out *)y->data;

	if (sp.nsp == 3) {
		struct cua_pool3d_desc d;
		d.N = x->shape[0]; d.C = x->shape[1];
		d.D = x->shape[2]; d.H = x->shape[3]; d.W = x->shape[4];
		d.OD = y->shape[2]; d.OH = y->shape[3]; d.OW = y->shape[4];
		d.KD = d.KH = d.KW = sp.K;
		d.SD = d.SH = d.SW = sp.S;
		d.PD = d.PH = d.PW = sp.P;
		d.DD = d.DH = d.DW = 1;
		d.count_include_pad = sp.count_include_pad;
		CUA_CHECK(cua_pool3d_validate(d));
		if (sp.is_max)
			cua_maxpool3d<float, Acc, Out>(xp, yp, d, stream);
		else
			cua_avgpool3d<float, Acc, Out>(xp, yp, d, stream);
		return (int)cudaGetLastError();
	}
	const bool two = sp.nsp == 2;
	struct cua_pool2d_desc d;
	d.N = x->shape[0]; d.C = x->shape[1];
	d.H = two ? x->shape[2] : 1; d.W = x->shape[sp.nsp + 1];
	d.OH = two ? y->shape[2] : 1; d.OW = y->shape[sp.nsp + 1];
	d.KH = two ? sp.K : 1; d.KW = sp.K;
	d.SH = two ? sp.S : 1; d.SW = sp.S;
	d.PH = two ? sp.P : 0; d.PW = sp.P;
	d.DH = d.DW = 1;
	d.count_include_pad = sp.count_include_pad;
	CUA_CHECK(cua_pool2d_validate(d));
	if (sp.is_max)
		cua_maxpool2d<float, Acc, Out>(xp, yp, d, stream);
	else
		cua_avgpool2d<float, Acc, Out>(xp, yp, d, stream);
	return (int)cudaGetLastError();
}

#endif /* CUA_COMMON_POOLND_CUH */
