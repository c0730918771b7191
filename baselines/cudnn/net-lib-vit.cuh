/* net-lib-vit.cuh — the library backend's ops of tasks/common/net-vit.cuh (cua_net_lib,
 * baselines/cudnn/net-lib.cuh), strict fp32. Header-only.
 *
 *     vit_gemm         cublasSgemmStridedBatched (CUBLAS_DEFAULT_MATH: no TF32) on gemm.cuh's
 *                      row-major descriptor, read as the column-major product Cᵀ = op(B)ᵀ·op(A)ᵀ
 *     mamba_states     B·exp(decay) scaled rows by a kernel, then per head one strided batched
 *                      GEMM over every (batch, chunk): states [P, N] = X_chunkᵀ · (B·decay)
 *     mamba_diag_gemm  Y_diag per head: one strided batched GEMM of the [64, 64] G blocks with
 *                      the [64, P] slices of X over every (batch, chunk)
 *     cua_net_conv_transpose2d  cudnnConvolutionBackwardData (conv-transpose-common.cuh: the
 *                      algorithm chosen by measurement, FMA math), then the bias as its own
 *                      kernel, as eager adds it
 * BatchNorm, softmax and convolution are net-lib.cuh's cuDNN calls, attention net-lib-seq.cuh's
 * cuBLAS one; the rest is net-vit.cuh's kernels. */
#ifndef BASELINES_CUDNN_NET_LIB_VIT_CUH
#define BASELINES_CUDNN_NET_LIB_VIT_CUH

#include "net-lib.cuh"
#include "net-lib-seq.cuh"
#include "net-vit.cuh"
#include "conv-transpose-common.cuh"

/* One strided batched SGEMM: row-major C [M, N] (ldc) = alpha·op(A)·op(B) + beta·C. */
static inline int vit_lib_sgemm(cudaStream_t s, const struct cua_gemm_desc &d, const float *A,
                                const float *Bm, float *C, float alpha, float beta)
{
	if (d.M > INT32_MAX || d.N > INT32_MAX || d.K > INT32_MAX || d.batch > INT32_MAX ||
	    d.lda > INT32_MAX || d.ldb > INT32_MAX || d.ldc > INT32_MAX)
		return CUA_CHECK_E_SHAPE;
	CUA_CHECK(net_lib_blas(s));
	cublasStatus_t st = cublasSgemmStridedBatched(
		net_blas, d.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N, d.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N,
		(int)d.N, (int)d.M, (int)d.K, &alpha, Bm, (int)d.ldb, d.stride_b, A, (int)d.lda,
		d.stride_a, &beta, C, (int)d.ldc, d.stride_c, (int)d.batch);
	return st == CUBLAS_STATUS_SUCCESS ? cua_net_last_error() : (int)st;
}

static inline int vit_gemm(cua_net_lib &b, const struct cua_gemm_desc &d, const float *A,
                           const float *Bm, float *C, double alpha = 1.0)
{
	return vit_lib_sgemm(b.stream, d, A, Bm, C, (float)alpha, 0.0f);
}

/* bd[b, c, h, l, n] = B[b, c·Lc + l, h, n] · exp(Acum[b, h, c, Lc−1] − Acum[b, h, c, l]). */
__global__ void mamba_lib_bdecay_kernel(const float *__restrict__ Bm, const float *__restrict__ ac,
                                        float *__restrict__ bd, struct mamba_dims d)
{
	const int64_t n = d.Bn * d.S * d.H * d.Nn;
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x) {
		const int64_t k = i % d.Nn, l = (i / d.Nn) % d.Lc, h = (i / (d.Nn * d.Lc)) % d.H;
		const int64_t c = (i / (d.Nn * d.Lc * d.H)) % d.Cn, bi = i / (d.Nn * d.Lc * d.H * d.Cn);
		const float *a = ac + ((bi * d.H + h) * d.Cn + c) * d.Lc;
		bd[i] = Bm[((bi * d.S + c * d.Lc + l) * d.H + h) * d.Nn + k] * expf(a[d.Lc - 1] - a[l]);
	}
}

