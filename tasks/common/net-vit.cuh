/* net-vit.cuh — the vision-transformer, NetVLAD and Mamba2 ops of Level 3 (L3/028–030, 032,
 * 045–049), written once over net.cuh's backends. Header-only.
 *
 *     cua_net_naive   float, naive kernels (cua_solve, the nvcc baseline)
 *     cua_net_oracle  double intermediates from the fp32 inputs (cua_oracle); the big
 *                     contractions on gemm.cuh's tiled fp64 GEMM
 *     cua_net_lib     baselines/cudnn/net-lib-vit.cuh overloads vit_gemm with cuBLAS
 *
 * Ops allocate their outputs with cua_net_alloc and launch only where vit_runs<B> is true:
 * tests/net-dry.cu's shape-only backend specializes it to false, so a network walks there
 * (extents checked, weights taken from params) without a device.
 *
 * vit_gemm is the one matrix product every network here goes through: C = alpha·op(A)·op(B)
 * over gemm.cuh's row-major descriptor (batched, strided), A of the activation type, B of
 * the activation type or f32 (a weight in params). */
#ifndef CUA_COMMON_NET_VIT_CUH
#define CUA_COMMON_NET_VIT_CUH

#include <math.h>
#include <string.h>
#include <type_traits>
#include "check.cuh"
#include "gemm.cuh"
#include "net.cuh"
#include "params.cuh"
#include "rowreduce.cuh"

#define VIT_THREADS 256

/* False for a backend that only walks shapes (tests/net-dry.cu). */
template <class B>
struct vit_runs {
	static const bool value = true;
};

static inline unsigned int vit_blocks(int64_t n)
{
	return cua_blocks_1d(n, VIT_THREADS);
}

__device__ __forceinline__ float vit_exp(float v) { return expf(v); }
__device__ __forceinline__ double vit_exp(double v) { return exp(v); }
__device__ __forceinline__ float vit_sqrt(float v) { return sqrtf(v); }
__device__ __forceinline__ double vit_sqrt(double v) { return sqrt(v); }

/* t: f32 of rank nd with extents s[0..nd). */
static inline int vit_check(const struct cua_tensor *t, int nd, const int64_t *s)
{
	CUA_CHECK(cua_check_tensor(t, CUA_F32, nd));
	for (int i = 0; i < nd; i++)
		CUA_CHECK(cua_check_dim(t, i, s[i]));
	return 0;
}

/* out: the backend's output dtype, rank nd, extents s. */
template <typename T>
static inline int vit_check_out(const struct cua_tensor *t, int nd, const int64_t *s)
{
	CUA_CHECK(cua_check_tensor(t, cua_dtype_of<T>::value, nd));
	for (int i = 0; i < nd; i++)
		CUA_CHECK(cua_check_dim(t, i, s[i]));
	return 0;
}

/* ---- the matrix product -------------------------------------------------------------- */

static inline int vit_gemm(cua_net_naive &b, const struct cua_gemm_desc &d, const float *A,
                           const float *Bm, float *C, double alpha = 1.0)
{
	cua_gemm_naive<float, float, float>(A, Bm, C, d, (float)alpha, b.stream);
	return cua_net_last_error();
}

template <typename InB>
static inline int vit_gemm(cua_net_oracle &b, const struct cua_gemm_desc &d, const double *A,
                           const InB *Bm, double *C, double alpha = 1.0)
{
	cua_gemm_f64<double, InB, double>(A, Bm, C, d, alpha, b.stream);
	return cua_net_last_error();
}

/* ---- F.normalize --------------------------------------------------------------------- */

/* F.normalize(p=2, eps=1e-12) of the vectors v[(o·n + j)·in + i], j < n (o < outer, i <
 * inner): each divided by max(‖v‖₂, eps). One thread per (o, i) vector. */
template <typename T>
__global__ void vit_normalize_strided_kernel(T *__restrict__ v, int64_t outer, int64_t n,
                                             int64_t inner)
{
	for (int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; t < outer * inner;
	     t += (int64_t)gridDim.x * blockDim.x) {
		T *p = v + (t / inner) * n * inner + t % inner;
		T s = 0;
		for (int64_t j = 0; j < n; j++)
			s += p[j * inner] * p[j * inner];
		T nrm = vit_sqrt(s);
		nrm = nrm > (T)1e-12 ? nrm : (T)1e-12;
		for (int64_t j = 0; j < n; j++)
			p[j * inner] /= nrm;
	}
}

