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
#include "net-seq.cuh"
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

/* ---- transformer pieces (L3/028, 032; the Swins reuse them) ---------------------------- */

/* In place: nn.GELU() (exact, erf): 0.5·x·(1 + erf(x/√2)). */
template <typename T>
__global__ void vit_gelu_kernel(T *x, int64_t n)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		x[i] = T(0.5) * x[i] * (T(1) + erf(x[i] * (T)0.7071067811865476));
}

template <class B>
static inline int cua_net_gelu(B &b, cua_act<typename B::T> *a)
{
	CUA_CHECK(cua_net_own(b, a));
	if constexpr (vit_runs<B>::value) {
		vit_gelu_kernel<typename B::T><<<vit_blocks(a->numel()), VIT_THREADS, 0, b.stream>>>(
			a->p, a->numel());
		return cua_net_last_error();
	}
	return 0;
}

/* In place over the last dimension: nn.LayerNorm (net-seq.cuh's kernel). */
template <class B>
static inline int vit_layernorm(B &b, cua_act<typename B::T> *a, const float *w,
                                const float *bias, double eps = 1e-5)
{
	if (!w || !bias)
		return CUA_CHECK_E_NULL;
	if constexpr (vit_runs<B>::value)
		return cua_net_layernorm(b, a, w, bias, eps);
	return cua_net_own(b, a);
}

/* Multi-head self-attention core over qkv rows [Bn·Tn, 3C] (net-seq.cuh's, the library's
 * overload in net-lib-seq.cuh): *y [Bn·Tn, C]. */
template <class B>
static inline int vit_attention(B &b, const cua_act<typename B::T> &qkv, int64_t Bn, int64_t Tn,
                                int64_t nh, cua_act<typename B::T> *y)
{
	if constexpr (vit_runs<B>::value)
		return cua_net_attention(b, qkv, Bn, Tn, nh, SEQ_ATT_SOFTMAX, y);
	const int64_t C = qkv.s[1] / 3;
	if (qkv.nd != 2 || qkv.s[0] != Bn * Tn || qkv.s[1] != 3 * C || C % nh)
		return CUA_CHECK_E_SHAPE;
	return cua_net_alloc2(b, Bn * Tn, C, y);
}

/* One nn.TransformerEncoderLayer's weights (PyTorch's state_dict order). */
struct vit_enc_w {
	const float *in_w, *in_b, *out_w, *out_b, *l1_w, *l1_b, *l2_w, *l2_b;
	const float *n1_w, *n1_b, *n2_w, *n2_b;
};

static inline int vit_take_enc(struct cua_par *c, int64_t d, int64_t ff, struct vit_enc_w *w)
{
	w->in_w = cua_par_take(c, 3 * d * d);
	w->in_b = cua_par_take(c, 3 * d);
	w->out_w = cua_par_take(c, d * d);
	w->out_b = cua_par_take(c, d);
	w->l1_w = cua_par_take(c, ff * d);
	w->l1_b = cua_par_take(c, ff);
	w->l2_w = cua_par_take(c, d * ff);
	w->l2_b = cua_par_take(c, d);
	w->n1_w = cua_par_take(c, d);
	w->n1_b = cua_par_take(c, d);
	w->n2_w = cua_par_take(c, d);
	w->n2_b = cua_par_take(c, d);
	return c->bad ? CUA_CHECK_E_SHAPE : 0;
}

/* nn.TransformerEncoderLayer(d, nh, ff, dropout 0), PyTorch's defaults: ReLU, post-norm
 * (norm_first False), eps 1e-5, on rows x [Bn·Tn, d] of Bn sequences of Tn tokens:
 *     x = norm1(x + out_proj(attention(in_proj(x))))
 *     x = norm2(x + linear2(relu(linear1(x))))
 * *x is replaced (the old one freed when owned). */
template <class B>
static int vit_encoder_layer(B &b, cua_act<typename B::T> *x, int64_t Bn, int64_t Tn,
                             int64_t nh, int64_t ff, const struct vit_enc_w &w)
{
	typedef typename B::T T;
	const int64_t d = x->s[1];
	cua_act<T> qkv, a, h, f;
	CUA_CHECK(cua_net_linear(b, *x, w.in_w, w.in_b, 3 * d, &qkv));
	CUA_CHECK(vit_attention(b, qkv, Bn, Tn, nh, &a));
	cua_net_free(b, &qkv);
	CUA_CHECK(cua_net_linear(b, a, w.out_w, w.out_b, d, &h));
	cua_net_free(b, &a);
	CUA_CHECK(cua_net_add(b, &h, *x));
	cua_net_free(b, x);
	CUA_CHECK(vit_layernorm(b, &h, w.n1_w, w.n1_b));
	CUA_CHECK(cua_net_linear(b, h, w.l1_w, w.l1_b, ff, &f));
	CUA_CHECK(cua_net_relu(b, &f));
	CUA_CHECK(cua_net_linear(b, f, w.l2_w, w.l2_b, d, &a));
	cua_net_free(b, &f);
	CUA_CHECK(cua_net_add(b, &a, h));
	cua_net_free(b, &h);
	CUA_CHECK(vit_layernorm(b, &a, w.n2_w, w.n2_b));
	*x = a;
	return 0;
}

/* y [Bn·(Tn+1), d]: per sequence the row cls (+ pos[0]) then its Tn rows of x (+ pos[1…]);
 * pos [Tn+1, d] or NULL (torch.cat((cls_tokens, x), dim=1), then += pos_embedding). */
template <typename T>
__global__ void vit_cls_kernel(const T *__restrict__ x, const float *__restrict__ cls,
                               const float *__restrict__ pos, T *__restrict__ y, int64_t Bn,
                               int64_t Tn, int64_t d)
{
	const int64_t n = Bn * (Tn + 1) * d;
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x) {
		const int64_t e = i % d, t = (i / d) % (Tn + 1), bi = i / (d * (Tn + 1));
		T v = t == 0 ? (T)cls[e] : x[(bi * Tn + t - 1) * d + e];
		if (pos)
			v += (T)pos[t * d + e];
		y[i] = v;
	}
}

