/* conv-oracle.cuh — fast fp64 oracle for 2-D convolution and transposed
 * convolution (NCHW, as torch.nn.functional.conv2d / conv_transpose2d, optional
 * bias), for the fp64 cua_oracle paths of the Level-2 conv tasks. Header-only.
 *
 * Both run as one shared-memory tiled implicit GEMM in double: per group g,
 *     Y[m, f] = Σ_k A[m, k] · B[k, f] (+ bias[g·Fg + f])
 *     m = (n, oh, ow) over N·OH·OW output pixels, f < Fg = F/G, k = (c, kh, kw) < Cg·KH·KW
 * forward:    A[m, k] = x[n, g·Cg + c, oh·SH − PH + kh·DH, ow·SW − PW + kw·DW]
 *             B[k, f] = w[g·Fg + f, c, kh, kw]                     (w [F, C/G, KH, KW])
 * transposed: A[m, k] = x[n, g·Cg + c, (oh + PH − kh·DH)/SH, (ow + PW − kw·DW)/SW] where both
 *             divisions are exact and land inside x, else 0
 *             B[k, f] = w[g·Cg + c, f, kh, kw]                     (w [C, F/G, KH, KW])
 * (x is 0 outside its extent: zero padding). Inputs are the task's fp32 tensors,
 * converted to double as they are staged; y is double.
 *
 * Tiling: a block of 256 threads owns 64 pixels × 64 filters, stages 16 k per
 * step (A 16×64 and B 16×65 doubles, 16.5 KiB), and each thread accumulates a
 * 4×4 micro-tile in registers (16 DFMA per 8 shared loads). The k → (c, kh, kw)
 * decode is done once per step into shared memory. A transposed convolution
 * with stride S walks every tap and multiplies the zeros of the taps that fall
 * between input samples: S_H·S_W times the useful flops (4× at stride 2), which
 * is still far under a naive fp64 loop.
 *
 * Napkin math: 2·M·Fg·K·G flops (useful for forward; ×S² for transposed);
 * smem-bound at about half the H200's 34 TFLOP/s fp64 peak — expected 5–15
 * TFLOP/s (unmeasured), against ~1 TFLOP/s for the naive one-thread-per-output
 * kernels of conv2d.cuh / conv-transpose.cuh. At L2/4's shape (0.61 TFLOP) that is
 * ~0.05–0.1 s per oracle call. */
#ifndef CUA_COMMON_CONV_ORACLE_CUH
#define CUA_COMMON_CONV_ORACLE_CUH

#include <limits.h>
#include "check.cuh"

struct cua_conv_oracle_desc {
	bool transposed;
	int64_t N, C, H, W;          /* input x */
	int64_t F, KH, KW;           /* output channels, kernel */
	int64_t OH, OW;              /* output y */
	int64_t SH, SW, PH, PW, DH, DW;
	int64_t G;                   /* groups: divides C and F */
};

/* Output extents for the hyper-parameters of d (OH/OW ignored); op = output
 * padding (transposed only). */
static inline int64_t cua_conv_oracle_out(const struct cua_conv_oracle_desc &d, int64_t in,
                                          int64_t k, int64_t s, int64_t p, int64_t dil,
                                          int64_t op)
{
	if (d.transposed)
		return (in - 1) * s - 2 * p + dil * (k - 1) + op + 1;
	const int64_t span = in + 2 * p - dil * (k - 1) - 1;
	return span < 0 ? 0 : span / s + 1;
}

/* Checks d: positive extents, consistent groups, the 32-bit index ranges the
 * kernel uses inside one image and one filter bank, and the grid limits. */