static inline int mamba_states(cua_net_lib &b, const struct mamba_dims &d, const float *X,
                               const float *Bm, const float *ac, float *st)
{
	cua_act<float> bd;
	CUA_CHECK(cua_net_alloc2(b, d.Bn * d.S * d.H, d.Nn, &bd));
	mamba_lib_bdecay_kernel<<<vit_blocks(bd.numel()), VIT_THREADS, 0, b.stream>>>(Bm, ac, bd.p,
	                                                                             d);
	CUA_CHECK(cua_net_last_error());
	/* per head h, batch (b, c): st [P, N] = Xᵀ [P, Lc] · bd [Lc, N] */
	struct cua_gemm_desc g = cua_gemm_desc_packed(d.P, d.Nn, d.Lc, true, false);
	g.lda = d.H * d.P;
	g.batch = d.Bn * d.Cn;
	g.stride_a = d.Lc * d.H * d.P;
	g.stride_b = d.H * d.Lc * d.Nn;
	g.stride_c = d.H * d.P * d.Nn;
	for (int64_t h = 0; h < d.H; h++)
		CUA_CHECK(vit_lib_sgemm(b.stream, g, X + h * d.P, bd.p + h * d.Lc * d.Nn,
		                        st + h * d.P * d.Nn, 1.0f, 0.0f));
	cua_net_free(b, &bd);
	return 0;
}

static inline int mamba_diag_gemm(cua_net_lib &b, const struct mamba_dims &d, const float *X,
                                  const float *g, float *y, bool *done)
{
	/* per head h, batch (b, c): y [Lc, P] (row stride H·P) = G [Lc, Lc] · X [Lc, P] */
	struct cua_gemm_desc m = cua_gemm_desc_packed(d.Lc, d.P, d.Lc, false, false);
	m.ldb = m.ldc = d.H * d.P;
	m.batch = d.Bn * d.Cn;
	m.stride_a = d.H * d.Lc * d.Lc;
	m.stride_b = m.stride_c = d.Lc * d.H * d.P;
	for (int64_t h = 0; h < d.H; h++)
		CUA_CHECK(vit_lib_sgemm(b.stream, m, g + h * d.Lc * d.Lc, X + h * d.P, y + h * d.P,
		                        1.0f, 0.0f));
	*done = true;
	return 0;
}

static inline void vit_lib_tensor(struct cua_tensor *t, void *p, const int64_t *s)
{
	memset(t, 0, sizeof(*t));
	t->data = p;
	t->dtype = CUA_F32;
	t->ndim = 4;
	memcpy(t->shape, s, 4 * sizeof(int64_t));
}

static inline int cua_net_conv_transpose2d(cua_net_lib &b, const cua_act<float> &x,
                                           const float *w, const float *bias, int64_t F,
                                           int64_t k, int64_t s, cua_act<float> *y)
{
	struct cua_conv_oracle_desc d;
	struct cua_tensor io[3];
	if (!w)
		return CUA_CHECK_E_NULL;
	CUA_CHECK(vit_convt_desc(x, F, k, s, &d));
	CUA_CHECK(cua_net_alloc4(b, d.N, d.F, d.OH, d.OW, y));
	if (k > INT_MAX || s > INT_MAX)
		return CUA_CHECK_E_SHAPE;
	const struct convt_hp hp = {2, {(int)k, (int)k, 0}, {(int)s, (int)s, 0}, {0, 0, 0},
	                            {0, 0, 0}, {1, 1, 1}, 1};
	const int64_t ws[4] = {d.C, d.F, k, k};
	vit_lib_tensor(&io[0], x.p, x.s);
	vit_lib_tensor(&io[1], (void *)w, ws);
	vit_lib_tensor(&io[2], y->p, y->s);
	CUA_CHECK(convt_cudnn(&hp, io, 2, &io[2], 1, b.stream));
	if (bias)
		net_bias_channels_kernel<float><<<cua_blocks_1d(y->numel(), CUA_NET_THREADS),
		                                  CUA_NET_THREADS, 0, b.stream>>>(
			y->p, bias, y->numel(), d.F, d.OH * d.OW);
	return cua_net_last_error();
}

#endif /* BASELINES_CUDNN_NET_LIB_VIT_CUH */