template <class B>
static inline int vit_prepend_cls(B &b, const cua_act<typename B::T> &x, int64_t Bn, int64_t Tn,
                                  const float *cls, const float *pos, cua_act<typename B::T> *y)
{
	const int64_t d = x.s[1];
	if (!cls)
		return CUA_CHECK_E_NULL;
	if (x.nd != 2 || x.s[0] != Bn * Tn)
		return CUA_CHECK_E_SHAPE;
	CUA_CHECK(cua_net_alloc2(b, Bn * (Tn + 1), d, y));
	if constexpr (vit_runs<B>::value) {
		vit_cls_kernel<typename B::T><<<vit_blocks(y->numel()), VIT_THREADS, 0, b.stream>>>(
			x.p, cls, pos, y->p, Bn, Tn, d);
		return cua_net_last_error();
	}
	return 0;
}

/* y [Bn, d] = row t of each of the Bn sequences of Tn rows of x (x[:, t]). */
template <class B>
static inline int vit_token(B &b, const cua_act<typename B::T> &x, int64_t Bn, int64_t Tn,
                            int64_t t, cua_act<typename B::T> *y)
{
	typedef typename B::T T;
	const int64_t d = x.s[1];
	if (x.nd != 2 || x.s[0] != Bn * Tn || t < 0 || t >= Tn)
		return CUA_CHECK_E_SHAPE;
	CUA_CHECK(cua_net_alloc2(b, Bn, d, y));
	if constexpr (vit_runs<B>::value) {
		cudaError_t e = cudaMemcpy2DAsync(y->p, d * sizeof(T), x.p + t * d, Tn * d * sizeof(T),
		                                  d * sizeof(T), Bn, cudaMemcpyDeviceToDevice, b.stream);
		return e == cudaSuccess ? 0 : (int)e;
	}
	return 0;
}

/* KernelBench ViT's patch rows: img.unfold(2, p, p).unfold(3, p, p) is [N, C, H/p, W/p, p, p];
 * .reshape(N, -1, p·p·C) flattens it in that order *without* a permute, so row r of image n
 * is elements r·p²C … r·p²C + p²C − 1 of the (c, hp, wp, ph, pw) order: a row mixes
 * channels and patches (task.json says so). */
template <typename T>
__global__ void vit_unfold_kernel(const T *__restrict__ img, T *__restrict__ y, int64_t N,
                                  int64_t C, int64_t H, int64_t W, int64_t p)
{
	const int64_t n = N * C * H * W, per = C * H * W, hq = H / p, wq = W / p;
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x) {
		const int64_t bi = i / per, f = i % per;
		const int64_t pw = f % p, ph = (f / p) % p, wp = (f / (p * p)) % wq;
		const int64_t hp = (f / (p * p * wq)) % hq, c = f / (p * p * wq * hq);
		y[i] = img[((bi * C + c) * H + hp * p + ph) * W + wp * p + pw];
	}
}

template <class B>
static inline int vit_unfold_rows(B &b, const cua_act<typename B::T> &img, int64_t p,
                                  cua_act<typename B::T> *y)
{
	if (img.nd != 4 || img.s[2] % p || img.s[3] % p)
		return CUA_CHECK_E_SHAPE;
	const int64_t N = img.s[0], C = img.s[1], H = img.s[2], W = img.s[3];
	CUA_CHECK(cua_net_alloc2(b, N * (H / p) * (W / p), p * p * C, y));
	if constexpr (vit_runs<B>::value) {
		vit_unfold_kernel<typename B::T><<<vit_blocks(y->numel()), VIT_THREADS, 0, b.stream>>>(
			img.p, y->p, N, C, H, W, p);
		return cua_net_last_error();
	}
	return 0;
}

/* L3/028: KernelBench's VisionTransformer (image 224, patch 16, dim 512, depth 6, 8 heads,
 * mlp 2048, 10 classes, dropout 0), the encoder batch-first (DEPARTURES-vit.md). params:
 * pos_embedding [1, 197, 512], cls_token [1, 1, 512], patch_to_embedding, transformer.layers.{i},
 * mlp_head.0 [2048, 512], mlp_head.3 [10, 2048]. */
template <class B>
static int cua_net_vit_task(B &b, int64_t img_size, int64_t p, int64_t dim, int64_t depth,
                            int64_t nh, int64_t mlp, int64_t classes,
                            const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                            int n_out)
{
	typedef typename B::T T;
	CUA_CHECK(cua_check_counts(in, n_in, 2, out, n_out, 1));
	cua_act<T> img, rows, e, x, c, h, y;
	CUA_CHECK(cua_net_input(b, &in[0], 4, &img));
	const int64_t N = img.s[0], np = (img_size / p) * (img_size / p), pd = 3 * p * p;
	if (img.s[1] != 3 || img.s[2] != img_size || img.s[3] != img_size)
		return CUA_CHECK_E_SHAPE;
	struct cua_par pc;
	struct vit_enc_w w[16];
	if (depth > 16)
		return CUA_CHECK_E_PARAM;
	CUA_CHECK(cua_par_begin(&pc, &in[1]));
	const float *pos = cua_par_take(&pc, (np + 1) * dim), *cls = cua_par_take(&pc, dim);
	const float *pe_w = cua_par_take(&pc, dim * pd), *pe_b = cua_par_take(&pc, dim);
	for (int64_t i = 0; i < depth; i++)
		CUA_CHECK(vit_take_enc(&pc, dim, mlp, &w[i]));
	const float *h0_w = cua_par_take(&pc, mlp * dim), *h0_b = cua_par_take(&pc, mlp);
	const float *h3_w = cua_par_take(&pc, classes * mlp), *h3_b = cua_par_take(&pc, classes);
	CUA_CHECK(cua_par_end(&pc));
	const int64_t od[2] = {N, classes};
	CUA_CHECK(vit_check_out<T>(&out[0], 2, od));
	CUA_CHECK(vit_unfold_rows(b, img, p, &rows));
	cua_net_free(b, &img);
	CUA_CHECK(cua_net_linear(b, rows, pe_w, pe_b, dim, &e));
	cua_net_free(b, &rows);
	CUA_CHECK(vit_prepend_cls(b, e, N, np, cls, pos, &x));
	cua_net_free(b, &e);
	for (int64_t i = 0; i < depth; i++)
		CUA_CHECK(vit_encoder_layer(b, &x, N, np + 1, nh, mlp, w[i]));
	CUA_CHECK(vit_token(b, x, N, np + 1, 0, &c));
	cua_net_free(b, &x);
	CUA_CHECK(cua_net_linear(b, c, h0_w, h0_b, mlp, &h));
	CUA_CHECK(cua_net_gelu(b, &h));
	CUA_CHECK(cua_net_linear(b, h, h3_w, h3_b, classes, &y));
	return cua_net_output(b, y, &out[0]);
}

