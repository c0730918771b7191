/* l2-gemm-common.cuh — the two linear policies of the L2 GEMM-family cuBLAS
 * baselines (the chains themselves are tasks/common/l2-gemm.cuh, shared with
 * the references, so a baseline runs exactly the reference's epilogue kernels):
 *
 *   blas_linear     library-unfused, what eager PyTorch does op by op: one
 *                   cublasSgemm in CUBLAS_DEFAULT_MATH (strict fp32, no TF32),
 *                   then the Linear's bias (and a ReLU) as naive kernels.
 *   blaslt_linear   library-fused: one cublasLtMatmul, CUBLAS_COMPUTE_32F
 *                   (strict fp32), with the bias (CUBLASLT_EPILOGUE_BIAS) or
 *                   bias + ReLU (CUBLASLT_EPILOGUE_RELU_BIAS) in its epilogue.
 *                   The algorithm is chosen by measurement: on the first call
 *                   for a (M, N, K, epilogue) each of up to 8 heuristic offers
 *                   runs 3 times and the fastest is kept for the process.
 *                   cuBLASLt's GELU epilogues are the tanh approximation, which
 *                   differs from the exact erf GELU every task uses by up to
 *                   4.7e-4 (2.3e-4 for |v| < 1.7): more than any GELU task's
 *                   tolerance (L2/099, the one GELU right after its Linear, is
 *                   softmax(gelu(z)) with rtol 1e-4), so only the bias is fused.
 *
 * Layout: row-major y [M,N] = x [M,K]·W[N,K]ᵀ is, column-major, yᵀ (N×M, ld N)
 * = op_T(W as K×N, ld K) · (xᵀ as K×M, ld K); the bias runs along the N rows of
 * the column-major result, which is what cuBLASLt's bias vector is.
 *
 * L2_GEMM_BASELINE(l2_NNN, policy) defines the baseline's cua_solve, which keeps the
 * chain's cudaMallocAsync'd scratch mapped between calls (mempool-common.cuh). */
#ifndef BASELINES_CUBLAS_L2_GEMM_COMMON_CUH
#define BASELINES_CUBLAS_L2_GEMM_COMMON_CUH

#include <cublasLt.h>
#include "../common/mempool-common.cuh"
#include "cublas-common.cuh"
#include "l2-gemm.cuh"

static inline bool blas_int_ok(int64_t M, int64_t N, int64_t K)
{
	return M >= 1 && N >= 1 && K >= 1 && M <= INT_MAX && N <= INT_MAX && K <= INT_MAX;
}

struct blas_linear {
	static int run(const float *x, const float *W, const float *b, enum cua_lin_epi epi,
	               float *y, int64_t M, int64_t N, int64_t K, cudaStream_t stream)
	{
		if (!blas_int_ok(M, N, K))
			return -4;
		int rc = blas_bind(stream, CUBLAS_DEFAULT_MATH);
		if (rc != 0)
			return rc;
		const float one = 1.0f, zero = 0.0f;
		rc = blas_result(cublasSgemm(blas_handle, CUBLAS_OP_T, CUBLAS_OP_N, (int)N, (int)M,
		                             (int)K, &one, W, (int)K, x, (int)K, &zero, y, (int)N));
		if (rc != 0)
			return rc;
		cua_linear_epilogue<float>(y, b, epi, M, N, stream);
		return (int)cudaGetLastError();
	}
};

#define BLASLT_WORKSPACE (32u << 20)
#define BLASLT_PLANS 8

/* A chosen algorithm for one problem, with the descriptors it was chosen for. */
struct blaslt_plan {
	int64_t M, N, K;
	enum cua_lin_epi epi;
	cublasLtMatmulDesc_t op;
	cublasLtMatrixLayout_t a, b, c;   /* NULL until described */
	cublasLtMatmulAlgo_t algo;
};

static cublasLtHandle_t blaslt_handle;
static void *blaslt_ws;
static struct blaslt_plan blaslt_plans[BLASLT_PLANS];
static int blaslt_n_plans;