/* Rows of n contiguous values: one block per row. */
template <typename T>
__global__ void vit_normalize_rows_kernel(T *__restrict__ v, int64_t rows, int64_t n)
{
	for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
		T *p = v + r * n, s = 0;
		for (int64_t j = threadIdx.x; j < n; j += blockDim.x)
			s += p[j] * p[j];
		T nrm = vit_sqrt(cua_block_sum(s));
		nrm = nrm > (T)1e-12 ? nrm : (T)1e-12;
		for (int64_t j = threadIdx.x; j < n; j += blockDim.x)
			p[j] /= nrm;
		__syncthreads();
	}
}

/* In place: F.normalize over the middle extent n of a viewed as [outer, n, inner]. */
template <class B>
static inline int cua_net_normalize(B &b, cua_act<typename B::T> *a, int64_t outer, int64_t n,
                                    int64_t inner)
{
	typedef typename B::T T;
	if (outer * n * inner != a->numel())
		return CUA_CHECK_E_SHAPE;
	CUA_CHECK(cua_net_own(b, a));
	if constexpr (!vit_runs<B>::value)
		return 0;
	if (inner == 1)
		vit_normalize_rows_kernel<T><<<cua_blocks_rows(outer), CUA_ROW_THREADS, 0, b.stream>>>(
			a->p, outer, n);
	else
		vit_normalize_strided_kernel<T><<<vit_blocks(outer * inner), VIT_THREADS, 0,
		                                  b.stream>>>(a->p, outer, n, inner);
	return cua_net_last_error();
}

/* ---- NetVLAD (L3/046, 047) ----------------------------------------------------------- */

/* v[b, d, k] −= (Σ_n a[b, n, k]) · c2[d, k]: a [Bn, N, KG] (its first K columns), v [Bn, D, K].
 * One thread per (b, k) forms the sum, then walks d. */
template <typename T>
__global__ void vlad_residual_kernel(const T *__restrict__ a, const float *__restrict__ c2,
                                     T *__restrict__ v, int64_t Bn, int64_t N, int64_t KG,
                                     int64_t K, int64_t D)
{
	for (int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; t < Bn * K;
	     t += (int64_t)gridDim.x * blockDim.x) {
		const int64_t bi = t / K, k = t % K;
		T s = 0;
		for (int64_t n = 0; n < N; n++)
			s += a[(bi * N + n) * KG + k];
		for (int64_t d = 0; d < D; d++)
			v[(bi * D + d) * K + k] -= s * (T)c2[d * K + k];
	}
}

/* KernelBench's NetVLAD (ghost clusters G ≥ 0): x [Bn, N, D]; params clusters [D, K+G],
 * clusters2 [1, D, K], batch_norm.weight / .bias [K+G]; output [Bn, D·K]. */
template <class B>
static int cua_net_netvlad_task(B &b, int64_t K, int64_t G, int64_t D,
                                const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                                int n_out)
{
	typedef typename B::T T;
	const int64_t KG = K + G;
	CUA_CHECK(cua_check_counts(in, n_in, 2, out, n_out, 1));
	cua_act<T> x, a, v;
	CUA_CHECK(cua_net_input(b, &in[0], 3, &x));
	const int64_t Bn = x.s[0], N = x.s[1];
	if (x.s[2] != D)
		return CUA_CHECK_E_SHAPE;
	struct cua_par c;
	CUA_CHECK(cua_par_begin(&c, &in[1]));
	const float *cl = cua_par_take(&c, D * KG), *c2 = cua_par_take(&c, D * K);
	const float *bw = cua_par_take(&c, KG), *bb = cua_par_take(&c, KG);
	CUA_CHECK(cua_par_end(&c));
	const int64_t od[2] = {Bn, D * K}, vd[3] = {Bn, D, K};
	CUA_CHECK(vit_check_out<T>(&out[0], 2, od));
	/* assignment = softmax(BN(x·clusters)) [Bn·N, K+G] */
	CUA_CHECK(cua_net_alloc2(b, Bn * N, KG, &a));
	if constexpr (vit_runs<B>::value)
		CUA_CHECK(vit_gemm(b, cua_gemm_desc_packed(Bn * N, KG, D, false, false), x.p, cl, a.p));
	CUA_CHECK(cua_net_batchnorm(b, &a, bw, bb));
	CUA_CHECK(cua_net_softmax(b, &a));
	/* vlad[b] [D, K] = x[b]ᵀ · a[b][:, :K]  (the transpose(1, 2) of assignmentᵀ·x) */
	CUA_CHECK(cua_net_alloc(b, 3, vd, &v));
	struct cua_gemm_desc g = cua_gemm_desc_packed(D, K, N, true, false);
	g.ldb = KG;
	g.batch = Bn;
	g.stride_a = N * D;
	g.stride_b = N * KG;
	g.stride_c = D * K;
	if constexpr (vit_runs<B>::value) {
		CUA_CHECK(vit_gemm(b, g, x.p, a.p, v.p));
		vlad_residual_kernel<T><<<vit_blocks(Bn * K), VIT_THREADS, 0, b.stream>>>(
			a.p, c2, v.p, Bn, N, KG, K, D);
		CUA_CHECK(cua_net_last_error());
	}
	cua_net_free(b, &a);
	CUA_CHECK(cua_net_normalize(b, &v, Bn, D, K));      /* intra: over D for each (b, k) */
	CUA_CHECK(cua_net_normalize(b, &v, Bn, D * K, 1));  /* the flattened row */
	return cua_net_output(b, v, &out[0]);
}

