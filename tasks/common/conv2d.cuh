/* conv2d.cuh — direct 2-D convolution (cross-correlation, as in PyTorch), NCHW,
 * one thread per output element. Header-only.
 *
 *     y[n,f,oh,ow] = Σ_{c<C/G} Σ_{kh<KH} Σ_{kw<KW}
 *                    x[n, g*C/G + c, oh*SH - PH + kh*DH, ow*SW - PW + kw*DW] · w[f,c,kh,kw]
 *     g = f / (F/G);  x outside [0,H)×[0,W) is zero (zero padding)
 *
 * x [N,C,H,W], w [F,C/G,KH,KW], y [N,F,OH,OW], all contiguous; OH and OW from
 * cua_conv_out_size(). Products are accumulated in Acc in (c, kh, kw) order
 * and stored as Out: the fp32 reference and the fp64 oracle share the kernel.
 *
 * This is the nvcc baseline, deliberately untiled: consecutive threads take
 * consecutive ow, so x loads are coalesced (stride SW) and w loads are warp
 * broadcasts; 2*N*F*OH*OW*(C/G)*KH*KW flops at ~one L1 load per FMA. */
#ifndef CUA_COMMON_CONV2D_CUH
#define CUA_COMMON_CONV2D_CUH

#include "check.cuh"

struct cua_conv2d_desc {
	int64_t N, C, H, W;          /* input */
	int64_t F, KH, KW;           /* filters */
	int64_t OH, OW;              /* output */
	int64_t SH, SW;              /* stride, >= 1 */
	int64_t PH, PW;              /* zero padding on each side, >= 0 */
	int64_t DH, DW;              /* dilation, >= 1 */
	int64_t G;                   /* groups: divides C and F */
};

/* PyTorch's output extent: floor((in + 2p - d(k-1) - 1) / s) + 1; < 1 if the
 * dilated kernel does not fit in the padded input. */
static inline int64_t cua_conv_out_size(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d)
{
	int64_t span = in + 2 * p - d * (k - 1) - 1;
	return span < 0 ? 0 : span / s + 1;
}

/* Checks the hyper-parameters and that OH/OW match them. */
static inline int cua_conv2d_validate(const struct cua_conv2d_desc &d)
{
	if (d.SH < 1 || d.SW < 1 || d.PH < 0 || d.PW < 0 || d.DH < 1 || d.DW < 1 || d.G < 1 ||
	    d.C % d.G != 0 || d.F % d.G != 0)
		return CUA_CHECK_E_PARAM;
	if (d.OH != cua_conv_out_size(d.H, d.KH, d.SH, d.PH, d.DH) ||
	    d.OW != cua_conv_out_size(d.W, d.KW, d.SW, d.PW, d.DW) || d.OH < 1 || d.OW < 1)
		return CUA_CHECK_E_SHAPE;
	return 0;
}

#define CUA_CONV_THREADS 256

template <typename In, typename Acc, typename Out>
__global__ void conv2d_kernel(const In *__restrict__ x, const In *__restrict__ w,
                              Out *__restrict__ y, struct cua_conv2d_desc d)
{
	const int64_t total = d.N * d.F * d.OH * d.OW;
	const int64_t Cg = d.C / d.G, Fg = d.F / d.G;
	const int64_t plane = d.H * d.W, wsize = Cg * d.KH * d.KW;
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total;
	     i += (int64_t)gridDim.x * blockDim.x) {
		int64_t ow = i % d.OW, t = i / d.OW;
		int64_t oh = t % d.OH;
		t /= d.OH;
		int64_t f = t % d.F, n = t / d.F;
		int64_t ih0 = oh * d.SH - d.PH, iw0 = ow * d.SW - d.PW;
		const In *xc = x + (n * d.C + (f / Fg) * Cg) * plane;
		const In *wc = w + f * wsize;
		Acc acc = 0;
		for (int64_t c = 0; c < Cg; c++, xc += plane, wc += d.KH * d.KW) {
			for (int64_t kh = 0; kh < d.KH; kh++) {
				int64_t ih = ih0 + kh * d.DH;
				if (ih < 0 || ih >= d.H)
					continue;
				for (int64_t kw = 0; kw < d.KW; kw++) {
					int64_t iw = iw0 + kw * d.DW;
					if (iw < 0 || iw >= d.W)
						continue;
					acc += (Acc)xc[ih * d.W + iw] * (Acc)wc[kh * d.KW + kw];
				}
			}
		}
		y[i] = (Out)acc;
	}
}

/* Enqueue on stream; the caller validates d and checks cudaGetLastError(). */
template <typename In, typename Acc, typename Out>
static inline void cua_conv2d_naive(const In *x, const In *w, Out *y,
                                    const struct cua_conv2d_desc &d, cudaStream_t stream)
{
	int64_t total = d.N * d.F * d.OH * d.OW;
	conv2d_kernel<In, Acc, Out><<<cua_blocks_1d(total, CUA_CONV_THREADS), CUA_CONV_THREADS, 0,
	                              stream>>>(x, w, y, d);
}

#endif /* CUA_COMMON_CONV2D_CUH */