/* L3/032: KernelBench's ConvolutionalVisionTransformer (embed 128, 4 heads, 6 layers, mlp
 * ratio 4, patch 4, image 32, 1000 classes). params: cls_token [1, 1, 128], conv1 [128, 3, 4,
 * 4] + [128], linear_proj [128, 128·64], transformer_layers.{i}, fc_out [1000, 128]. */
template <class B>
static int cua_net_cvit_task(B &b, int64_t img_size, int64_t p, int64_t dim, int64_t layers,
                             int64_t nh, int64_t ff, int64_t classes,
                             const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                             int n_out)
{
	typedef typename B::T T;
	CUA_CHECK(cua_check_counts(in, n_in, 2, out, n_out, 1));
	cua_act<T> img, cv, e, x, c, y;
	CUA_CHECK(cua_net_input(b, &in[0], 4, &img));
	const int64_t N = img.s[0], np = (img_size / p) * (img_size / p);
	if (img.s[1] != 3 || img.s[2] != img_size || img.s[3] != img_size)
		return CUA_CHECK_E_SHAPE;
	struct cua_par pc;
	struct vit_enc_w w[16];
	if (layers > 16)
		return CUA_CHECK_E_PARAM;
	CUA_CHECK(cua_par_begin(&pc, &in[1]));
	const float *cls = cua_par_take(&pc, dim);
	const float *cw = cua_par_take(&pc, dim * 3 * p * p), *cb = cua_par_take(&pc, dim);
	const float *lw = cua_par_take(&pc, dim * dim * np), *lb = cua_par_take(&pc, dim);
	for (int64_t i = 0; i < layers; i++)
		CUA_CHECK(vit_take_enc(&pc, dim, ff, &w[i]));
	const float *fw = cua_par_take(&pc, classes * dim), *fb = cua_par_take(&pc, classes);
	CUA_CHECK(cua_par_end(&pc));
	const int64_t od[2] = {N, classes};
	CUA_CHECK(vit_check_out<T>(&out[0], 2, od));
	CUA_CHECK(cua_net_conv2d(b, img, cw, cb, cua_conv(dim, p, p), &cv));
	cua_net_free(b, &img);
	cua_net_flatten(&cv);
	CUA_CHECK(cua_net_linear(b, cv, lw, lb, dim, &e));
	cua_net_free(b, &cv);
	CUA_CHECK(vit_prepend_cls(b, e, N, 1, cls, NULL, &x));   /* [N, 2, dim] */
	cua_net_free(b, &e);
	for (int64_t i = 0; i < layers; i++)
		CUA_CHECK(vit_encoder_layer(b, &x, N, 2, nh, ff, w[i]));
	CUA_CHECK(vit_token(b, x, N, 2, 0, &c));
	cua_net_free(b, &x);
	CUA_CHECK(cua_net_linear(b, c, fw, fb, classes, &y));
	return cua_net_output(b, y, &out[0]);
}

/* ---- ConvTranspose2d and KernelBench's softmax U-Net (L3/045) -------------------------- */

/* The descriptor of nn.ConvTranspose2d(C, F, k, stride s, padding 0) on x [N, C, H, W]:
 * y [N, F, (H−1)·s + k, (W−1)·s + k]. */
template <typename T>
static inline int vit_convt_desc(const cua_act<T> &x, int64_t F, int64_t k, int64_t s,
                                 struct cua_conv_oracle_desc *d)
{
	if (x.nd != 4)
		return CUA_CHECK_E_NDIM;
	memset(d, 0, sizeof(*d));
	d->transposed = true;
	d->N = x.s[0], d->C = x.s[1], d->H = x.s[2], d->W = x.s[3];
	d->F = F, d->KH = d->KW = k, d->SH = d->SW = s, d->DH = d->DW = 1, d->G = 1;
	d->OH = cua_conv_oracle_out(*d, d->H, k, s, 0, 1, 0);
	d->OW = cua_conv_oracle_out(*d, d->W, k, s, 0, 1, 0);
	return cua_conv_oracle_validate(*d);
}

/* One thread per output: y[n, f, oh, ow] = bias[f] + Σ_c Σ_{kh, kw: oh = ih·s + kh,
 * ow = iw·s + kw} x[n, c, ih, iw] · w[c, f, kh, kw]; w [C, F, k, k] as PyTorch stores it. */
template <typename T>
__global__ void vit_convt_naive_kernel(const T *__restrict__ x, const float *__restrict__ w,
                                       const float *__restrict__ bias, T *__restrict__ y,
                                       struct cua_conv_oracle_desc d)
{
	const int64_t n = d.N * d.F * d.OH * d.OW;
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x) {
		const int64_t ow = i % d.OW, oh = (i / d.OW) % d.OH, f = (i / (d.OW * d.OH)) % d.F;
		const int64_t bi = i / (d.OW * d.OH * d.F);
		T acc = bias ? (T)bias[f] : (T)0;
		for (int64_t kh = oh % d.SH; kh < d.KH; kh += d.SH) {
			const int64_t ih = (oh - kh) / d.SH;
			if (ih < 0 || ih >= d.H)
				continue;
			for (int64_t kw = ow % d.SW; kw < d.KW; kw += d.SW) {
				const int64_t iw = (ow - kw) / d.SW;
				if (iw < 0 || iw >= d.W)
					continue;
				for (int64_t c = 0; c < d.C; c++)
					acc += x[((bi * d.C + c) * d.H + ih) * d.W + iw] *
					       (T)w[((c * d.F + f) * d.KH + kh) * d.KW + kw];
			}
		}
		y[i] = acc;
	}
}

/* y = conv_transpose2d(x, w, bias, stride s), padding 0 (the naive kernel; the oracle's
 * overload is the tiled fp64 one, the library's cuDNN's backward-data). */
template <class B>
static inline int cua_net_conv_transpose2d(B &b, const cua_act<typename B::T> &x, const float *w,
                                           const float *bias, int64_t F, int64_t k, int64_t s,
                                           cua_act<typename B::T> *y)
{
	struct cua_conv_oracle_desc d;
	if (!w)
		return CUA_CHECK_E_NULL;
	CUA_CHECK(vit_convt_desc(x, F, k, s, &d));
	CUA_CHECK(cua_net_alloc4(b, d.N, d.F, d.OH, d.OW, y));
	if constexpr (vit_runs<B>::value) {
		vit_convt_naive_kernel<typename B::T><<<vit_blocks(y->numel()), VIT_THREADS, 0,
		                                        b.stream>>>(x.p, w, bias, y->p, d);
		return cua_net_last_error();
	}
	return 0;
}

