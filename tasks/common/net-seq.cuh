/* net-seq.cuh — the recurrent and attention ops of Level 3 (RNN/LSTM/GRU stacks, multi-head
 * attention, LayerNorm, GELU), naive kernels in T = float (cua_solve, the nvcc baseline) or
 * T = double (cua_oracle: fp32 inputs and weights, fp64 intermediates and outputs). Header-only.
 *
 * Every op only enqueues work on the given stream and returns 0 or a cudaError_t; argument
 * checks are the caller's (the task's forward), which knows the shapes from its tensors.
 * Weights are always f32 pointers into the task's `params` buffer, in PyTorch's layouts:
 *     Linear  W [N,K] (out, in), b [N]
 *     RNN     weight_ih [G·H, I], weight_hh [G·H, H], bias_ih [G·H], bias_hh [G·H]; gate
 *             blocks in PyTorch's order, G = 4 (LSTM: i, f, g, o), 3 (GRU: r, z, n), 1 (tanh)
 *
 * Sequences are "row" matrices: a [T,B] (seq-first) or [B,T] (batch-first) grid of rows of
 * width w, row (t,b) at index t·B + b or b·T + t. A layer's input projection is then one GEMM
 * over all T·B rows (gemm.cuh: the naive dot GEMM in float, the tiled fp64 GEMM in double);
 * the recurrence is one launch per time step of seq_step_kernel: a warp per (b, j) forms the
 * G dot products W_hh[g·H + j, :]·h_{t-1}[b, :] (lanes along k: W's row coalesced, h a
 * broadcast from L1) and applies the cell.
 *
 * Napkin math of the recurrence (L3/35 timed: B 10, H 256, 6 layers, T 512): per step
 * 4·H·H·B·2 = 5.2 MFLOP reading W_hh (1 MiB, L2-resident) once per b: ~10–30 µs a step,
 * 3072 steps ≈ 0.1 s in float; the input projections (6 GEMMs of 5120 × 1024 × 256) are
 * noise. cuDNN's persistent or standard kernels keep W_hh on chip and batch the b's. */
#ifndef CUA_COMMON_NET_SEQ_CUH
#define CUA_COMMON_NET_SEQ_CUH

#include <math.h>
#include <type_traits>
#include "check.cuh"
#include "gemm.cuh"
#include "net.cuh"
#include "rowreduce.cuh"

#define SEQ_THREADS 256

enum seq_cell {
	SEQ_CELL_TANH = 1,   /* h' = tanh(W_ih x + b_ih + W_hh h + b_hh); G = 1 */
	SEQ_CELL_GRU = 3,    /* PyTorch's nn.GRU; G = 3 (r, z, n) */
	SEQ_CELL_LSTM = 4,   /* PyTorch's nn.LSTM; G = 4 (i, f, g, o) */
};

__device__ __forceinline__ float seq_tanh(float v) { return tanhf(v); }
__device__ __forceinline__ double seq_tanh(double v) { return tanh(v); }
__device__ __forceinline__ float seq_exp(float v) { return expf(v); }
__device__ __forceinline__ double seq_exp(double v) { return exp(v); }
__device__ __forceinline__ float seq_sqrt(float v) { return sqrtf(v); }
__device__ __forceinline__ double seq_sqrt(double v) { return sqrt(v); }
template <typename T> __device__ __forceinline__ T seq_sigmoid(T v)
{
	return T(1) / (T(1) + seq_exp(-v));
}

/* t has dtype dt, rank ndim and extents dims[0..ndim). */
static inline int seq_check_extents(const struct cua_tensor *t, enum cua_dtype dt, int ndim,
                                    const int64_t *dims)
{
	CUA_CHECK(cua_check_tensor(t, dt, ndim));
	for (int i = 0; i < ndim; i++)
		CUA_CHECK(cua_check_dim(t, i, dims[i]));
	return 0;
}

static inline unsigned int seq_blocks(int64_t n)
{
	return cua_blocks_1d(n, SEQ_THREADS);
}

/* ---- elementwise and row ops ------------------------------------------------------------ */

/* y[r, n] += b[n] for r < rows, n < N (y rows of width ldy). */
template <typename T>
__global__ void seq_bias_kernel(T *__restrict__ y, const float *__restrict__ b, int64_t rows,
                                int64_t N, int64_t ldy)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < rows * N;
	     i += (int64_t)gridDim.x * blockDim.x)
		y[(i / N) * ldy + i % N] += (T)b[i % N];
}

/* y[i] = x[i] converted, i < n. */
template <typename In, typename T>
__global__ void seq_copy_kernel(const In *__restrict__ x, T *__restrict__ y, int64_t n)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		y[i] = (T)x[i];
}

template <typename In, typename T>
static inline int seq_copy(const In *x, T *y, int64_t n, cudaStream_t s)
{
	seq_copy_kernel<In, T><<<seq_blocks(n), SEQ_THREADS, 0, s>>>(x, y, n);
	return (int)cudaGetLastError();
}

/* y[i] = a[i] + b[i] (residual add; y may alias a or b). */
template <typename A, typename Bt, typename T>
__global__ void seq_add_kernel(const A *a, const Bt *b, T *y, int64_t n)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		y[i] = (T)a[i] + (T)b[i];
}

template <typename A, typename Bt, typename T>
static inline int seq_add(const A *a, const Bt *b, T *y, int64_t n, cudaStream_t s)
{
	seq_add_kernel<A, Bt, T><<<seq_blocks(n), SEQ_THREADS, 0, s>>>(a, b, y, n);
	return (int)cudaGetLastError();
}

/* minGPT's NewGELU in place: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))). */
template <typename T>
__global__ void seq_gelu_tanh_kernel(T *x, int64_t n)
{
	const T k = (T)0.7978845608028654;   /* √(2/π) */
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x) {
		const T v = x[i];
		x[i] = T(0.5) * v * (T(1) + seq_tanh(k * (v + T(0.044715) * v * v * v)));
	}
}

template <typename T>
static inline int seq_gelu_tanh(T *x, int64_t n, cudaStream_t s)
{
	seq_gelu_tanh_kernel<T><<<seq_blocks(n), SEQ_THREADS, 0, s>>>(x, n);
	return (int)cudaGetLastError();
}

/* y[r,:] = (x[r,:] − mean) / √(var + eps) · w + b over rows of C (nn.LayerNorm: biased
 * variance, two passes over the row for the mean then Σ(x − mean)²). One block per row;
 * y may alias x (each thread rewrites only what it read, after the last reduction). */
