/* pool2d.cuh — 2-D max and average pooling, NCHW, one thread per output
 * element. Header-only. Windows follow PyTorch (floor mode):
 *
 *     window(oh, ow) = { (oh*SH - PH + kh*DH, ow*SW - PW + kw*DW) : kh < KH, kw < KW }
 *     max: y = max of x over the window positions inside [0,H)×[0,W) — padding
 *          never wins (it acts as -inf); a window with no real position gives -inf
 *     avg: y = (Σ of x over the real positions) / divisor, where divisor counts
 *          the real positions, or, with count_include_pad, the positions inside
 *          the padded extent [-PH, H+PH)×[-PW, W+PW) (PyTorch's avg_pool2d rule)
 *
 * x [N,C,H,W], y [N,C,OH,OW] contiguous; OH/OW from cua_pool_out_size(). The
 * reduction runs in Acc and is stored as Out: the fp32 reference and the fp64
 * oracle share the kernels (max is exact in either).
 *
 * Napkin math: each input element is read about (KH/SH)·(KW/SW) times, mostly
 * from L1/L2; the HBM floor is 4·(N·C·H·W + N·C·OH·OW) bytes for f32. */
#ifndef CUA_COMMON_POOL2D_CUH
#define CUA_COMMON_POOL2D_CUH

#include <math.h>
#include "check.cuh"

struct cua_pool2d_desc {
	int64_t N, C, H, W;          /* input */
	int64_t OH, OW;              /* output */
	int64_t KH, KW;              /* window */
	int64_t SH, SW;              /* stride, >= 1 */
	int64_t PH, PW;              /* implicit padding on each side, >= 0 */
	int64_t DH, DW;              /* dilation, >= 1 */
	bool count_include_pad;      /* avg only */
};

/* Floor-mode output extent: floor((in + 2p - d(k-1) - 1) / s) + 1. */
static inline int64_t cua_pool_out_size(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d)
{
	int64_t span = in + 2 * p - d * (k - 1) - 1;
	return span < 0 ? 0 : span / s + 1;
}

/* Checks the hyper-parameters and that OH/OW match them. PyTorch also requires
 * PH <= KH/2 and PW <= KW/2; with it every window holds a real position. */
static inline int cua_pool2d_validate(const struct cua_pool2d_desc &d)
{
	if (d.KH < 1 || d.KW < 1 || d.SH < 1 || d.SW < 1 || d.DH < 1 || d.DW < 1 ||
	    d.PH < 0 || d.PW < 0 || 2 * d.PH > d.KH || 2 * d.PW > d.KW)
		return CUA_CHECK_E_PARAM;
	if (d.OH != cua_pool_out_size(d.H, d.KH, d.SH, d.PH, d.DH) ||
	    d.OW != cua_pool_out_size(d.W, d.KW, d.SW, d.PW, d.DW) || d.OH < 1 || d.OW < 1)
		return CUA_CHECK_E_SHAPE;
	return 0;
}

#define CUA_POOL_THREADS 256

template <typename In, typename Acc, typename Out>
__global__ void maxpool2d_kernel(const In *__restrict__ x, Out *__restrict__ y,
                                 struct cua_pool2d_desc d)
{
	const int64_t total = d.N * d.C * d.OH * d.OW;
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total;
	     i += (int64_t)gridDim.x * blockDim.x) {
		int64_t ow = i % d.OW, t = i / d.OW;
		int64_t oh = t % d.OH, nc = t / d.OH;
		int64_t ih0 = oh * d.SH - d.PH, iw0 = ow * d.SW - d.PW;
		const In *xp = x + nc * d.H * d.W;
		Acc m = (Acc)-INFINITY;
		for (int64_t kh = 0; kh < d.KH; kh++) {
			int64_t ih = ih0 + kh * d.DH;
			if (ih < 0 || ih >= d.H)
				continue;
			for (int64_t kw = 0; kw < d.KW; kw++) {
				int64_t iw = iw0 + kw * d.DW;
				if (iw < 0 || iw >= d.W)
					continue;
				Acc v = (Acc)xp[ih * d.W + iw];
				m = v > m ? v : m;
			}
		}
		y[i] = (Out)m;
	}
}

template <typename In, typename Acc, typename Out>
__global__ void avgpool2d_kernel(const In *__restrict__ x, Out *__restrict__ y,
                                 struct cua_pool2d_desc d)
{
	const int64_t total = d.N * d.C * d.OH * d.OW;
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total;
	     i += (int64_t)gridDim.x * blockDim.x) {
		int64_t ow = i % d.OW, t = i / d.OW;
		int64_t oh = t % d.OH, nc = t / d.OH;
		int64_t ih0 = oh * d.SH - d.PH, iw0 = ow * d.SW - d.PW;
		const In *xp = x + nc * d.H * d.W;
		Acc s = 0;
		int64_t real_h = 0, real_w = 0, pad_h = 0, pad_w = 0;
		for (int64_t kh = 0; kh < d.KH; kh++) {
			int64_t ih = ih0 + kh * d.DH;
			pad_h += ih < d.H + d.PH;        /* ih >= -PH always holds */
			if (ih < 0 || ih >= d.H)
				continue;
			real_h++;
			for (int64_t kw = 0; kw < d.KW; kw++) {
				int64_t iw = iw0 + kw * d.DW;
				if (iw < 0 || iw >= d.W)
					continue;
				s += (Acc)xp[ih * d.W + iw];
			}
		}
		for (int64_t kw = 0; kw < d.KW; kw++) {
			int64_t iw = iw0 + kw * d.DW;
			pad_w += iw < d.W + d.PW;
			real_w += iw >= 0 && iw < d.W;
		}
		int64_t div = d.count_include_pad ? pad_h * pad_w : real_h * real_w;
		y[i] = (Out)(s / (Acc)div);
	}
}

/* Enqueue on stream; the caller validates d and checks cudaGetLastError(). */
template <typename In, typename Acc, typename Out>
static inline void cua_maxpool2d(const In *x, Out *y, const struct cua_pool2d_desc &d,
                                 cudaStream_t stream)
{
	int64_t total = d.N * d.C * d.OH * d.OW;
	maxpool2d_kernel<In, Acc, Out><<<cua_blocks_1d(total, CUA_POOL_THREADS), CUA_POOL_THREADS, 0,
	                                 stream>>>(x, y, d);
}

template <typename In, typename Acc, typename Out>
static inline void cua_avgpool2d(const In *x, Out *y, const struct cua_pool2d_desc &d,
                                 cudaStream_t stream)
{
	int64_t total = d.N * d.C * d.OH * d.OW;
	avgpool2d_kernel<In, Acc, Out><<<cua_blocks_1d(total, CUA_POOL_THREADS), CUA_POOL_THREADS, 0,
	                                 stream>>>(x, y, d);
}

#endif /* CUA_COMMON_POOL2D_CUH */