static inline int cua_conv_oracle_validate(const struct cua_conv_oracle_desc &d)
{
	if (d.SH < 1 || d.SW < 1 || d.PH < 0 || d.PW < 0 || d.DH < 1 || d.DW < 1 || d.G < 1 ||
	    d.KH < 1 || d.KW < 1 || d.C % d.G != 0 || d.F % d.G != 0)
		return CUA_CHECK_E_PARAM;
	if (d.N < 1 || d.C < 1 || d.H < 1 || d.W < 1 || d.F < 1 || d.OH < 1 || d.OW < 1)
		return CUA_CHECK_E_SHAPE;
	const int64_t K = d.C / d.G * d.KH * d.KW;
	if (d.C * d.H * d.W > INT_MAX || d.F * K > INT_MAX || d.C * d.F * d.KH * d.KW > INT_MAX ||
	    (d.N * d.OH * d.OW + 63) / 64 > INT_MAX || d.G > 65535 ||
	    (d.F / d.G + 63) / 64 > 65535)
		return CUA_CHECK_E_SHAPE;
	return 0;
}

#define CUA_CO_BM 64        /* output pixels per block */
#define CUA_CO_BN 64        /* filters per block */
#define CUA_CO_BK 16        /* k per shared-memory step */
#define CUA_CO_THREADS 256

template <bool Transposed, typename TX>
__global__ void __launch_bounds__(CUA_CO_THREADS)
conv_oracle_kernel(const TX *__restrict__ x, const float *__restrict__ w,
                   const float *__restrict__ bias, double *__restrict__ y,
                   struct cua_conv_oracle_desc d)
{
	__shared__ double As[CUA_CO_BK][CUA_CO_BM];
	__shared__ double Bs[CUA_CO_BK][CUA_CO_BN + 1];    /* +1: conflict-free stores */
	__shared__ int kc[CUA_CO_BK], kdh[CUA_CO_BK], kdw[CUA_CO_BK], kr[CUA_CO_BK];

	const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
	const int64_t M = d.N * d.OH * d.OW, OHW = d.OH * d.OW;
	const int Cg = (int)(d.C / d.G), Fg = (int)(d.F / d.G);
	const int KW = (int)d.KW, KK = (int)(d.KH * d.KW), K = Cg * KK;
	const int H = (int)d.H, W = (int)d.W;
	const int64_t g = blockIdx.z;
	const int64_t m0 = (int64_t)blockIdx.x * CUA_CO_BM;
	const int f0 = blockIdx.y * CUA_CO_BN;

	/* A staging: this thread's pixel is fixed, its k rows are kb + 4r. */
	const int mm = tid % CUA_CO_BM, kb = tid / CUA_CO_BM;
	const int64_t m = m0 + mm;
	const bool mvalid = m < M;
	int oh = 0, ow = 0;
	int64_t n = 0;
	if (mvalid) {
		const int64_t r = m % OHW;
		n = m / OHW;
		oh = (int)(r / d.OW);
		ow = (int)(r % d.OW);
	}
	const TX *xn = x + (n * d.C + g * Cg) * d.H * d.W;
	/* Forward: input origin of the window; transposed: o + P. */
	const int bh = Transposed ? oh + (int)d.PH : oh * (int)d.SH - (int)d.PH;
	const int bw = Transposed ? ow + (int)d.PW : ow * (int)d.SW - (int)d.PW;
	const int SH = (int)d.SH, SW = (int)d.SW;

	/* B staging: this thread's k column is bk, its filters bn + 16r. */
	const int bk = tid % CUA_CO_BK, bn = tid / CUA_CO_BK;

	double acc[4][4];
#pragma unroll
	for (int i = 0; i < 4; i++)
#pragma unroll
		for (int j = 0; j < 4; j++)
			acc[i][j] = 0.0;