template <typename In, typename T>
__global__ void seq_layernorm_kernel(const In *x, T *y, const float *__restrict__ w,
                                     const float *__restrict__ b, int64_t rows, int64_t C,
                                     double eps)
{
	for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
		const In *xr = x + r * C;
		T s = 0;
		for (int64_t j = threadIdx.x; j < C; j += blockDim.x)
			s += (T)xr[j];
		const T mean = cua_block_sum(s) / (T)C;
		T q = 0;
		for (int64_t j = threadIdx.x; j < C; j += blockDim.x) {
			const T d = (T)xr[j] - mean;
			q += d * d;
		}
		const T rstd = T(1) / seq_sqrt(cua_block_sum(q) / (T)C + (T)eps);
		for (int64_t j = threadIdx.x; j < C; j += blockDim.x)
			y[r * C + j] = ((T)xr[j] - mean) * rstd * (T)w[j] + (T)b[j];
	}
}

template <typename In, typename T>
static inline int seq_layernorm(const In *x, T *y, const float *w, const float *b, int64_t rows,
                                int64_t C, double eps, cudaStream_t s)
{
	seq_layernorm_kernel<In, T><<<cua_blocks_rows(rows), CUA_ROW_THREADS, 0, s>>>(x, y, w, b,
	                                                                            rows, C, eps);
	return (int)cudaGetLastError();
}

/* ---- Linear ------------------------------------------------------------------------------ */

/* y[M,N] (row stride ldy) = x[M,K] (row stride ldx) · W[N,K]ᵀ (row stride ldw) + b (b may be
 * NULL). float: the naive dot GEMM (a warp per output), then the bias as its own kernel, as
 * eager PyTorch's addmm does in one; double: gemm.cuh's tiled fp64 GEMM, x float or double. */
template <typename In, typename T>
static inline int seq_linear_ld(const In *x, int64_t ldx, const float *W, int64_t ldw,
                                const float *b, T *y, int64_t ldy, int64_t M, int64_t N,
                                int64_t K, cudaStream_t s)
{
	struct cua_gemm_desc d = cua_gemm_desc_packed(M, N, K, false, true);
	d.lda = ldx;
	d.ldb = ldw;
	d.ldc = ldy;
	if constexpr (std::is_same<T, double>::value) {
		cua_gemm_f64<In, float, double>(x, W, y, d, 1.0, s);
	} else {
		static_assert(std::is_same<In, float>::value, "the fp32 path reads f32");
		cua_gemm_naive_dot<float, float, float>(x, W, y, d, 1.0f, s);
	}
	if (b != NULL)
		seq_bias_kernel<T><<<seq_blocks(M * N), SEQ_THREADS, 0, s>>>(y, b, M, N, ldy);
	return (int)cudaGetLastError();
}

template <typename In, typename T>
static inline int seq_linear(const In *x, const float *W, const float *b, T *y, int64_t M,
                             int64_t N, int64_t K, cudaStream_t s)
{
	return seq_linear_ld<In, T>(x, K, W, K, b, y, N, M, N, K, s);
}

/* ---- recurrent layers -------------------------------------------------------------------- */

/* One recurrent layer and direction's weights (f32, in params). */
struct seq_rnn_w {
	const float *w_ih, *w_hh, *b_ih, *b_hh;
	int64_t ld_ih, ld_hh;   /* row strides of w_ih, w_hh (their in-sizes, unless a view) */
};

/* One time step for every b < B, j < H: a warp per (b, j).
 *   gx: the input projection with b_ih, G·H values at gx + b·gx_sb
 *   hp: h_{t-1}[b, k] = hp[b·hp_sb + k]  (f32 h0 at the first step, T after)
 *   b_hh: the recurrent bias, or NULL for none (L3/034's nn.Linear on [x, h] has one bias)
 *   c:  LSTM cell state [B,H], updated in place (one warp owns (b, j))
 *   h:  h_t[b, j] = h[b·h_sb + j] */
template <int Cell, typename T, typename Hp>
__global__ void seq_step_kernel(const T *__restrict__ gx, int64_t gx_sb,
                                const float *__restrict__ w_hh, int64_t ld_hh,
                                const float *__restrict__ b_hh, const Hp *__restrict__ hp,
                                int64_t hp_sb, T *__restrict__ c, T *__restrict__ h,
                                int64_t h_sb, int64_t B, int64_t H)
{
	const int lane = threadIdx.x & 31;
	const int64_t wpb = blockDim.x >> 5;
	for (int64_t o = blockIdx.x * wpb + (threadIdx.x >> 5); o < B * H;
	     o += (int64_t)gridDim.x * wpb) {
		const int64_t bi = o / H, j = o % H;
		const Hp *hb = hp + bi * hp_sb;
		T acc[Cell];
#pragma unroll
		for (int g = 0; g < Cell; g++)
			acc[g] = 0;
		for (int64_t k = lane; k < H; k += 32) {
			const T hk = (T)hb[k];
#pragma unroll
			for (int g = 0; g < Cell; g++)
				acc[g] += (T)w_hh[(g * H + j) * ld_hh + k] * hk;
		}
#pragma unroll
		for (int g = 0; g < Cell; g++) {
			for (int s = 16; s > 0; s >>= 1)
				acc[g] += __shfl_xor_sync(0xffffffffu, acc[g], s);
			if (b_hh != NULL)
				acc[g] += (T)b_hh[g * H + j];
		}
		if (lane != 0)
			continue;
		const T *gb = gx + bi * gx_sb;
		T hn;
		if constexpr (Cell == SEQ_CELL_LSTM) {
			const T ig = seq_sigmoid(gb[j] + acc[0]);
			const T fg = seq_sigmoid(gb[H + j] + acc[1]);
			const T gg = seq_tanh(gb[2 * H + j] + acc[2]);
			const T og = seq_sigmoid(gb[3 * H + j] + acc[3]);
			const T cn = fg * c[bi * H + j] + ig * gg;
			c[bi * H + j] = cn;
			hn = og * seq_tanh(cn);
		} else if constexpr (Cell == SEQ_CELL_GRU) {
			const T r = seq_sigmoid(gb[j] + acc[0]);
			const T z = seq_sigmoid(gb[H + j] + acc[1]);
			const T n = seq_tanh(gb[2 * H + j] + r * acc[2]);
			hn = (T(1) - z) * n + z * (T)hb[j];
		} else {
			hn = seq_tanh(gb[j] + acc[0]);
		}
		h[bi * h_sb + j] = hn;
	}
}

