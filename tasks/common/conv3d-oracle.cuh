/* conv3d-oracle.cuh — fast fp64 oracle for 3-D convolution and transposed
 * convolution (NCDHW, as torch.nn.functional.conv3d / conv_transpose3d,
 * optional bias), for the fp64 cua_oracle paths of the Level-2 Conv3d and
 * ConvTranspose3d tasks. Header-only; the 3-D sibling of conv-oracle.cuh.
 *
 * Both run as one shared-memory tiled implicit GEMM in double: per group g,
 *     Y[m, f] = Σ_k A[m, k] · B[k, f] (+ bias[g·Fg + f])
 *     m = (n, od, oh, ow) over N·OD·OH·OW output voxels, f < Fg = F/G,
 *     k = (c, kd, kh, kw) < Cg·KD·KH·KW
 * forward:    A[m, k] = x[n, g·Cg + c, od·SD − PD + kd·DD, oh·SH − PH + kh·DH,
 *                         ow·SW − PW + kw·DW]
 *             B[k, f] = w[g·Fg + f, c, kd, kh, kw]          (w [F, C/G, KD, KH, KW])
 * transposed: A[m, k] = x[n, g·Cg + c, (od + PD − kd·DD)/SD, (oh + PH − kh·DH)/SH,
 *                         (ow + PW − kw·DW)/SW] where all three divisions are exact
 *             and land inside x, else 0
 *             B[k, f] = w[g·Cg + c, f, kd, kh, kw]          (w [C, F/G, KD, KH, KW])
 * (x is 0 outside its extent: zero padding; output padding only enlarges the
 * output extents, which the caller passes). Inputs are the task's fp32 tensors,
 * converted to double as they are staged (x may be double too); y is double.
 *
 * Tiling as conv-oracle.cuh: a block of 256 threads owns 64 voxels × 64
 * filters, stages 16 k per step (A 16×64 and B 16×65 doubles), each thread
 * accumulates a 4×4 micro-tile in registers; the k → (c, kd, kh, kw) decode is
 * done once per step into shared memory. A transposed convolution with stride
 * S walks every tap and multiplies the zeros of the taps between input
 * samples: SD·SH·SW times the useful flops (8× at stride 2).
 *
 * Napkin math: 2·M·Fg·K·G flops (forward; ×SD·SH·SW for transposed); expected
 * 5–15 TFLOP/s in fp64 on the H200 (unmeasured). The largest Level-2 call,
 * L2/100 (ConvTranspose3d 64→128, 24×48×48, k3 s2), is 0.39 TFLOP useful,
 * 3.1 TFLOP walked: ~0.2–0.6 s per oracle call. */
#ifndef CUA_COMMON_CONV3D_ORACLE_CUH
#define CUA_COMMON_CONV3D_ORACLE_CUH

#include <limits.h>
#include "check.cuh"

/* Spatial arrays are [0] = depth, [1] = height, [2] = width. */
struct cua_conv3d_oracle_desc {
	bool transposed;
	int64_t N, C, in[3];         /* input x [N, C, D, H, W] */
	int64_t F, k[3];             /* output channels, kernel */
	int64_t out[3];              /* output y [N, F, OD, OH, OW] */
	int64_t s[3], p[3], dil[3];
	int64_t G;                   /* groups: divides C and F */
};

/* Checks d: positive extents, consistent groups, the 32-bit index ranges the
 * kernel uses inside one image and one filter bank, and the grid limits. */
static inline int cua_conv3d_oracle_validate(const struct cua_conv3d_oracle_desc &d)
{
	if (d.G < 1 || d.C % d.G != 0 || d.F % d.G != 0)
		return CUA_CHECK_E_PARAM;
	int64_t vol = 1, kvol = 1, ovol = 1;
	for (int e = 0; e < 3; e++) {
		if (d.s[e] < 1 || d.p[e] < 0 || d.dil[e] < 1 || d.k[e] < 1)
			return CUA_CHECK_E_PARAM;
		if (d.in[e] < 1 || d.out[e] < 1 || d.in[e] > INT_MAX / 4 || d.out[e] > INT_MAX / 4 ||
		    d.k[e] * d.dil[e] > INT_MAX / 4 || d.p[e] > INT_MAX / 4)
			return CUA_CHECK_E_SHAPE;
		vol *= d.in[e];
		kvol *= d.k[e];
		ovol *= d.out[e];
	}
	if (d.N < 1 || d.C < 1 || d.F < 1)
		return CUA_CHECK_E_SHAPE;
	const int64_t K = d.C / d.G * kvol;
	if (d.C * vol > INT_MAX || K > INT_MAX || d.C * d.F * kvol > INT_MAX ||
	    (d.N * ovol + 63) / 64 > INT_MAX || d.G > 65535 || (d.F / d.G + 63) / 64 > 65535)
		return CUA_CHECK_E_SHAPE;
	return 0;
}

#define CUA_C3O_BM 64        /* output voxels per block */
#define CUA_C3O_BN 64        /* filters per block */
#define CUA_C3O_BK 16        /* k per shared-memory step */
#define CUA_C3O_THREADS 256

template <bool Transposed, typename TX>
__global__ void __launch_bounds__(CUA_C3O_THREADS)
conv3d_oracle_kernel(const TX *__restrict__ x, const float *__restrict__ w,
                     const float *__restrict__ bias, double *__restrict__ y,
                     struct cua_conv3d_oracle_desc d)
{
	__shared__ double As[CUA_C3O_BK][CUA_C3O_BM];
	__shared__ double Bs[CUA_C3O_BK][CUA_C3O_BN + 1];   /* +1: conflict-free stores */
	__shared__ int kc[CUA_C3O_BK], kr[CUA_C3O_BK], kq[CUA_C3O_BK][3];