static inline int cua_net_conv_transpose2d(cua_net_oracle &b, const cua_act<double> &x,
                                           const float *w, const float *bias, int64_t F,
                                           int64_t k, int64_t s, cua_act<double> *y)
{
	struct cua_conv_oracle_desc d;
	if (!w)
		return CUA_CHECK_E_NULL;
	CUA_CHECK(vit_convt_desc(x, F, k, s, &d));
	CUA_CHECK(cua_net_alloc4(b, d.N, d.F, d.OH, d.OW, y));
	cua_conv_oracle<double>(x.p, w, bias, y->p, d, b.stream);
	return cua_net_last_error();
}

/* net.cuh's cua_net_concat (channels), extents only on a shape-walking backend. */
template <class B>
static inline int vit_concat(B &b, const cua_act<typename B::T> *xs, int n,
                             cua_act<typename B::T> *y)
{
	if constexpr (vit_runs<B>::value)
		return cua_net_concat(b, xs, n, y);
	if (n < 1)
		return CUA_CHECK_E_COUNT;
	int64_t s[4];
	memcpy(s, xs[0].s, sizeof(s));
	s[1] = 0;
	for (int i = 0; i < n; i++) {
		if (xs[i].nd != xs[0].nd || xs[i].s[0] != xs[0].s[0] || xs[i].hw() != xs[0].hw())
			return CUA_CHECK_E_SHAPE;
		s[1] += xs[i].s[1];
	}
	return cua_net_alloc(b, xs[0].nd, s, y);
}

/* KernelBench's DoubleConv: (conv3×3 pad 1 → BatchNorm2d → softmax over the last dim
 * (the width)) twice. Takes its weights (conv.0, bn.1, conv.3, bn.4) from c; *x replaced. */
template <class B>
static int vit_double_conv(B &b, struct cua_par *c, cua_act<typename B::T> *x, int64_t out)
{
	typedef typename B::T T;
	for (int i = 0; i < 2; i++) {
		const int64_t in = x->s[1];
		const float *w = cua_par_take(c, out * in * 9), *bias = cua_par_take(c, out);
		const float *g = cua_par_take(c, out), *be = cua_par_take(c, out);
		cua_act<T> y;
		CUA_CHECK(cua_net_conv2d(b, *x, w, bias, cua_conv(out, 3, 1, 1), &y));
		cua_net_free(b, x);
		CUA_CHECK(cua_net_batchnorm(b, &y, g, be));
		CUA_CHECK(cua_net_softmax(b, &y));
		*x = y;
	}
	return 0;
}

/* L3/045: KernelBench's U-Net with softmax (in 8, out 4, features 64): 4 encoder
 * DoubleConvs each followed by max-pool 2, a bottleneck DoubleConv, 4 decoder steps
 * (ConvTranspose2d k 2 stride 2, concat with the encoder's output, DoubleConv), a 1×1 conv. */
template <class B>
static int cua_net_unet_task(B &b, int64_t cin, int64_t cout, int64_t feat,
                             const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                             int n_out)
{
	typedef typename B::T T;
	CUA_CHECK(cua_check_counts(in, n_in, 2, out, n_out, 1));
	cua_act<T> x, enc[4], t, cat[2], y;
	CUA_CHECK(cua_net_input(b, &in[0], 4, &x));
	const int64_t N = x.s[0], H = x.s[2], W = x.s[3];
	if (x.s[1] != cin || H % 16 || W % 16)
		return CUA_CHECK_E_SHAPE;
	const int64_t od[4] = {N, cout, H, W};
	CUA_CHECK(vit_check_out<T>(&out[0], 4, od));
	struct cua_par c;
	CUA_CHECK(cua_par_begin(&c, &in[1]));
	t = x;
	for (int l = 0; l < 4; l++) {
		CUA_CHECK(vit_double_conv(b, &c, &t, feat << l));
		enc[l] = t;
		CUA_CHECK(cua_net_maxpool2d(b, enc[l], 2, 2, 0, &t));
	}
	CUA_CHECK(vit_double_conv(b, &c, &t, feat << 4));        /* the bottleneck */
	for (int l = 3; l >= 0; l--) {
		const int64_t f = feat << l;
		const float *uw = cua_par_take(&c, 2 * f * f * 4), *ub = cua_par_take(&c, f);
		CUA_CHECK(cua_net_conv_transpose2d(b, t, uw, ub, f, 2, 2, &cat[0]));
		cua_net_free(b, &t);
		cat[1] = enc[l];
		CUA_CHECK(vit_concat(b, cat, 2, &t));                 /* cat((up, enc), dim=1) */
		cua_net_free(b, &cat[0]);
		cua_net_free(b, &enc[l]);
		CUA_CHECK(vit_double_conv(b, &c, &t, f));
	}
	const float *fw = cua_par_take(&c, cout * feat), *fb = cua_par_take(&c, cout);
	CUA_CHECK(cua_par_end(&c));
	CUA_CHECK(cua_net_conv2d(b, t, fw, fb, cua_conv(cout, 1), &y));
	return cua_net_output(b, y, &out[0]);
}

/* ---- Swin pieces (L3/029, 030) ------------------------------------------------------------- */

/* y [N·L, C] = x [N, C, L] transposed per image (a patch conv's flatten(2).transpose(1, 2)). */
template <class B>
static inline int vit_to_rows(B &b, const cua_act<typename B::T> &x, cua_act<typename B::T> *y)
{
	if (x.nd != 4)
		return CUA_CHECK_E_NDIM;
	const int64_t N = x.s[0], C = x.s[1], L = x.s[2] * x.s[3];
	CUA_CHECK(cua_net_alloc2(b, N * L, C, y));
	if constexpr (vit_runs<B>::value)
		return seq_transpose<typename B::T, typename B::T>(x.p, y->p, N, C, L, b.stream);
	return 0;
}

/* Where token (y, x) of an H×W image sits in a Swin window grid: padded/shifted coordinates
 * py = y + off, px = x + off (off = the pad before or the roll), window (py / ws, px / ws),
 * position (py % ws)·ws + px % ws. */