/* Geometry of a recurrent stack over a row sequence (see the top of the file). */
struct seq_rnn_dims {
	enum seq_cell cell;
	int layers, dirs;        /* dirs 1 or 2 (bidirectional) */
	bool batch_first;
	bool rec_bias;           /* b_hh exists (false: L3/034's single bias) */
	int64_t T, B, I, H;
};

/* Row index stride of a time step and of a batch entry. */
static inline int64_t seq_row_st(const struct seq_rnn_dims *d) { return d->batch_first ? 1 : d->B; }
static inline int64_t seq_row_sb(const struct seq_rnn_dims *d) { return d->batch_first ? d->T : 1; }

/* Scratch a stack needs, in elements of T: two sequence buffers, the projection, c. */
static inline int64_t seq_rnn_scratch(const struct seq_rnn_dims *d)
{
	const int64_t rows = d->T * d->B;
	return 2 * rows * d->dirs * d->H + rows * (int64_t)d->cell * d->H + d->B * d->H;
}

/* One layer, one direction: gx = x·W_ihᵀ + b_ih over all rows, then the T steps, writing
 * h_t into y (rows of width dirs·H, this direction's H columns at dir·H). c0 (LSTM) and h0 are
 * [B,H] f32; hn / cn (may be NULL) receive h and c of the last step taken. */
template <int Cell, typename In, typename T>
static int seq_rnn_dir(const struct seq_rnn_dims *d, int dir, const In *x, int64_t in,
                       const struct seq_rnn_w *w, const float *h0, const float *c0, T *y,
                       T *gx, T *c, T *hn, T *cn, cudaStream_t s)
{
	const int64_t rows = d->T * d->B, H = d->H, B = d->B, yw = (int64_t)d->dirs * H;
	const int64_t st = seq_row_st(d), sb = seq_row_sb(d), G = Cell;
	int rc = seq_linear_ld<In, T>(x, in, w->w_ih, w->ld_ih, w->b_ih, gx, G * H, rows, G * H,
	                              in, s);
	if (rc)
		return rc;
	if (Cell == SEQ_CELL_LSTM && (rc = seq_copy<float, T>(c0, c, B * H, s)))
		return rc;
	const int wpb = SEQ_THREADS / 32;
	const unsigned int grid = cua_blocks_1d(B * H, wpb);
	int64_t t = 0;
	for (int64_t step = 0; step < d->T; step++) {
		t = dir ? d->T - 1 - step : step;
		T *ht = y + t * st * yw + dir * H;
		const T *g = gx + t * st * G * H;
		if (step == 0) {
			seq_step_kernel<Cell, T, float><<<grid, SEQ_THREADS, 0, s>>>(
				g, sb * G * H, w->w_hh, w->ld_hh, w->b_hh, h0, H, c, ht, sb * yw, B, H);
		} else {
			const int64_t tp = dir ? t + 1 : t - 1;
			const T *hp = y + tp * st * yw + dir * H;
			seq_step_kernel<Cell, T, T><<<grid, SEQ_THREADS, 0, s>>>(
				g, sb * G * H, w->w_hh, w->ld_hh, w->b_hh, hp, sb * yw, c, ht, sb * yw, B, H);
		}
		if ((rc = (int)cudaGetLastError()))
			return rc;
	}
	if (hn != NULL) {
		/* h of the last step taken: row (t, b) for every b */
		for (int64_t bi = 0; bi < B; bi++) {
			const T *src = y + (t * st + bi * sb) * yw + dir * H;
			if ((rc = (int)cudaMemcpyAsync(hn + bi * H, src, H * sizeof(T),
			                               cudaMemcpyDeviceToDevice, s)))
				return rc;
		}
	}
	if (cn != NULL && Cell == SEQ_CELL_LSTM &&
	    (rc = (int)cudaMemcpyAsync(cn, c, B * H * sizeof(T), cudaMemcpyDeviceToDevice, s)))
		return rc;
	return 0;
}