#define BLASLT_TRY(expr)                                                       \
	do {                                                                       \
		cublasStatus_t blaslt_st_ = (expr);                                    \
		if (blaslt_st_ != CUBLAS_STATUS_SUCCESS)                               \
			return (int)blaslt_st_;                                            \
	} while (0)

/* Destroys p's descriptors (those that exist). */
static inline void blaslt_forget(struct blaslt_plan *p)
{
	if (p->op)
		cublasLtMatmulDescDestroy(p->op);
	if (p->a)
		cublasLtMatrixLayoutDestroy(p->a);
	if (p->b)
		cublasLtMatrixLayoutDestroy(p->b);
	if (p->c)
		cublasLtMatrixLayoutDestroy(p->c);
	p->op = NULL;
	p->a = p->b = p->c = NULL;
}

/* The descriptors of p (M, N, K, epi set) with the bias pointer left to the call. */
static inline int blaslt_describe(struct blaslt_plan *p)
{
	blaslt_forget(p);
	const cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
	const cublasLtEpilogue_t e = p->epi == CUA_LIN_BIAS_RELU ? CUBLASLT_EPILOGUE_RELU_BIAS
	                             : p->epi == CUA_LIN_BIAS    ? CUBLASLT_EPILOGUE_BIAS
	                                                         : CUBLASLT_EPILOGUE_DEFAULT;
	BLASLT_TRY(cublasLtMatmulDescCreate(&p->op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
	BLASLT_TRY(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_TRANSA, &ta,
	                                          sizeof(ta)));
	BLASLT_TRY(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_TRANSB, &tb,
	                                          sizeof(tb)));
	BLASLT_TRY(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_EPILOGUE, &e,
	                                          sizeof(e)));
	BLASLT_TRY(cublasLtMatrixLayoutCreate(&p->a, CUDA_R_32F, (uint64_t)p->K, (uint64_t)p->N,
	                                      p->K));
	BLASLT_TRY(cublasLtMatrixLayoutCreate(&p->b, CUDA_R_32F, (uint64_t)p->K, (uint64_t)p->M,
	                                      p->K));
	BLASLT_TRY(cublasLtMatrixLayoutCreate(&p->c, CUDA_R_32F, (uint64_t)p->N, (uint64_t)p->M,
	                                      p->N));
	return 0;
}

static inline int blaslt_matmul(const struct blaslt_plan *p, const cublasLtMatmulAlgo_t *algo,
                                const float *x, const float *W, const float *b, float *y,
                                cudaStream_t stream)
{
	const float one = 1.0f, zero = 0.0f;
	if (p->epi != CUA_LIN_NONE)
		BLASLT_TRY(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &b,
		                                          sizeof(b)));
	BLASLT_TRY(cublasLtMatmul(blaslt_handle, p->op, &one, W, p->a, x, p->b, &zero, y, p->c, y,
	                          p->c, algo, blaslt_ws, BLASLT_WORKSPACE, stream));
	return 0;
}

/* Times each heuristic offer (3 runs after one warm-up, CUDA events on stream)
 * and keeps the fastest in p->algo. */