/* SwinMLP's spatial MLP on the normed tokens u [N, H·W, C] (rows): with the image padded by
 * P = ws − ss before and ss after in H and W (zeros; no padding when ss = 0), each ws×ws
 * window and head h (C/nh channels) is mixed by the grouped 1×1 Conv1d: out[i, ch] =
 * bias[h·ws² + i] + Σ_j W[h·ws² + i, j]·u[token j, ch], i, j window positions. Only the
 * tokens of the image are kept (the crop), so each thread computes one (token, channel). */
template <typename T>
__global__ void swin_spatial_mlp_kernel(const T *__restrict__ u, const float *__restrict__ w,
                                        const float *__restrict__ bias, T *__restrict__ y,
                                        int64_t N, int64_t H, int64_t W, int64_t C, int64_t nh,
                                        int64_t ws, int64_t off)
{
	const int64_t n = N * H * W * C, hc = C / nh, w2 = ws * ws;
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x) {
		const int64_t ch = i % C, t = i / C, xx = t % W, yy = (t / W) % H, bi = t / (W * H);
		const int64_t h = ch / hc, py = yy + off, px = xx + off;
		const int64_t wy0 = py / ws * ws, wx0 = px / ws * ws, pos = (py % ws) * ws + px % ws;
		const float *wr = w + (h * w2 + pos) * w2;
		T acc = (T)bias[h * w2 + pos];
		for (int64_t j = 0; j < w2; j++) {
			const int64_t sy = wy0 + j / ws - off, sx = wx0 + j % ws - off;
			if (sy < 0 || sy >= H || sx < 0 || sx >= W)
				continue;            /* the zero padding */
			acc += (T)wr[j] * u[((bi * H + sy) * W + sx) * C + ch];
		}
		y[i] = acc;
	}
}

template <class B>
static inline int swin_spatial_mlp(B &b, const cua_act<typename B::T> &u, int64_t N, int64_t H,
                                   int64_t W, int64_t nh, int64_t ws, int64_t ss, const float *w,
                                   const float *bias, cua_act<typename B::T> *y)
{
	const int64_t C = u.s[1];
	if (!w || !bias)
		return CUA_CHECK_E_NULL;
	if (u.nd != 2 || u.s[0] != N * H * W || C % nh)
		return CUA_CHECK_E_SHAPE;
	CUA_CHECK(cua_net_alloc2(b, N * H * W, C, y));
	if constexpr (vit_runs<B>::value) {
		swin_spatial_mlp_kernel<typename B::T><<<vit_blocks(y->numel()), VIT_THREADS, 0,
		                                         b.stream>>>(u.p, w, bias, y->p, N, H, W, C, nh,
		                                                     ws, ss ? ws - ss : 0);
		return cua_net_last_error();
	}
	return 0;
}

/* PatchMerging's gather: x [N, H·W, C] → [N, (H/2)·(W/2), 4C], channel block k of output
 * token (i, j) = x[2i + (k & 1), 2j + (k >> 1)] (torch.cat([x0, x1, x2, x3], −1)). */
template <typename T>
__global__ void swin_merge_kernel(const T *__restrict__ x, T *__restrict__ y, int64_t N,
                                  int64_t H, int64_t W, int64_t C)
{
	const int64_t H2 = H / 2, W2 = W / 2, n = N * H2 * W2 * 4 * C;
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x) {
		const int64_t c = i % C, k = (i / C) % 4, t = i / (4 * C);
		const int64_t jj = t % W2, ii = (t / W2) % H2, bi = t / (W2 * H2);
		y[i] = x[((bi * H + 2 * ii + (k & 1)) * W + 2 * jj + (k >> 1)) * C + c];
	}
}

/* PatchMerging: gather, LayerNorm(4C), reduction Linear(4C → 2C, no bias); *x replaced. */
template <class B>
static int swin_patch_merge(B &b, cua_act<typename B::T> *x, int64_t N, int64_t H, int64_t W,
                            const float *red, const float *nw, const float *nb)
{
	typedef typename B::T T;
	const int64_t C = x->s[1];
	cua_act<T> g;
	if (H % 2 || W % 2 || x->s[0] != N * H * W)
		return CUA_CHECK_E_SHAPE;
	CUA_CHECK(cua_net_alloc2(b, N * (H / 2) * (W / 2), 4 * C, &g));
	if constexpr (vit_runs<B>::value) {
		swin_merge_kernel<T><<<vit_blocks(g.numel()), VIT_THREADS, 0, b.stream>>>(x->p, g.p, N,
		                                                                          H, W, C);
		CUA_CHECK(cua_net_last_error());
	}
	cua_net_free(b, x);
	CUA_CHECK(vit_layernorm(b, &g, nw, nb));
	CUA_CHECK(cua_net_linear(b, g, red, NULL, 2 * C, x));
	cua_net_free(b, &g);
	return 0;
}

/* y [N, C] = the mean over the L tokens of each image of x [N·L, C] (AdaptiveAvgPool1d(1)). */
template <typename T>
__global__ void vit_token_mean_kernel(const T *__restrict__ x, T *__restrict__ y, int64_t N,
                                      int64_t L, int64_t C)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < N * C;
	     i += (int64_t)gridDim.x * blockDim.x) {
		const int64_t c = i % C, bi = i / C;
		T s = 0;
		for (int64_t l = 0; l < L; l++)
			s += x[(bi * L + l) * C + c];
		y[i] = s / (T)L;
	}
}

template <class B>
static inline int vit_token_mean(B &b, const cua_act<typename B::T> &x, int64_t N, int64_t L,
                                 cua_act<typename B::T> *y)
{
	const int64_t C = x.s[1];
	if (x.nd != 2 || x.s[0] != N * L)
		return CUA_CHECK_E_SHAPE;
	CUA_CHECK(cua_net_alloc2(b, N, C, y));
	if constexpr (vit_runs<B>::value) {
		vit_token_mean_kernel<typename B::T><<<vit_blocks(N * C), VIT_THREADS, 0, b.stream>>>(
			x.p, y->p, N, L, C);
		return cua_net_last_error();
	}
	return 0;
}