template <int Cell, typename T>
static int seq_rnn_stack_cell(const struct seq_rnn_dims *d, const float *x,
                              const struct seq_rnn_w *w, const float *h0, const float *c0,
                              T *y, T *hn, T *cn, T *scratch, cudaStream_t s)
{
	const int64_t rows = d->T * d->B, H = d->H, B = d->B, yw = (int64_t)d->dirs * H;
	T *buf[2] = {scratch, scratch + rows * yw};
	T *gx = buf[1] + rows * yw, *c = gx + rows * Cell * H;
	for (int l = 0; l < d->layers; l++) {
		T *out = l == d->layers - 1 && y != NULL ? y : buf[l & 1];
		for (int dir = 0; dir < d->dirs; dir++) {
			const int k = l * d->dirs + dir;
			T *hk = hn ? hn + k * B * H : NULL, *ck = cn ? cn + k * B * H : NULL;
			const float *h0k = h0 + k * B * H, *c0k = c0 ? c0 + k * B * H : NULL;
			int rc = l == 0 ? seq_rnn_dir<Cell, float, T>(d, dir, x, d->I, &w[k], h0k, c0k,
			                                               out, gx, c, hk, ck, s)
			                : seq_rnn_dir<Cell, T, T>(d, dir, buf[(l - 1) & 1], yw, &w[k], h0k,
			                                          c0k, out, gx, c, hk, ck, s);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* The whole stack (nn.RNN/GRU/LSTM semantics, dropout 0) of cell Cell (= d->cell; a
 * template argument so that a task builds only its own cell's kernels): x rows of width I
 * (f32); w[k] for k = layer·dirs + dir in PyTorch's order; h0 (and c0 for LSTM)
 * [layers·dirs, B, H] f32. Writes the last layer's output rows into y (width dirs·H; NULL:
 * kept in scratch buffer (layers − 1) & 1), h_n / c_n [layers·dirs, B, H] into hn / cn
 * (either may be NULL). scratch holds seq_rnn_scratch(d) elements. */
template <int Cell, typename T>
static int seq_rnn_stack(const struct seq_rnn_dims *d, const float *x, const struct seq_rnn_w *w,
                         const float *h0, const float *c0, T *y, T *hn, T *cn, T *scratch,
                         cudaStream_t s)
{
	if ((int)d->cell != Cell)
		return CUA_CHECK_E_PARAM;
	return seq_rnn_stack_cell<Cell, T>(d, x, w, h0, Cell == SEQ_CELL_LSTM ? c0 : NULL, y, hn,
	                                   Cell == SEQ_CELL_LSTM ? cn : NULL, scratch, s);
}

/* ---- attention --------------------------------------------------------------------------- */

/* qkv rows [B,T,3C] (q | k | v, each C = nh·hs) → q, k, v [B,nh,T,hs] contiguous. */
template <typename T>
__global__ void seq_split_heads_kernel(const T *__restrict__ qkv, T *__restrict__ q,
                                       T *__restrict__ k, T *__restrict__ v, int64_t B,
                                       int64_t Tn, int64_t nh, int64_t hs)
{
	const int64_t C = nh * hs, n = B * Tn * C;
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x) {
		/* i indexes [B,nh,T,hs] */
		const int64_t e = i % hs, t = (i / hs) % Tn, h = (i / (hs * Tn)) % nh;
		const int64_t b = i / (hs * Tn * nh);
		const T *r = qkv + (b * Tn + t) * 3 * C + h * hs + e;
		q[i] = r[0];
		k[i] = r[C];
		v[i] = r[2 * C];
	}
}

/* y [B,nh,T,hs] → rows [B,T,C]. */
template <typename T>
__global__ void seq_merge_heads_kernel(const T *__restrict__ y, T *__restrict__ out, int64_t B,
                                       int64_t Tn, int64_t nh, int64_t hs)
{
	const int64_t C = nh * hs, n = B * Tn * C;
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x) {
		/* i indexes [B,T,C] */
		const int64_t c = i % C, t = (i / C) % Tn, b = i / (C * Tn);
		const int64_t h = c / hs, e = c % hs;
		out[i] = y[((b * nh + h) * Tn + t) * hs + e];
	}
}

enum seq_att_kind {
	SEQ_ATT_SOFTMAX,          /* softmax over every key */
	SEQ_ATT_CAUSAL_SOFTMAX,   /* keys j ≤ i only (masked_fill −inf, softmax): 0 above */
	SEQ_ATT_CAUSAL_RELU,      /* relu(s) for j ≤ i, 0 above (masked −inf, then ReLU) */
};

/* In place over rows of S scores (row r is query r % S of its head): the kind's map. One
 * block per row; the softmax is the stable three-pass one. */
template <typename T>
__global__ void seq_att_rows_kernel(T *__restrict__ s, int64_t rows, int64_t S, int kind)
{
	for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
		T *sr = s + r * S;
		const int64_t i = r % S;
		const int64_t n = kind == SEQ_ATT_SOFTMAX ? S : i + 1;   /* keys taken */
		if (kind == SEQ_ATT_CAUSAL_RELU) {
			for (int64_t j = threadIdx.x; j < S; j += blockDim.x)
				sr[j] = j < n && sr[j] > T(0) ? sr[j] : T(0);
			continue;
		}
		T m = (T)-INFINITY;
		for (int64_t j = threadIdx.x; j < n; j += blockDim.x)
			m = sr[j] > m ? sr[j] : m;
		m = cua_block_max(m);
		T sum = 0;
		for (int64_t j = threadIdx.x; j < n; j += blockDim.x)
			sum += seq_exp(sr[j] - m);
		sum = cua_block_sum(sum);
		for (int64_t j = threadIdx.x; j < S; j += blockDim.x)
			sr[j] = j < n ? seq_exp(sr[j] - m) / sum : T(0);
	}
}

/* Heads per round so that a round's scores stay within 2^28 elements (2 GiB of double). */
static inline int64_t seq_att_chunk(int64_t heads, int64_t S)
{
	int64_t c = ((int64_t)1 << 28) / (S * S);
	if (c < 1)
		c = 1;
	return c < heads ? c : heads;
}

/* O = map(scale · Q·Kᵀ)·V per head, Q K V O [heads, S, hs] contiguous (T), scores scratch of
 * seq_att_chunk(heads, S)·S·S elements. The three stages are separate kernels, the scores
 * materialised, as the eager PyTorch code of these tasks does. */
template <typename T>
static int seq_attention(const T *Q, const T *K, const T *V, T *O, int64_t heads, int64_t S,
                         int64_t hs, double scale, enum seq_att_kind kind, T *scores,
                         cudaStream_t s)
{
	const int64_t chunk = seq_att_chunk(heads, S);
	for (int64_t h0 = 0; h0 < heads; h0 += chunk) {
		const int64_t cnt = heads - h0 < chunk ? heads - h0 : chunk, off = h0 * S * hs;
		struct cua_gemm_desc qk = cua_gemm_desc_packed(S, S, hs, false, true);
		qk.batch = cnt;
		qk.stride_a = qk.stride_b = S * hs;
		qk.stride_c = S * S;
		struct cua_gemm_desc pv = cua_gemm_desc_packed(S, hs, S, false, false);
		pv.batch = cnt;
		pv.stride_a = S * S;
		pv.stride_b = pv.stride_c = S * hs;
		if constexpr (std::is_same<T, double>::value) {
			cua_gemm_f64<double, double, double>(Q + off, K + off, scores, qk, scale, s);
		} else {
			cua_gemm_naive_dot<float, float, float>(Q + off, K + off, scores, qk,
			                                        (float)scale, s);
		}
		seq_att_rows_kernel<T><<<cua_blocks_rows(cnt * S), CUA_ROW_THREADS, 0, s>>>(
			scores, cnt * S, S, (int)kind);
		if constexpr (std::is_same<T, double>::value)
			cua_gemm_f64<double, double, double>(scores, V + off, O + off, pv, 1.0, s);
		else
			cua_gemm_naive<float, float, float>(scores, V + off, O + off, pv, 1.0f, s);
		int rc = (int)cudaGetLastError();
		if (rc)
			return rc;
	}
	return 0;
}

/* [N, C, L] ↔ [N, L, C] (L3/31's image ↔ token rows), out-of-place. */
template <typename In, typename T>
__global__ void seq_transpose_kernel(const In *__restrict__ x, T *__restrict__ y, int64_t N,
                                     int64_t R, int64_t Cc)
{
	/* x [N, R, Cc] → y [N, Cc, R] */
	const int64_t n = N * R * Cc;
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x) {
		const int64_t r = i % R, c = (i / R) % Cc, b = i / (R * Cc);
		y[i] = (T)x[(b * R + r) * Cc + c];
	}
}

template <typename In, typename T>
static inline int seq_transpose(const In *x, T *y, int64_t N, int64_t R, int64_t Cc,
                                cudaStream_t s)
{
	seq_transpose_kernel<In, T><<<seq_blocks(N * R * Cc), SEQ_THREADS, 0, s>>>(x, y, N, R, Cc);
	return (int)cudaGetLastError();
}


/* ---- backend-level ops (net.cuh's activations; net-lib-seq.cuh overloads the library's) -- */

