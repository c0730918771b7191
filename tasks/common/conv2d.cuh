/* conv2d.cuh — direct 2-D convolution (cross-correlation, as in PyTorch), NCHW,
 * one thread per output element: the 2-D face of convnd.cuh. Header-only.
 *
 *     y[n,f,oh,ow] = Σ_{c<C/G} Σ_{kh<KH} Σ_{kw<KW}
 *                    x[n, g*C/G + c, oh*SH - PH + kh*DH, ow*SW - PW + kw*DW] · w[f,c,kh,kw]
 *     g = f / (F/G);  x outside [0,H)×[0,W) is zero (zero padding)
 *
 * x [N,C,H,W], w [F,C/G,KH,KW], y [N,F,OH,OW], all contiguous; OH and OW from
 * cua_conv_out_size(). Products are accumulated in Acc in (c, kh, kw) order
 * and stored as Out: the fp32 reference and the fp64 oracle share the kernel
 * (convnd_kernel<2>, the same loop nest, launch and summation order as the
 * 2-D kernel this header had before convnd.cuh).
 *
 * This is the nvcc baseline, deliberately untiled: consecutive threads take
 * consecutive ow, so x loads are coalesced (stride SW) and w loads are warp
 * broadcasts; 2*N*F*OH*OW*(C/G)*KH*KW flops at ~one L1 load per FMA. */
#ifndef CUA_COMMON_CONV2D_CUH
#define CUA_COMMON_CONV2D_CUH

#include "convnd.cuh"

struct cua_conv2d_desc {
	int64_t N, C, H, W;          /* input */
	int64_t F, KH, KW;           /* filters */
	int64_t OH, OW;              /* output */
	int64_t SH, SW;              /* stride, >= 1 */
	int64_t PH, PW;              /* zero padding on each side, >= 0 */
	int64_t DH, DW;              /* dilation, >= 1 */
	int64_t G;                   /* groups: divides C and F */
};

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

/* Enqueue on stream; the caller validates d and checks cudaGetLastError(). */
template <typename In, typename Acc, typename Out>
static inline void cua_conv2d_naive(const In *x, const In *w, Out *y,
                                    const struct cua_conv2d_desc &d, cudaStream_t stream)
{
	struct cua_convnd_desc nd;
	nd.nsp = 2;
	nd.N = d.N;
	nd.C = d.C;
	nd.F = d.F;
	nd.G = d.G;
	nd.in[0] = 1, nd.in[1] = d.H, nd.in[2] = d.W;
	nd.k[0] = 1, nd.k[1] = d.KH, nd.k[2] = d.KW;
	nd.out[0] = 1, nd.out[1] = d.OH, nd.out[2] = d.OW;
	nd.s[0] = 1, nd.s[1] = d.SH, nd.s[2] = d.SW;
	nd.p[0] = 0, nd.p[1] = d.PH, nd.p[2] = d.PW;
	nd.d[0] = 1, nd.d[1] = d.DH, nd.d[2] = d.DW;
	cua_convnd_naive<In, In, Acc, Out>(x, w, y, nd, stream);
}

#endif /* CUA_COMMON_CONV2D_CUH */