/* The Swin MLP head: x = mlp(norm2(x)) added to x, mlp = fc2(GELU(fc1(·))); *x updated. */
template <class B>
static int swin_mlp_residual(B &b, cua_act<typename B::T> *x, const float *nw, const float *nb,
                             const float *w1, const float *b1, const float *w2, const float *b2,
                             int64_t hidden)
{
	typedef typename B::T T;
	const int64_t C = x->s[1];
	cua_act<T> h, f, m;
	h = *x;
	h.owned = false;
	CUA_CHECK(vit_layernorm(b, &h, nw, nb));      /* a copy: x stays the shortcut */
	CUA_CHECK(cua_net_linear(b, h, w1, b1, hidden, &f));
	cua_net_free(b, &h);
	CUA_CHECK(cua_net_gelu(b, &f));
	CUA_CHECK(cua_net_linear(b, f, w2, b2, C, &m));
	cua_net_free(b, &f);
	CUA_CHECK(cua_net_add(b, x, m));
	cua_net_free(b, &m);
	return 0;
}

/* L3/029: KernelBench's SwinMLP (image 224, patch 4, embed 96, depths 2 2 6 2, heads 3 6 12
 * 24, window 7, mlp ratio 4, patch norm, 1000 classes). Block: x += crop(spatial_mlp(pad(
 * norm1(x)))); x += mlp(norm2(x)); odd blocks shifted by ws/2 (the padding), none where the
 * resolution ≤ the window (then the window is the resolution). */
template <class B>
static int cua_net_swin_mlp_task(B &b, const struct cua_tensor *in, int n_in,
                                 struct cua_tensor *out, int n_out)
{
	typedef typename B::T T;
	const int64_t img_size = 224, p = 4, E = 96, ws0 = 7, classes = 1000;
	const int depths[4] = {2, 2, 6, 2}, heads[4] = {3, 6, 12, 24};
	CUA_CHECK(cua_check_counts(in, n_in, 2, out, n_out, 1));
	cua_act<T> img, cv, x, u, sm, pooled, y;
	CUA_CHECK(cua_net_input(b, &in[0], 4, &img));
	const int64_t N = img.s[0];
	if (img.s[1] != 3 || img.s[2] != img_size || img.s[3] != img_size)
		return CUA_CHECK_E_SHAPE;
	const int64_t od[2] = {N, classes};
	CUA_CHECK(vit_check_out<T>(&out[0], 2, od));
	struct cua_par c;
	CUA_CHECK(cua_par_begin(&c, &in[1]));
	const float *pw = cua_par_take(&c, E * 3 * p * p), *pb = cua_par_take(&c, E);
	const float *pnw = cua_par_take(&c, E), *pnb = cua_par_take(&c, E);
	CUA_CHECK(cua_net_conv2d(b, img, pw, pb, cua_conv(E, p, p), &cv));
	cua_net_free(b, &img);
	CUA_CHECK(vit_to_rows(b, cv, &x));
	cua_net_free(b, &cv);
	CUA_CHECK(vit_layernorm(b, &x, pnw, pnb));
	int64_t R = img_size / p, C = E;
	for (int st = 0; st < 4; st++) {
		const int64_t nh = heads[st], ws = R <= ws0 ? R : ws0;
		for (int j = 0; j < depths[st]; j++) {
			const int64_t ss = R <= ws0 || j % 2 == 0 ? 0 : ws0 / 2;
			const float *n1w = cua_par_take(&c, C), *n1b = cua_par_take(&c, C);
			const float *sw = cua_par_take(&c, nh * ws * ws * ws * ws);
			const float *sb = cua_par_take(&c, nh * ws * ws);
			const float *n2w = cua_par_take(&c, C), *n2b = cua_par_take(&c, C);
			const float *f1w = cua_par_take(&c, 4 * C * C), *f1b = cua_par_take(&c, 4 * C);
			const float *f2w = cua_par_take(&c, 4 * C * C), *f2b = cua_par_take(&c, C);
			u = x;
			u.owned = false;
			CUA_CHECK(vit_layernorm(b, &u, n1w, n1b));
			CUA_CHECK(swin_spatial_mlp(b, u, N, R, R, nh, ws, ss, sw, sb, &sm));
			cua_net_free(b, &u);
			CUA_CHECK(cua_net_add(b, &x, sm));
			cua_net_free(b, &sm);
			CUA_CHECK(swin_mlp_residual(b, &x, n2w, n2b, f1w, f1b, f2w, f2b, 4 * C));
		}
		if (st < 3) {
			const float *red = cua_par_take(&c, 2 * C * 4 * C);
			const float *mw = cua_par_take(&c, 4 * C), *mb = cua_par_take(&c, 4 * C);
			CUA_CHECK(swin_patch_merge(b, &x, N, R, R, red, mw, mb));
			R /= 2;
			C *= 2;
		}
	}
	const float *nw = cua_par_take(&c, C), *nb = cua_par_take(&c, C);
	const float *hw = cua_par_take(&c, classes * C), *hb = cua_par_take(&c, classes);
	CUA_CHECK(cua_par_end(&c));
	CUA_CHECK(vit_layernorm(b, &x, nw, nb));
	CUA_CHECK(vit_token_mean(b, x, N, R * R, &pooled));
	CUA_CHECK(cua_net_linear(b, pooled, hw, hb, classes, &y));
	return cua_net_output(b, y, &out[0]);
}

/* ---- SwinV2 window attention (L3/030) -------------------------------------------------- */

#define SWIN_MAX_WIN 64        /* positions per window the attention kernel holds */

/* The continuous position bias: for each of the (2ws−1)² relative offsets (dy, dx) of a
 * ws×ws window, the log-spaced coordinates t = sign(u)·log2(|u| + 1)/log2(8) with
 * u = 8·d/(ws − 1) (pretrained window 0), then cpb_mlp = Linear(2, 512) → ReLU →
 * Linear(512, nh, no bias), then 16·sigmoid. Writes bias[h][i][j] for window positions i, j
 * (relative_position_index: offset of i − j). One thread per (h, i, j): the 512-wide MLP is
 * recomputed per pair (ws⁴·nh·1024 flops: nothing next to the attention). */