/* The RNN stack of d (cell Cell) over x (f32, the network's input tensor data), weights w[layers·dirs]:
 * *y = the last layer's output rows [T·B, dirs·H] (row order of d), *hn / *cn (may be NULL)
 * = h_n / c_n as [layers·dirs·B, H]. */
template <int Cell, class B>
static inline int cua_net_rnn(B &b, const struct seq_rnn_dims *d, const float *x,
                              const struct seq_rnn_w *w, const float *h0, const float *c0,
                              cua_act<typename B::T> *y, cua_act<typename B::T> *hn,
                              cua_act<typename B::T> *cn)
{
	typedef typename B::T T;
	const int64_t k = (int64_t)d->layers * d->dirs;
	cua_act<T> sc;
	CUA_CHECK(cua_net_alloc2(b, d->T * d->B, d->dirs * d->H, y));
	if (hn)
		CUA_CHECK(cua_net_alloc2(b, k * d->B, d->H, hn));
	if (cn)
		CUA_CHECK(cua_net_alloc2(b, k * d->B, d->H, cn));
	CUA_CHECK(cua_net_alloc2(b, 1, seq_rnn_scratch(d), &sc));
	CUA_CHECK((seq_rnn_stack<Cell, T>(d, x, w, h0, c0, y->p, hn ? hn->p : NULL, cn ? cn->p : NULL,
	                            sc.p, b.stream)));
	cua_net_free(b, &sc);
	return 0;
}

/* y [B, w] = the rows of time step t of a batch-first row sequence x [B·T, w]. */
template <class B>
static inline int cua_net_seq_step(B &b, const cua_act<typename B::T> &x, int64_t Bn, int64_t Tn,
                                   int64_t t, cua_act<typename B::T> *y)
{
	typedef typename B::T T;
	const int64_t w = x.s[1];
	CUA_CHECK(cua_net_alloc2(b, Bn, w, y));
	cudaError_t e = cudaMemcpy2DAsync(y->p, w * sizeof(T), x.p + t * w, Tn * w * sizeof(T),
	                                  w * sizeof(T), Bn, cudaMemcpyDeviceToDevice, b.stream);
	return e == cudaSuccess ? 0 : (int)e;
}

/* Takes one recurrent layer/direction's four segments (weight_ih [G·H, in], weight_hh
 * [G·H, H], bias_ih, bias_hh [G·H]); with split_bias_hh, bias_hh comes as G segments of H
 * (one per gate block, see the RNN tasks' descriptions), which must lie end to end. */
static inline int cua_net_take_rnn(struct cua_par *c, int G, int64_t in, int64_t H,
                                   bool split_bias_hh, struct seq_rnn_w *w)
{
	w->w_ih = cua_par_take(c, G * H * in);
	w->w_hh = cua_par_take(c, G * H * H);
	w->b_ih = cua_par_take(c, G * H);
	w->ld_ih = in;
	w->ld_hh = H;
	if (!split_bias_hh) {
		w->b_hh = cua_par_take(c, G * H);
	} else {
		w->b_hh = cua_par_take(c, H);
		for (int g = 1; g < G; g++)
			if (cua_par_take(c, H) != w->b_hh + g * H)
				return CUA_CHECK_E_SHAPE;   /* not contiguous: H % 64 != 0 */
	}
	return c->bad ? CUA_CHECK_E_SHAPE : 0;
}

/* The weights of a whole stack in PyTorch's order into w[layers·dirs]. */
static inline int cua_net_take_rnn_stack(struct cua_par *c, const struct seq_rnn_dims *d,
                                         bool split_bias_hh, struct seq_rnn_w *w)
{
	for (int l = 0; l < d->layers; l++)
		for (int dir = 0; dir < d->dirs; dir++)
			CUA_CHECK(cua_net_take_rnn(c, (int)d->cell, l == 0 ? d->I : d->dirs * d->H, d->H,
			                           split_bias_hh, &w[l * d->dirs + dir]));
	return 0;
}

/* In place over rows of a [rows, C]: nn.LayerNorm(C) with weight w, bias bias, eps. */
template <class B>
static inline int cua_net_layernorm(B &b, cua_act<typename B::T> *a, const float *w,
                                    const float *bias, double eps)
{
	typedef typename B::T T;
	CUA_CHECK(cua_net_own(b, a));
	const int64_t C = a->s[a->nd - 1];
	return seq_layernorm<T, T>(a->p, a->p, w, bias, a->numel() / C, C, eps, b.stream);
}

template <typename T>
__global__ void seq_tanh_kernel(T *x, int64_t n)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		x[i] = seq_tanh(x[i]);
}

/* In place: tanh. */
template <class B>
static inline int cua_net_tanh(B &b, cua_act<typename B::T> *a)
{
	CUA_CHECK(cua_net_own(b, a));
	seq_tanh_kernel<typename B::T><<<seq_blocks(a->numel()), SEQ_THREADS, 0, b.stream>>>(
		a->p, a->numel());
	return cua_net_last_error();
}

/* A [d0, d1, ...] activation viewed as rows [numel / last, last] (no copy). */
template <typename T>
static inline void cua_net_rows(cua_act<T> *a)
{
	const int64_t c = a->s[a->nd - 1], r = a->numel() / c;
	a->nd = 2;
	a->s[0] = r;
	a->s[1] = c;
	a->s[2] = a->s[3] = 0;
}

/* In place: minGPT's NewGELU (tanh approximation). */
template <class B>
static inline int cua_net_gelu_tanh(B &b, cua_act<typename B::T> *a)
{
	CUA_CHECK(cua_net_own(b, a));
	return seq_gelu_tanh<typename B::T>(a->p, a->numel(), b.stream);
}

/* The attention core of multi-head self-attention: qkv rows [Bn·Tn, 3C] (q | k | v, each
 * nh heads of C/nh, as minGPT's c_attn and nn.MultiheadAttention's in_proj produce them)
 * → *y [Bn·Tn, C], per head map(q·kᵀ/√hs)·v, heads side by side (before any output
 * projection). */