/* ---- Mamba2 SSD, chunked (L3/048, 049) ------------------------------------------------ */

/* Geometry: X [Bn, S, H, P], A [Bn, S, H], B and C [Bn, S, H, Nn]; chunks of Lc = 64. */
struct mamba_dims {
	int64_t Bn, S, H, P, Nn, Lc, Cn;   /* Cn = S / Lc chunks */
};

/* Acum[b, h, c, l] = Σ_{l' ≤ l} A[b, c·Lc + l', h] (torch.cumsum in the activation type). */
template <typename T>
__global__ void mamba_cumsum_kernel(const float *__restrict__ A, T *__restrict__ ac,
                                    struct mamba_dims d)
{
	for (int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; t < d.Bn * d.H * d.Cn;
	     t += (int64_t)gridDim.x * blockDim.x) {
		const int64_t c = t % d.Cn, h = (t / d.Cn) % d.H, bi = t / (d.Cn * d.H);
		T s = 0;
		for (int64_t l = 0; l < d.Lc; l++) {
			s += (T)A[(bi * d.S + c * d.Lc + l) * d.H + h];
			ac[t * d.Lc + l] = s;
		}
	}
}

/* G[b, c, h, l, s] = (C_l · B_s) · exp(Acum_l − Acum_s) for s ≤ l, else 0: the product of
 * the einsum's C, B and L = exp(segsum(A)) factors (segsum's −inf above the diagonal is
 * exp's 0). */
template <typename T>
__global__ void mamba_g_kernel(const float *__restrict__ Bm, const float *__restrict__ Cm,
                               const T *__restrict__ ac, T *__restrict__ g, struct mamba_dims d)
{
	const int64_t L2 = d.Lc * d.Lc, n = d.Bn * d.Cn * d.H * L2;
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x) {
		const int64_t s = i % d.Lc, l = (i / d.Lc) % d.Lc, h = (i / L2) % d.H;
		const int64_t c = (i / (L2 * d.H)) % d.Cn, bi = i / (L2 * d.H * d.Cn);
		if (s > l) {
			g[i] = 0;
			continue;
		}
		const int64_t rl = bi * d.S + c * d.Lc + l, rs = bi * d.S + c * d.Lc + s;
		const float *cp = Cm + (rl * d.H + h) * d.Nn, *bp = Bm + (rs * d.H + h) * d.Nn;
		T dot = 0;
		for (int64_t k = 0; k < d.Nn; k++)
			dot += (T)cp[k] * (T)bp[k];
		const T *a = ac + ((bi * d.H + h) * d.Cn + c) * d.Lc;
		g[i] = dot * vit_exp(a[l] - a[s]);
	}
}

/* states[b, c, h, p, n] = Σ_l B[b, c, l, h, n] · exp(Acum_last − Acum_l) · X[b, c, l, h, p]. */
template <typename T>
__global__ void mamba_states_kernel(const float *__restrict__ X, const float *__restrict__ Bm,
                                    const T *__restrict__ ac, T *__restrict__ st,
                                    struct mamba_dims d)
{
	const int64_t n = d.Bn * d.Cn * d.H * d.P * d.Nn;
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x) {
		const int64_t k = i % d.Nn, p = (i / d.Nn) % d.P, h = (i / (d.Nn * d.P)) % d.H;
		const int64_t c = (i / (d.Nn * d.P * d.H)) % d.Cn, bi = i / (d.Nn * d.P * d.H * d.Cn);
		const T *a = ac + ((bi * d.H + h) * d.Cn + c) * d.Lc;
		T s = 0;
		for (int64_t l = 0; l < d.Lc; l++) {
			const int64_t r = (bi * d.S + c * d.Lc + l) * d.H + h;
			s += (T)Bm[r * d.Nn + k] * vit_exp(a[d.Lc - 1] - a[l]) * (T)X[r * d.P + p];
		}
		st[i] = s;
	}
}