	for (int k0 = 0; k0 < K; k0 += CUA_CO_BK) {
		if (tid < CUA_CO_BK) {
			const int k = k0 + tid;
			const int c = k / KK, rem = k - c * KK;
			const int kh = rem / KW, kw = rem - kh * KW;
			kc[tid] = c;
			kr[tid] = rem;
			kdh[tid] = kh * (int)d.DH;
			kdw[tid] = kw * (int)d.DW;
		}
		__syncthreads();
#pragma unroll
		for (int r = 0; r < 4; r++) {
			const int kk = kb + 4 * r;
			double v = 0.0;
			if (mvalid && k0 + kk < K) {
				int ih, iw;
				bool ok;
				if (Transposed) {
					const int th = bh - kdh[kk], tw = bw - kdw[kk];
					ok = th >= 0 && tw >= 0 && th % SH == 0 && tw % SW == 0;
					ih = th / SH;
					iw = tw / SW;
					ok = ok && ih < H && iw < W;
				} else {
					ih = bh + kdh[kk];
					iw = bw + kdw[kk];
					ok = ih >= 0 && ih < H && iw >= 0 && iw < W;
				}
				if (ok)
					v = (double)xn[((int64_t)kc[kk] * H + ih) * W + iw];
			}
			As[kk][mm] = v;
		}
#pragma unroll
		for (int r = 0; r < 4; r++) {
			const int nn = bn + 16 * r, f = f0 + nn, k = k0 + bk;
			double v = 0.0;
			if (f < Fg && k < K) {
				if (Transposed)
					v = (double)w[(((int64_t)g * Cg + kc[bk]) * Fg + f) * KK + kr[bk]];
				else
					v = (double)w[((int64_t)g * Fg + f) * K + k];
			}
			Bs[bk][nn] = v;
		}
		__syncthreads();
#pragma unroll
		for (int kk = 0; kk < CUA_CO_BK; kk++) {
			double a[4], b[4];
#pragma unroll
			for (int i = 0; i < 4; i++)
				a[i] = As[kk][tx + 16 * i];
#pragma unroll
			for (int j = 0; j < 4; j++)
				b[j] = Bs[kk][ty + 16 * j];
#pragma unroll
			for (int i = 0; i < 4; i++)
#pragma unroll
				for (int j = 0; j < 4; j++)
					acc[i][j] = fma(a[i], b[j], acc[i][j]);
		}
		__syncthreads();
	}

#pragma unroll
	for (int i = 0; i < 4; i++) {
		const int64_t mo = m0 + tx + 16 * i;
		if (mo >= M)
			continue;
		const int64_t no = mo / OHW, po = mo % OHW;
#pragma unroll
		for (int j = 0; j < 4; j++) {
			const int f = f0 + ty + 16 * j;
			if (f >= Fg)
				continue;
			const int64_t fo = g * Fg + f;
			const double bv = bias != NULL ? (double)bias[fo] : 0.0;
			y[(no * d.F + fo) * OHW + po] = acc[i][j] + bv;
		}
	}
}

/* y [N, F, OH, OW] (double) = conv2d or conv_transpose2d(x, w) + bias per d;
 * bias [F] or NULL; x is the task's float input or (TX = double) an fp64
 * intermediate of a Level 3 network's oracle (net.cuh). Enqueue on stream; the
 * caller validates d with cua_conv_oracle_validate() and checks cudaGetLastError(). */
template <typename TX>
static inline void cua_conv_oracle(const TX *x, const float *w, const float *bias, double *y,
                                   const struct cua_conv_oracle_desc &d, cudaStream_t stream)
{
	const int64_t M = d.N * d.OH * d.OW;
	const dim3 grid((unsigned int)((M + CUA_CO_BM - 1) / CUA_CO_BM),
	                (unsigned int)((d.F / d.G + CUA_CO_BN - 1) / CUA_CO_BN), (unsigned int)d.G);
	if (d.transposed)
		conv_oracle_kernel<true, TX><<<grid, CUA_CO_THREADS, 0, stream>>>(x, w, bias, y, d);
	else
		conv_oracle_kernel<false, TX><<<grid, CUA_CO_THREADS, 0, stream>>>(x, w, bias, y, d);
}

#endif /* CUA_COMMON_CONV_ORACLE_CUH */