static inline int blaslt_choose(struct blaslt_plan *p, const float *x, const float *W,
                                const float *b, float *y, cudaStream_t stream)
{
	cublasLtMatmulPreference_t pref;
	cublasLtMatmulHeuristicResult_t res[8];
	int n_res = 0;
	const size_t ws = BLASLT_WORKSPACE;
	BLASLT_TRY(cublasLtMatmulPreferenceCreate(&pref));
	cublasStatus_t st = cublasLtMatmulPreferenceSetAttribute(
		pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws));
	if (st == CUBLAS_STATUS_SUCCESS)
		st = cublasLtMatmulAlgoGetHeuristic(blaslt_handle, p->op, p->a, p->b, p->c, p->c, pref,
		                                    8, res, &n_res);
	cublasLtMatmulPreferenceDestroy(pref);
	if (st != CUBLAS_STATUS_SUCCESS)
		return (int)st;
	if (n_res < 1)
		return (int)CUBLAS_STATUS_NOT_SUPPORTED;
	cudaEvent_t e0, e1;
	if (cudaEventCreate(&e0) != cudaSuccess)
		return (int)cudaGetLastError();
	if (cudaEventCreate(&e1) != cudaSuccess) {
		cudaEventDestroy(e0);
		return (int)cudaGetLastError();
	}
	int best = -1, rc = 0;
	float best_ms = 0;
	for (int i = 0; i < n_res && rc == 0; i++) {
		if (res[i].state != CUBLAS_STATUS_SUCCESS)
			continue;
		if (blaslt_matmul(p, &res[i].algo, x, W, b, y, stream) != 0)
			continue;    /* an offer that fails to run is skipped, not fatal */
		cudaEventRecord(e0, stream);
		for (int r = 0; r < 3 && rc == 0; r++)
			rc = blaslt_matmul(p, &res[i].algo, x, W, b, y, stream);
		cudaEventRecord(e1, stream);
		float ms = 0;
		if (rc == 0 && cudaEventSynchronize(e1) == cudaSuccess &&
		    cudaEventElapsedTime(&ms, e0, e1) == cudaSuccess && (best < 0 || ms < best_ms)) {
			best = i;
			best_ms = ms;
		}
	}
	cudaEventDestroy(e0);
	cudaEventDestroy(e1);
	if (rc != 0)
		return rc;
	if (best < 0)
		return (int)CUBLAS_STATUS_NOT_SUPPORTED;
	p->algo = res[best].algo;
	return (int)cudaGetLastError();
}

/* The plan for (M, N, K, epi), made and measured on first use. */
static inline int blaslt_plan_for(int64_t M, int64_t N, int64_t K, enum cua_lin_epi epi,
                                  const float *x, const float *W, const float *b, float *y,
                                  cudaStream_t stream, struct blaslt_plan **out)
{
	for (int i = 0; i < blaslt_n_plans; i++) {
		struct blaslt_plan *p = &blaslt_plans[i];
		if (p->M == M && p->N == N && p->K == K && p->epi == epi) {
			*out = p;
			return 0;
		}
	}
	if (blaslt_handle == NULL)
		BLASLT_TRY(cublasLtCreate(&blaslt_handle));
	if (blaslt_ws == NULL && cudaMalloc(&blaslt_ws, BLASLT_WORKSPACE) != cudaSuccess)
		return (int)cudaGetLastError();
	/* A full table is recycled from slot 0 (a baseline sees a handful of shapes). */
	struct blaslt_plan *p = &blaslt_plans[blaslt_n_plans < BLASLT_PLANS ? blaslt_n_plans++ : 0];
	p->M = M;
	p->N = N;
	p->K = K;
	p->epi = epi;
	int rc = blaslt_describe(p);
	if (rc == 0)
		rc = blaslt_choose(p, x, W, b, y, stream);
	if (rc != 0) {
		p->M = -1;    /* never matches: described again next time */
		return rc;
	}
	*out = p;
	return 0;
}

struct blaslt_linear {
	static int run(const float *x, const float *W, const float *b, enum cua_lin_epi epi,
	               float *y, int64_t M, int64_t N, int64_t K, cudaStream_t stream)
	{
		if (!blas_int_ok(M, N, K))
			return -4;
		struct blaslt_plan *p;
		int rc = blaslt_plan_for(M, N, K, epi, x, W, b, y, stream, &p);
		if (rc != 0)
			return rc;
		rc = blaslt_matmul(p, &p->algo, x, W, b, y, stream);
		return rc != 0 ? rc : (int)cudaGetLastError();
	}
};

#define L2_GEMM_BASELINE(chain, policy)                                                  \
	extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, \
	                         int n_out, cudaStream_t stream)                               \
	{                                                                                    \
		int rc = mempool_keep();                                                         \
		return rc ? rc : chain<policy, float>(in, n_in, out, n_out, stream);             \
	}

#endif /* BASELINES_CUBLAS_L2_GEMM_COMMON_CUH */