template <class B>
static inline int cua_net_attention(B &b, const cua_act<typename B::T> &qkv, int64_t Bn,
                                    int64_t Tn, int64_t nh, enum seq_att_kind kind,
                                    cua_act<typename B::T> *y)
{
	typedef typename B::T T;
	const int64_t C = qkv.s[1] / 3, n = Bn * Tn * C, hs = C / nh;
	if (qkv.nd != 2 || qkv.s[0] != Bn * Tn || qkv.s[1] != 3 * C || C % nh)
		return CUA_CHECK_E_SHAPE;
	cua_act<T> sc;
	CUA_CHECK(cua_net_alloc2(b, Bn * Tn, C, y));
	CUA_CHECK(cua_net_alloc2(b, 1, 4 * n + seq_att_chunk(Bn * nh, Tn) * Tn * Tn, &sc));
	T *q = sc.p, *k = q + n, *v = k + n, *o = v + n, *s = o + n;
	seq_split_heads_kernel<T><<<seq_blocks(n), SEQ_THREADS, 0, b.stream>>>(qkv.p, q, k, v, Bn,
	                                                                        Tn, nh, hs);
	CUA_CHECK(cua_net_last_error());
	CUA_CHECK(seq_attention<T>(q, k, v, o, Bn * nh, Tn, hs, 1.0 / sqrt((double)hs), kind, s,
	                           b.stream));
	seq_merge_heads_kernel<T><<<seq_blocks(n), SEQ_THREADS, 0, b.stream>>>(o, y->p, Bn, Tn, nh,
	                                                                        hs);
	CUA_CHECK(cua_net_last_error());
	cua_net_free(b, &sc);
	return 0;
}

/* *y [N, R·... ] = the per-batch transpose of x [N, R, Cc] into [N, Cc, R] (a fresh activation
 * of extents ys[0..nd)). */
template <class B>
static inline int cua_net_transpose12(B &b, const cua_act<typename B::T> &x, int64_t N, int64_t R,
                                      int64_t Cc, int nd, const int64_t *ys,
                                      cua_act<typename B::T> *y)
{
	typedef typename B::T T;
	if (x.numel() != N * R * Cc)
		return CUA_CHECK_E_SHAPE;
	CUA_CHECK(cua_net_alloc(b, nd, ys, y));
	if (y->numel() != N * R * Cc)
		return CUA_CHECK_E_SHAPE;
	return seq_transpose<T, T>(x.p, y->p, N, R, Cc, b.stream);
}

/* ---- whole recurrent tasks (L3/033–042) ------------------------------------------------ */

enum seq_rnn_out {
	SEQ_OUT_FC,    /* fc(out[:, T−1, :]) [B, fc_out] (batch-first) */
	SEQ_OUT_HN,    /* h_n [layers·dirs, B, H] */
	SEQ_OUT_CN,    /* c_n [layers·dirs, B, H] (LSTM) */
	SEQ_OUT_SEQ,   /* the last layer's output [T, B, dirs·H] (seq-first) */
};

struct seq_rnn_task {
	enum seq_cell cell;
	int layers;
	bool bidirectional, batch_first;
	bool split_bias_hh;    /* bias_hh in per-gate segments (the shifted-gate tasks) */
	int64_t I, H;
	enum seq_rnn_out out;
	int64_t fc_out;
};

/* The forward of an RNN task of cell Cell (= cfg.cell): inputs x ([B,T,I] batch-first or [T,B,I]), h0, (c0 for LSTM)
 * [layers·dirs, B, H], params; one output as cfg.out says. */
template <int Cell, class B>
static int cua_net_rnn_task(B &b, const struct seq_rnn_task &cfg, const struct cua_tensor *in,
                            int n_in, struct cua_tensor *out, int n_out)
{
	typedef typename B::T T;
	if ((int)cfg.cell != Cell)
		return CUA_CHECK_E_PARAM;
	const bool lstm = cfg.cell == SEQ_CELL_LSTM;
	const int nin = lstm ? 4 : 3, dirs = cfg.bidirectional ? 2 : 1;
	CUA_CHECK(cua_check_counts(in, n_in, nin, out, n_out, 1));
	const struct cua_tensor *x = &in[0], *h0 = &in[1], *c0 = lstm ? &in[2] : NULL;
	CUA_CHECK(cua_check_tensor(x, CUA_F32, 3));
	struct seq_rnn_dims d;
	d.cell = cfg.cell;
	d.layers = cfg.layers;
	d.dirs = dirs;
	d.batch_first = cfg.batch_first;
	d.rec_bias = true;
	d.B = cfg.batch_first ? x->shape[0] : x->shape[1];
	d.T = cfg.batch_first ? x->shape[1] : x->shape[0];
	d.I = cfg.I;
	d.H = cfg.H;
	const int64_t st[3] = {(int64_t)cfg.layers * dirs, d.B, cfg.H};
	CUA_CHECK(cua_check_dim(x, 2, cfg.I));
	CUA_CHECK(seq_check_extents(h0, CUA_F32, 3, st));
	if (lstm)
		CUA_CHECK(seq_check_extents(c0, CUA_F32, 3, st));
	struct cua_par c;
	struct seq_rnn_w w[2 * 64];
	if (cfg.layers > 64)
		return CUA_CHECK_E_PARAM;
	CUA_CHECK(cua_par_begin(&c, &in[nin - 1]));
	CUA_CHECK(cua_net_take_rnn_stack(&c, &d, cfg.split_bias_hh, w));
	const float *fc_w = NULL, *fc_b = NULL;
	if (cfg.out == SEQ_OUT_FC) {
		fc_w = cua_par_take(&c, cfg.fc_out * dirs * cfg.H);
		fc_b = cua_par_take(&c, cfg.fc_out);
	}
	CUA_CHECK(cua_par_end(&c));
	int64_t od[3];
	int ond = 3;
	switch (cfg.out) {
	case SEQ_OUT_FC: ond = 2; od[0] = d.B; od[1] = cfg.fc_out; break;
	case SEQ_OUT_SEQ: od[0] = d.T; od[1] = d.B; od[2] = dirs * cfg.H; break;
	default: memcpy(od, st, sizeof(od)); break;
	}
	CUA_CHECK(seq_check_extents(&out[0], cua_dtype_of<T>::value, ond, od));
	cua_act<T> y, hn, cn;
	memset(&hn, 0, sizeof(hn));
	memset(&cn, 0, sizeof(cn));
	CUA_CHECK(cua_net_rnn<Cell>(b, &d, (const float *)x->data, w, (const float *)h0->data,
	                      lstm ? (const float *)c0->data : NULL, &y,
	                      cfg.out == SEQ_OUT_HN ? &hn : NULL, cfg.out == SEQ_OUT_CN ? &cn : NULL));
	switch (cfg.out) {
	case SEQ_OUT_FC: {
		cua_act<T> last, o;
		if (!cfg.batch_first)
			return CUA_CHECK_E_PARAM;
		CUA_CHECK(cua_net_seq_step(b, y, d.B, d.T, d.T - 1, &last));
		CUA_CHECK(cua_net_linear(b, last, fc_w, fc_b, cfg.fc_out, &o));
		return cua_net_output(b, o, &out[0]);
	}
	case SEQ_OUT_HN: return cua_net_output(b, hn, &out[0]);
	case SEQ_OUT_CN: return cua_net_output(b, cn, &out[0]);
	case SEQ_OUT_SEQ: return cua_net_output(b, y, &out[0]);
	}
	return CUA_CHECK_E_PARAM;
}