/* The inter-chunk recurrence: with z_c = Σ_{c' < c} Acum[c', last] (the cumsum of the
 * zero-padded chunk totals, c = 0…Cn), new[b, z, h, p, n] = Σ_{1 ≤ c ≤ z} exp(z_z − z_c) ·
 * states[b, c − 1, h, p, n] (the zero initial state is the c = 0 term). z < Cn + 1. */
template <typename T>
__global__ void mamba_chunks_kernel(const T *__restrict__ st, const T *__restrict__ ac,
                                    T *__restrict__ ns, struct mamba_dims d)
{
	const int64_t Z = d.Cn + 1, hpn = d.H * d.P * d.Nn, n = d.Bn * Z * hpn;
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x) {
		const int64_t r = i % hpn, z = (i / hpn) % Z, bi = i / (hpn * Z);
		const int64_t h = r / (d.P * d.Nn);
		const T *a = ac + (bi * d.H + h) * d.Cn * d.Lc;
		T zz = 0;                                   /* z_z */
		for (int64_t c = 0; c < z; c++)
			zz += a[c * d.Lc + d.Lc - 1];
		T zc = 0, s = 0;                            /* z_c, walking c = 0…z */
		for (int64_t c = 1; c <= z; c++) {
			zc += a[(c - 1) * d.Lc + d.Lc - 1];
			s += vit_exp(zz - zc) * st[(bi * d.Cn + c - 1) * hpn + r];
		}
		ns[i] = s;
	}
}

/* Y[b, c·Lc + l, h, p] = Σ_s G[b, c, h, l, s] · X[b, c, s, h, p]  (Y_diag, unless diag is
 * NULL: already in y) + Σ_n C[b, c, l, h, n] · new[b, c, h, p, n] · exp(Acum_l)  (Y_off). */
template <typename T>
__global__ void mamba_y_kernel(const float *__restrict__ X, const float *__restrict__ Cm,
                               const T *__restrict__ g, const T *__restrict__ ac,
                               const T *__restrict__ ns, T *__restrict__ y, bool diag,
                               struct mamba_dims d)
{
	const int64_t n = d.Bn * d.S * d.H * d.P, hpn = d.H * d.P * d.Nn;
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x) {
		const int64_t p = i % d.P, h = (i / d.P) % d.H, t = (i / (d.P * d.H)) % d.S;
		const int64_t bi = i / (d.P * d.H * d.S), c = t / d.Lc, l = t % d.Lc;
		T yd = 0;
		if (diag) {
			const T *gr = g + (((bi * d.Cn + c) * d.H + h) * d.Lc + l) * d.Lc;
			for (int64_t s = 0; s <= l; s++)
				yd += gr[s] * (T)X[((bi * d.S + c * d.Lc + s) * d.H + h) * d.P + p];
		} else {
			yd = y[i];
		}
		const float *cp = Cm + ((bi * d.S + t) * d.H + h) * d.Nn;
		const T *nr = ns + (bi * (d.Cn + 1) + c) * hpn + (h * d.P + p) * d.Nn;
		T yo = 0;
		for (int64_t k = 0; k < d.Nn; k++)
			yo += (T)cp[k] * nr[k];
		yo *= vit_exp(ac[((bi * d.H + h) * d.Cn + c) * d.Lc + l]);
		y[i] = yd + yo;
	}
}

/* The chunk states (mamba_states_kernel); net-lib-vit.cuh overloads it with cuBLAS. */
template <class B>
static inline int mamba_states(B &b, const struct mamba_dims &d, const float *X,
                               const float *Bm, const typename B::T *ac, typename B::T *st)
{
	mamba_states_kernel<typename B::T><<<vit_blocks(d.Bn * d.Cn * d.H * d.P * d.Nn),
	                                     VIT_THREADS, 0, b.stream>>>(X, Bm, ac, st, d);
	return cua_net_last_error();
}

/* Y_diag into y by the backend's matrix product: per head, over every (b, c), the
 * [Lc, Lc] G block times the [Lc, P] slice of X (row stride H·P). The oracle and the
 * naive backend fold it into mamba_y_kernel instead (false: not done here). */
template <class B>
static inline int mamba_diag_gemm(B &b, const struct mamba_dims &d, const float *X,
                                  const typename B::T *g, typename B::T *y, bool *done)
{
	*done = false;
	return 0;
}