template <typename T>
__global__ void swin_cpb_kernel(const float *__restrict__ w1, const float *__restrict__ b1,
                                const float *__restrict__ w2, T *__restrict__ bias, int64_t ws,
                                int64_t nh, int64_t hidden)
{
	const int64_t w2n = ws * ws, n = nh * w2n * w2n;
	for (int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; t < n;
	     t += (int64_t)gridDim.x * blockDim.x) {
		const int64_t j = t % w2n, i = (t / w2n) % w2n, h = t / (w2n * w2n);
		T c[2];
		const int64_t d[2] = {i / ws - j / ws, i % ws - j % ws};
		for (int k = 0; k < 2; k++) {
			/* float arithmetic, as PyTorch builds the float32 buffer */
			float u = (float)d[k] / (float)(ws - 1) * 8.0f;
			float a = log2f(fabsf(u) + 1.0f) / (float)3.0;    /* np.log2(8) = 3 */
			c[k] = (T)(u > 0 ? a : u < 0 ? -a : 0.0f);
		}
		T acc = 0;
		for (int64_t m = 0; m < hidden; m++) {
			T v = (T)b1[m] + (T)w1[2 * m] * c[0] + (T)w1[2 * m + 1] * c[1];
			acc += v > (T)0 ? (T)w2[h * hidden + m] * v : (T)0;
		}
		bias[t] = (T)16 / ((T)1 + vit_exp(-acc));
	}
}

/* One thread per (image, token, head) of the original token order: its shifted coordinates
 * (torch.roll by −ss) give its window and position; the window's keys are gathered back
 * through the roll. Scores = cos(q̂, k̂)·exp(min(logit_scale[h], log 100)) + bias[h][i][j] +
 * (−100 where the two positions carry different region labels of the shifted image, ss > 0),
 * softmax over the ws² keys, times v. q = qkv_q + q_bias, k = qkv_k, v = qkv_v + v_bias (the
 * qkv bias is cat(q_bias, 0, v_bias)); F.normalize's eps 1e-12. y rows [N·H·W, C]. */
template <typename T>
__global__ void swin_v2_attention_kernel(const T *__restrict__ qkv, const float *__restrict__ qb,
                                         const float *__restrict__ vb,
                                         const float *__restrict__ lscale,
                                         const T *__restrict__ bias, T *__restrict__ y, int64_t N,
                                         int64_t H, int64_t W, int64_t C, int64_t nh, int64_t ws,
                                         int64_t ss)
{
	const int64_t hs = C / nh, w2 = ws * ws, n = N * H * W * nh;
	for (int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; t < n;
	     t += (int64_t)gridDim.x * blockDim.x) {
		const int64_t h = t % nh, tok = t / nh, xx = tok % W, yy = (tok / W) % H;
		const int64_t bi = tok / (W * H);
		const int64_t sy = (yy - ss + H) % H, sx = (xx - ss + W) % W;
		const int64_t wy0 = sy / ws * ws, wx0 = sx / ws * ws;
		const int64_t pi = (sy % ws) * ws + sx % ws;
		/* region labels of the shifted image: [0, H−ws), [H−ws, H−ss), [H−ss, H) per axis */
		const int li = ss ? 3 * (sy < H - ws ? 0 : sy < H - ss ? 1 : 2) +
		                        (sx < W - ws ? 0 : sx < W - ss ? 1 : 2)
		                  : 0;
		const T *qr = qkv + tok * 3 * C + h * hs;
		T qn = 0;
		for (int64_t e = 0; e < hs; e++) {
			const T q = qr[e] + (T)qb[h * hs + e];
			qn += q * q;
		}
		qn = vit_sqrt(qn);
		qn = qn > (T)1e-12 ? qn : (T)1e-12;
		T ls = (T)lscale[h];
		ls = ls < (T)4.605170185988092 ? ls : (T)4.605170185988092;    /* log(1/0.01) */
		const T scale = vit_exp(ls);
		T sc[SWIN_MAX_WIN], m = (T)-INFINITY;
		for (int64_t j = 0; j < w2; j++) {
			const int64_t ky = wy0 + j / ws, kx = wx0 + j % ws;   /* shifted coordinates */
			const int64_t ktok = (bi * H + (ky + ss) % H) * W + (kx + ss) % W;
			const T *kr = qkv + ktok * 3 * C + C + h * hs;
			T dot = 0, kn = 0;
			for (int64_t e = 0; e < hs; e++) {
				dot += (qr[e] + (T)qb[h * hs + e]) * kr[e];
				kn += kr[e] * kr[e];
			}
			kn = vit_sqrt(kn);
			kn = kn > (T)1e-12 ? kn : (T)1e-12;
			T v = dot / qn / kn * scale + bias[(h * w2 + pi) * w2 + j];
			if (ss) {
				const int lj = 3 * (ky < H - ws ? 0 : ky < H - ss ? 1 : 2) +
				               (kx < W - ws ? 0 : kx < W - ss ? 1 : 2);
				if (lj != li)
					v += (T)-100;
			}
			sc[j] = v;
			m = v > m ? v : m;
		}
		T sum = 0;
		for (int64_t j = 0; j < w2; j++) {
			sc[j] = vit_exp(sc[j] - m);
			sum += sc[j];
		}
		T *yr = y + tok * C + h * hs;
		for (int64_t e = 0; e < hs; e++) {
			T acc = 0;
			for (int64_t j = 0; j < w2; j++) {
				const int64_t ky = wy0 + j / ws, kx = wx0 + j % ws;
				const int64_t ktok = (bi * H + (ky + ss) % H) * W + (kx + ss) % W;
				acc += sc[j] * (qkv[ktok * 3 * C + 2 * C + h * hs + e] + (T)vb[h * hs + e]);
			}
			yr[e] = acc / sum;
		}
	}
}

/* SwinV2's windowed attention core on qkv rows [N·H·W, 3C] (before the output projection). */
template <class B>
static int swin_v2_attention(B &b, const cua_act<typename B::T> &qkv, int64_t N, int64_t H,
                             int64_t W, int64_t nh, int64_t ws, int64_t ss, const float *qb,
                             const float *vb, const float *lscale, const float *cpb_w1,
                             const float *cpb_b1, const float *cpb_w2,
                             cua_act<typename B::T> *y)
{
	typedef typename B::T T;
	const int64_t C = qkv.s[1] / 3;
	cua_act<T> bias;
	if (!qb || !vb || !lscale || !cpb_w1 || !cpb_b1 || !cpb_w2)
		return CUA_CHECK_E_NULL;
	if (qkv.nd != 2 || qkv.s[0] != N * H * W || C % nh || H % ws || W % ws ||
	    ws * ws > SWIN_MAX_WIN)
		return CUA_CHECK_E_SHAPE;
	CUA_CHECK(cua_net_alloc2(b, N * H * W, C, y));
	CUA_CHECK(cua_net_alloc2(b, nh * ws * ws, ws * ws, &bias));
	if constexpr (vit_runs<B>::value) {
		swin_cpb_kernel<T><<<vit_blocks(bias.numel()), VIT_THREADS, 0, b.stream>>>(
			cpb_w1, cpb_b1, cpb_w2, bias.p, ws, nh, 512);
		swin_v2_attention_kernel<T><<<vit_blocks(N * H * W * nh), VIT_THREADS, 0, b.stream>>>(
			qkv.p, qb, vb, lscale, bias.p, y->p, N, H, W, C, nh, ws, ss);
		CUA_CHECK(cua_net_last_error());
	}
	cua_net_free(b, &bias);
	return 0;
}