/* L3/033: one step of KernelBench's hand-written RNN cell. Inputs x [B, I], h0 [B, H],
 * params (i2h.weight [H, I+H], i2h.bias, h2o.weight [O, H], h2o.bias); outputs y [B, O] =
 * h2o(h1) and h1 [B, H] = tanh(i2h(cat(x, h0))). */
template <class B>
static int cua_net_rnn_cell_task(B &b, int64_t I, int64_t H, int64_t O,
                                 const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                                 int n_out)
{
	typedef typename B::T T;
	CUA_CHECK(cua_check_counts(in, n_in, 3, out, n_out, 2));
	cua_act<T> xs[2], cat, h, y;
	CUA_CHECK(cua_net_input(b, &in[0], 2, &xs[0]));
	CUA_CHECK(cua_net_input(b, &in[1], 2, &xs[1]));
	const int64_t Bn = xs[0].s[0];
	if (xs[0].s[1] != I || xs[1].s[0] != Bn || xs[1].s[1] != H)
		return CUA_CHECK_E_SHAPE;
	struct cua_par c;
	CUA_CHECK(cua_par_begin(&c, &in[2]));
	const float *wi = cua_par_take(&c, H * (I + H)), *bi = cua_par_take(&c, H);
	const float *wo = cua_par_take(&c, O * H), *bo = cua_par_take(&c, O);
	CUA_CHECK(cua_par_end(&c));
	const int64_t yd[2] = {Bn, O}, hd[2] = {Bn, H};
	CUA_CHECK(seq_check_extents(&out[0], cua_dtype_of<T>::value, 2, yd));
	CUA_CHECK(seq_check_extents(&out[1], cua_dtype_of<T>::value, 2, hd));
	CUA_CHECK(cua_net_concat(b, xs, 2, &cat));
	CUA_CHECK(cua_net_linear(b, cat, wi, bi, H, &h));
	cua_net_free(b, &cat);
	CUA_CHECK(cua_net_tanh(b, &h));
	CUA_CHECK(cua_net_linear(b, h, wo, bo, O, &y));
	CUA_CHECK(cua_net_output(b, y, &out[0]));
	return cua_net_output(b, h, &out[1]);
}

/* L3/034: the same cell over a sequence: x [T, B, I], h0 [B, H], params as L3/033; output
 * [T, B, O] = h2o(h_t) for every t. The recurrence is an nn.RNN(tanh) layer whose W_ih and
 * W_hh are the two column blocks of i2h.weight (a strided view, ld I+H) and whose one bias
 * is i2h.bias. */
template <class B>
static int cua_net_rnn_cell_seq_task(B &b, int64_t I, int64_t H, int64_t O,
                                     const struct cua_tensor *in, int n_in,
                                     struct cua_tensor *out, int n_out)
{
	typedef typename B::T T;
	CUA_CHECK(cua_check_counts(in, n_in, 3, out, n_out, 1));
	CUA_CHECK(cua_check_tensor(&in[0], CUA_F32, 3));
	CUA_CHECK(cua_check_dim(&in[0], 2, I));
	struct seq_rnn_dims d;
	d.cell = SEQ_CELL_TANH;
	d.layers = d.dirs = 1;
	d.batch_first = false;
	d.rec_bias = false;
	d.T = in[0].shape[0];
	d.B = in[0].shape[1];
	d.I = I;
	d.H = H;
	const int64_t hd[2] = {d.B, H}, od[3] = {d.T, d.B, O};
	CUA_CHECK(seq_check_extents(&in[1], CUA_F32, 2, hd));
	struct cua_par c;
	CUA_CHECK(cua_par_begin(&c, &in[2]));
	const float *wi = cua_par_take(&c, H * (I + H)), *bi = cua_par_take(&c, H);
	const float *wo = cua_par_take(&c, O * H), *bo = cua_par_take(&c, O);
	CUA_CHECK(cua_par_end(&c));
	CUA_CHECK(seq_check_extents(&out[0], cua_dtype_of<T>::value, 3, od));
	struct seq_rnn_w w = {wi, wi + I, bi, NULL, I + H, I + H};
	cua_act<T> hs, y;
	CUA_CHECK(cua_net_rnn<SEQ_CELL_TANH>(b, &d, (const float *)in[0].data, &w, (const float *)in[1].data,
	                      NULL, &hs, NULL, NULL));
	CUA_CHECK(cua_net_linear(b, hs, wo, bo, O, &y));
	return cua_net_output(b, y, &out[0]);
}

/* minGPT's CausalSelfAttention (and L3/050's ReLU variant) on rows x [B·T, C]: c_attn, the
 * attention core, then c_proj when w_proj is not NULL. *y is a new activation. */
template <class B>
static int cua_net_gpt_attention(B &b, const cua_act<typename B::T> &x, int64_t Bn, int64_t Tn,
                                 int64_t nh, enum seq_att_kind kind, const float *w_attn,
                                 const float *b_attn, const float *w_proj, const float *b_proj,
                                 cua_act<typename B::T> *y)
{
	typedef typename B::T T;
	const int64_t C = x.s[1];
	cua_act<T> qkv, a;
	CUA_CHECK(cua_net_linear(b, x, w_attn, b_attn, 3 * C, &qkv));
	CUA_CHECK(cua_net_attention(b, qkv, Bn, Tn, nh, kind, w_proj ? &a : y));
	cua_net_free(b, &qkv);
	if (!w_proj)
		return 0;
	CUA_CHECK(cua_net_linear(b, a, w_proj, b_proj, C, y));
	cua_net_free(b, &a);
	return 0;
}

/* L3/043 and L3/050: x [B, T, C], params (c_attn.weight [3C, C], c_attn.bias, and for 043
 * c_proj.weight [C, C], c_proj.bias); output [B, T, C]. */