/* Inputs X [Bn, S, H, P], A [Bn, S, H], B, C [Bn, S, H, Nn] (S a multiple of 64); out Y
 * [Bn, S, H, P] (final false, L3/048) or the final state [Bn, H, P, Nn] (true, L3/049). */
template <class B>
static int cua_net_mamba2_task(B &b, int64_t H, int64_t P, int64_t Nn, bool final,
                               const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                               int n_out)
{
	typedef typename B::T T;
	CUA_CHECK(cua_check_counts(in, n_in, 4, out, n_out, 1));
	CUA_CHECK(cua_check_tensor(&in[0], CUA_F32, 4));
	struct mamba_dims d;
	d.Bn = in[0].shape[0], d.S = in[0].shape[1], d.H = H, d.P = P, d.Nn = Nn, d.Lc = 64;
	d.Cn = d.S / d.Lc;
	if (d.S % d.Lc)
		return CUA_CHECK_E_SHAPE;
	const int64_t xs[4] = {d.Bn, d.S, H, P}, as[3] = {d.Bn, d.S, H}, bs[4] = {d.Bn, d.S, H, Nn};
	const int64_t fs[4] = {d.Bn, H, P, Nn};
	CUA_CHECK(vit_check(&in[0], 4, xs));
	CUA_CHECK(vit_check(&in[1], 3, as));
	CUA_CHECK(vit_check(&in[2], 4, bs));
	CUA_CHECK(vit_check(&in[3], 4, bs));
	CUA_CHECK(vit_check_out<T>(&out[0], 4, final ? fs : xs));
	const float *X = (const float *)in[0].data, *A = (const float *)in[1].data;
	const float *Bm = (const float *)in[2].data, *Cm = (const float *)in[3].data;
	cua_act<T> ac, st, ns, g, y;
	const int64_t hpn = H * P * Nn;
	CUA_CHECK(cua_net_alloc2(b, d.Bn * H * d.Cn, d.Lc, &ac));
	CUA_CHECK(cua_net_alloc2(b, d.Bn * d.Cn, hpn, &st));
	CUA_CHECK(cua_net_alloc2(b, d.Bn * (d.Cn + 1), hpn, &ns));
	if constexpr (vit_runs<B>::value) {
		mamba_cumsum_kernel<T><<<vit_blocks(ac.s[0]), VIT_THREADS, 0, b.stream>>>(A, ac.p, d);
		CUA_CHECK(cua_net_last_error());
		CUA_CHECK(mamba_states(b, d, X, Bm, ac.p, st.p));
		mamba_chunks_kernel<T><<<vit_blocks(ns.numel()), VIT_THREADS, 0, b.stream>>>(
			st.p, ac.p, ns.p, d);
		CUA_CHECK(cua_net_last_error());
	}
	cua_net_free(b, &st);
	if (final) {
		/* new_states[:, -1]: z = Cn of every batch entry */
		CUA_CHECK(cua_net_alloc(b, 4, fs, &y));
		if constexpr (vit_runs<B>::value) {
			cudaError_t e = cudaMemcpy2DAsync(y.p, hpn * sizeof(T),
			                                  ns.p + d.Cn * hpn, (d.Cn + 1) * hpn * sizeof(T),
			                                  hpn * sizeof(T), d.Bn,
			                                  cudaMemcpyDeviceToDevice, b.stream);
			if (e != cudaSuccess)
				return (int)e;
		}
		return cua_net_output(b, y, &out[0]);
	}
	CUA_CHECK(cua_net_alloc2(b, d.Bn * d.Cn * H * d.Lc, d.Lc, &g));
	CUA_CHECK(cua_net_alloc(b, 4, xs, &y));
	if constexpr (vit_runs<B>::value) {
		bool done;
		mamba_g_kernel<T><<<vit_blocks(g.numel()), VIT_THREADS, 0, b.stream>>>(Bm, Cm, ac.p,
		                                                                        g.p, d);
		CUA_CHECK(cua_net_last_error());
		CUA_CHECK(mamba_diag_gemm(b, d, X, g.p, y.p, &done));
		mamba_y_kernel<T><<<vit_blocks(y.numel()), VIT_THREADS, 0, b.stream>>>(
			X, Cm, g.p, ac.p, ns.p, y.p, !done, d);
		CUA_CHECK(cua_net_last_error());
	}
	return cua_net_output(b, y, &out[0]);
}

#endif /* CUA_COMMON_NET_VIT_CUH */