/* L3/030: KernelBench's SwinTransformerV2 (image 224, patch 4, embed 96, depths 2 2 6 2,
 * heads 3 6 12 24, window 7, mlp ratio 4, qkv bias, patch norm, 1000 classes). Block
 * (res-post-norm): x = x + norm1(proj(attention(x))); x = x + norm2(mlp(x)). */
template <class B>
static int cua_net_swin_v2_task(B &b, const struct cua_tensor *in, int n_in,
                                struct cua_tensor *out, int n_out)
{
	typedef typename B::T T;
	const int64_t img_size = 224, p = 4, E = 96, ws0 = 7, classes = 1000, cpb = 512;
	const int depths[4] = {2, 2, 6, 2}, heads[4] = {3, 6, 12, 24};
	CUA_CHECK(cua_check_counts(in, n_in, 2, out, n_out, 1));
	cua_act<T> img, cv, x, qkv, a, pj, f, m, pooled, y;
	CUA_CHECK(cua_net_input(b, &in[0], 4, &img));
	const int64_t N = img.s[0];
	if (img.s[1] != 3 || img.s[2] != img_size || img.s[3] != img_size)
		return CUA_CHECK_E_SHAPE;
	const int64_t od[2] = {N, classes};
	CUA_CHECK(vit_check_out<T>(&out[0], 2, od));
	struct cua_par c;
	CUA_CHECK(cua_par_begin(&c, &in[1]));
	const float *pw = cua_par_take(&c, E * 3 * p * p), *pb = cua_par_take(&c, E);
	const float *pnw = cua_par_take(&c, E), *pnb = cua_par_take(&c, E);
	CUA_CHECK(cua_net_conv2d(b, img, pw, pb, cua_conv(E, p, p), &cv));
	cua_net_free(b, &img);
	CUA_CHECK(vit_to_rows(b, cv, &x));
	cua_net_free(b, &cv);
	CUA_CHECK(vit_layernorm(b, &x, pnw, pnb));
	int64_t R = img_size / p, C = E;
	for (int st = 0; st < 4; st++) {
		const int64_t nh = heads[st], ws = R <= ws0 ? R : ws0;
		for (int j = 0; j < depths[st]; j++) {
			const int64_t ss = R <= ws0 || j % 2 == 0 ? 0 : ws0 / 2;
			const float *n1w = cua_par_take(&c, C), *n1b = cua_par_take(&c, C);
			const float *ls = cua_par_take(&c, nh);
			const float *qb = cua_par_take(&c, C), *vb = cua_par_take(&c, C);
			const float *c1w = cua_par_take(&c, cpb * 2), *c1b = cua_par_take(&c, cpb);
			const float *c2w = cua_par_take(&c, nh * cpb);
			const float *qw = cua_par_take(&c, 3 * C * C);
			const float *prw = cua_par_take(&c, C * C), *prb = cua_par_take(&c, C);
			const float *n2w = cua_par_take(&c, C), *n2b = cua_par_take(&c, C);
			const float *f1w = cua_par_take(&c, 4 * C * C), *f1b = cua_par_take(&c, 4 * C);
			const float *f2w = cua_par_take(&c, 4 * C * C), *f2b = cua_par_take(&c, C);
			CUA_CHECK(cua_net_linear(b, x, qw, NULL, 3 * C, &qkv));
			CUA_CHECK(swin_v2_attention(b, qkv, N, R, R, nh, ws, ss, qb, vb, ls, c1w, c1b,
			                            c2w, &a));
			cua_net_free(b, &qkv);
			CUA_CHECK(cua_net_linear(b, a, prw, prb, C, &pj));
			cua_net_free(b, &a);
			CUA_CHECK(vit_layernorm(b, &pj, n1w, n1b));
			CUA_CHECK(cua_net_add(b, &x, pj));
			cua_net_free(b, &pj);
			CUA_CHECK(cua_net_linear(b, x, f1w, f1b, 4 * C, &f));
			CUA_CHECK(cua_net_gelu(b, &f));
			CUA_CHECK(cua_net_linear(b, f, f2w, f2b, C, &m));
			cua_net_free(b, &f);
			CUA_CHECK(vit_layernorm(b, &m, n2w, n2b));
			CUA_CHECK(cua_net_add(b, &x, m));
			cua_net_free(b, &m);
		}
		if (st < 3) {
			/* PatchMerging (v2): gather, reduction Linear(4C → 2C), then LayerNorm(2C) */
			const float *red = cua_par_take(&c, 2 * C * 4 * C);
			const float *mw = cua_par_take(&c, 2 * C), *mb = cua_par_take(&c, 2 * C);
			cua_act<T> g;
			CUA_CHECK(cua_net_alloc2(b, N * (R / 2) * (R / 2), 4 * C, &g));
			if constexpr (vit_runs<B>::value) {
				swin_merge_kernel<T><<<vit_blocks(g.numel()), VIT_THREADS, 0, b.stream>>>(
					x.p, g.p, N, R, R, C);
				CUA_CHECK(cua_net_last_error());
			}
			cua_net_free(b, &x);
			CUA_CHECK(cua_net_linear(b, g, red, NULL, 2 * C, &x));
			cua_net_free(b, &g);
			CUA_CHECK(vit_layernorm(b, &x, mw, mb));
			R /= 2;
			C *= 2;
		}
	}
	const float *nw = cua_par_take(&c, C), *nb = cua_par_take(&c, C);
	const float *hw = cua_par_take(&c, classes * C), *hb = cua_par_take(&c, classes);
	CUA_CHECK(cua_par_end(&c));
	CUA_CHECK(vit_layernorm(b, &x, nw, nb));
	CUA_CHECK(vit_token_mean(b, x, N, R * R, &pooled));
	CUA_CHECK(cua_net_linear(b, pooled, hw, hb, classes, &y));
	return cua_net_output(b, y, &out[0]);
}

#endif /* CUA_COMMON_NET_VIT_CUH */