template <class B>
static int cua_net_gpt_attention_task(B &b, int64_t C, int64_t nh, enum seq_att_kind kind,
                                      bool proj, const struct cua_tensor *in, int n_in,
                                      struct cua_tensor *out, int n_out)
{
	typedef typename B::T T;
	CUA_CHECK(cua_check_counts(in, n_in, 2, out, n_out, 1));
	cua_act<T> x, y;
	CUA_CHECK(cua_net_input(b, &in[0], 3, &x));
	const int64_t Bn = x.s[0], Tn = x.s[1];
	if (x.s[2] != C)
		return CUA_CHECK_E_SHAPE;
	cua_net_rows(&x);
	struct cua_par c;
	CUA_CHECK(cua_par_begin(&c, &in[1]));
	const float *wa = cua_par_take(&c, 3 * C * C), *ba = cua_par_take(&c, 3 * C);
	const float *wp = proj ? cua_par_take(&c, C * C) : NULL;
	const float *bp = proj ? cua_par_take(&c, C) : NULL;
	CUA_CHECK(cua_par_end(&c));
	const int64_t od[3] = {Bn, Tn, C};
	CUA_CHECK(seq_check_extents(&out[0], cua_dtype_of<T>::value, 3, od));
	CUA_CHECK(cua_net_gpt_attention(b, x, Bn, Tn, nh, kind, wa, ba, wp, bp, &y));
	return cua_net_output(b, y, &out[0]);
}

/* L3/044: minGPT's Block: x = x + attn(ln_1(x)); x = x + c_proj(gelu(c_fc(ln_2(x)))).
 * params: ln_1 (weight, bias [C]), attn.c_attn, attn.c_proj, ln_2, mlp.c_fc [4C, C] + [4C],
 * mlp.c_proj [C, 4C] + [C]. */
template <class B>
static int cua_net_gpt_block_task(B &b, int64_t C, int64_t nh, const struct cua_tensor *in,
                                  int n_in, struct cua_tensor *out, int n_out)
{
	typedef typename B::T T;
	CUA_CHECK(cua_check_counts(in, n_in, 2, out, n_out, 1));
	cua_act<T> x, h, a, f, m;
	CUA_CHECK(cua_net_input(b, &in[0], 3, &x));
	const int64_t Bn = x.s[0], Tn = x.s[1];
	if (x.s[2] != C)
		return CUA_CHECK_E_SHAPE;
	cua_net_rows(&x);
	struct cua_par c;
	CUA_CHECK(cua_par_begin(&c, &in[1]));
	const float *l1w = cua_par_take(&c, C), *l1b = cua_par_take(&c, C);
	const float *wa = cua_par_take(&c, 3 * C * C), *ba = cua_par_take(&c, 3 * C);
	const float *wp = cua_par_take(&c, C * C), *bp = cua_par_take(&c, C);
	const float *l2w = cua_par_take(&c, C), *l2b = cua_par_take(&c, C);
	const float *wf = cua_par_take(&c, 4 * C * C), *bf = cua_par_take(&c, 4 * C);
	const float *wm = cua_par_take(&c, 4 * C * C), *bm = cua_par_take(&c, C);
	CUA_CHECK(cua_par_end(&c));
	const int64_t od[3] = {Bn, Tn, C};
	CUA_CHECK(seq_check_extents(&out[0], cua_dtype_of<T>::value, 3, od));
	h = x;
	h.owned = false;
	CUA_CHECK(cua_net_layernorm(b, &h, l1w, l1b, 1e-5));       /* copies x first */
	CUA_CHECK(cua_net_gpt_attention(b, h, Bn, Tn, nh, SEQ_ATT_CAUSAL_SOFTMAX, wa, ba, wp, bp,
	                                &a));
	cua_net_free(b, &h);
	CUA_CHECK(cua_net_add(b, &a, x));                          /* a = x + attn(ln_1(x)) */
	h = a;
	h.owned = false;
	CUA_CHECK(cua_net_layernorm(b, &h, l2w, l2b, 1e-5));
	CUA_CHECK(cua_net_linear(b, h, wf, bf, 4 * C, &f));
	cua_net_free(b, &h);
	CUA_CHECK(cua_net_gelu_tanh(b, &f));
	CUA_CHECK(cua_net_linear(b, f, wm, bm, C, &m));
	cua_net_free(b, &f);
	CUA_CHECK(cua_net_add(b, &m, a));
	return cua_net_output(b, m, &out[0]);
}

/* L3/031: x [N, E, H, W] as a sequence of L = H·W tokens of E channels, nn.MultiheadAttention
 * (E, nh) self-attention, + x, nn.LayerNorm(E), back to [N, E, H, W]. params:
 * attn.in_proj_weight [3E, E], attn.in_proj_bias [3E], attn.out_proj.weight [E, E],
 * attn.out_proj.bias [E], norm.weight, norm.bias [E]. Batches are independent, so the tokens
 * are processed as rows [N·L, E] (batch-major), not PyTorch's (L, N, E) order. */
template <class B>
static int cua_net_vision_attention_task(B &b, int64_t E, int64_t nh,
                                         const struct cua_tensor *in, int n_in,
                                         struct cua_tensor *out, int n_out)
{
	typedef typename B::T T;
	CUA_CHECK(cua_check_counts(in, n_in, 2, out, n_out, 1));
	cua_act<T> x, t, y, z;
	CUA_CHECK(cua_net_input(b, &in[0], 4, &x));
	const int64_t N = x.s[0], L = x.s[2] * x.s[3];
	if (x.s[1] != E)
		return CUA_CHECK_E_SHAPE;
	struct cua_par c;
	CUA_CHECK(cua_par_begin(&c, &in[1]));
	const float *wi = cua_par_take(&c, 3 * E * E), *bi = cua_par_take(&c, 3 * E);
	const float *wo = cua_par_take(&c, E * E), *bo = cua_par_take(&c, E);
	const float *lw = cua_par_take(&c, E), *lb = cua_par_take(&c, E);
	CUA_CHECK(cua_par_end(&c));
	CUA_CHECK(seq_check_extents(&out[0], cua_dtype_of<T>::value, 4, x.s));
	const int64_t ts[2] = {N * L, E};
	CUA_CHECK(cua_net_transpose12(b, x, N, E, L, 2, ts, &t));      /* [N, L, E] rows */
	CUA_CHECK(cua_net_gpt_attention(b, t, N, L, nh, SEQ_ATT_SOFTMAX, wi, bi, wo, bo, &y));
	CUA_CHECK(cua_net_add(b, &y, t));
	cua_net_free(b, &t);
	CUA_CHECK(cua_net_layernorm(b, &y, lw, lb, 1e-5));
	CUA_CHECK(cua_net_transpose12(b, y, N, L, E, 4, x.s, &z));      /* back to [N, E, H, W] */
	return cua_net_output(b, z, &out[0]);
}

#endif /* CUA_COMMON_NET_SEQ_CUH */