	const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
	const int64_t OVOL = d.out[0] * d.out[1] * d.out[2], M = d.N * OVOL;
	const int Cg = (int)(d.C / d.G), Fg = (int)(d.F / d.G);
	const int KH = (int)d.k[1], KW = (int)d.k[2];
	const int KHW = KH * KW, KK = (int)d.k[0] * KHW, K = Cg * KK;
	const int ID = (int)d.in[0], IH = (int)d.in[1], IW = (int)d.in[2];
	const int64_t g = blockIdx.z;
	const int64_t m0 = (int64_t)blockIdx.x * CUA_C3O_BM;
	const int f0 = blockIdx.y * CUA_C3O_BN;

	/* A staging: this thread's voxel is fixed, its k rows are kb + 4r. */
	const int mm = tid % CUA_C3O_BM, kb = tid / CUA_C3O_BM;
	const int64_t m = m0 + mm;
	const bool mvalid = m < M;
	int o[3] = {0, 0, 0};
	int64_t n = 0;
	if (mvalid) {
		int64_t r = m % OVOL;
		n = m / OVOL;
		o[2] = (int)(r % d.out[2]);
		r /= d.out[2];
		o[1] = (int)(r % d.out[1]);
		o[0] = (int)(r / d.out[1]);
	}
	const TX *xn = x + (n * d.C + g * Cg) * d.in[0] * d.in[1] * d.in[2];
	/* Forward: input origin of the window; transposed: o + P. */
	int base[3], S[3];
#pragma unroll
	for (int e = 0; e < 3; e++) {
		S[e] = (int)d.s[e];
		base[e] = Transposed ? o[e] + (int)d.p[e] : o[e] * S[e] - (int)d.p[e];
	}

	/* B staging: this thread's k column is bk, its filters bn + 16r. */
	const int bk = tid % CUA_C3O_BK, bn = tid / CUA_C3O_BK;

	double acc[4][4];
#pragma unroll
	for (int i = 0; i < 4; i++)
#pragma unroll
		for (int j = 0; j < 4; j++)
			acc[i][j] = 0.0;

	for (int k0 = 0; k0 < K; k0 += CUA_C3O_BK) {
		if (tid < CUA_C3O_BK) {
			const int k = k0 + tid;
			const int c = k / KK, rem = k - c * KK;
			const int kd = rem / KHW, r2 = rem - kd * KHW;
			const int kh = r2 / KW, kw = r2 - kh * KW;
			kc[tid] = c;
			kr[tid] = rem;
			kq[tid][0] = kd * (int)d.dil[0];
			kq[tid][1] = kh * (int)d.dil[1];
			kq[tid][2] = kw * (int)d.dil[2];
		}
		__syncthreads();
#pragma unroll
		for (int r = 0; r < 4; r++) {
			const int kk = kb + 4 * r;
			double v = 0.0;
			if (mvalid && k0 + kk < K) {
				int i0, i1, i2;
				bool ok;
				if (Transposed) {
					const int t0 = base[0] - kq[kk][0], t1 = base[1] - kq[kk][1],
					          t2 = base[2] - kq[kk][2];
					ok = t0 >= 0 && t1 >= 0 && t2 >= 0 && t0 % S[0] == 0 && t1 % S[1] == 0 &&
					     t2 % S[2] == 0;
					i0 = t0 / S[0];
					i1 = t1 / S[1];
					i2 = t2 / S[2];
					ok = ok && i0 < ID && i1 < IH && i2 < IW;
				} else {
					i0 = base[0] + kq[kk][0];
					i1 = base[1] + kq[kk][1];
					i2 = base[2] + kq[kk][2];
					ok = i0 >= 0 && i0 < ID && i1 >= 0 && i1 < IH && i2 >= 0 && i2 < IW;
				}
				if (ok)
					v = (double)xn[(((int64_t)kc[kk] * ID + i0) * IH + i1) * IW + i2];
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
		for (int kk = 0; kk < CUA_C3O_BK; kk++) {
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
		const int64_t no = mo / OVOL, po = mo % OVOL;
#pragma unroll
		for (int j = 0; j < 4; j++) {
			const int f = f0 + ty + 16 * j;
			if (f >= Fg)
				continue;
			const int64_t fo = g * Fg + f;
			const double bv = bias != NULL ? (double)bias[fo] : 0.0;
			y[(no * d.F + fo) * OVOL + po] = acc[i][j] + bv;
		}
	}
}

/* y [N, F, OD, OH, OW] (double) = conv3d or conv_transpose3d(x, w) + bias per
 * d; bias [F] or NULL; x float (a task's input) or double (an fp64 prologue's
 * output, L2/38). Enqueue on stream; the caller validates d with
 * cua_conv3d_oracle_validate() and checks cudaGetLastError(). */
template <typename TX>
static inline void cua_conv3d_oracle(const TX *x, const float *w, const float *bias,
                                     double *y, const struct cua_conv3d_oracle_desc &d,
                                     cudaStream_t stream)
{
	const int64_t M = d.N * d.out[0] * d.out[1] * d.out[2];
	const dim3 grid((unsigned int)((M + CUA_C3O_BM - 1) / CUA_C3O_BM),
	                (unsigned int)((d.F / d.G + CUA_C3O_BN - 1) / CUA_C3O_BN), (unsigned int)d.G);
	if (d.transposed)
		conv3d_oracle_kernel<true, TX><<<grid, CUA_C3O_THREADS, 0, stream>>>(x, w, bias, y, d);
	else
		conv3d_oracle_kernel<false, TX><<<grid, CUA_C3O_THREADS, 0, stream>>>(x, w, bias, y, d);
}

#endif /* CUA_COMMON_CONV3D_ORACLE_CUH */
