/* linear.cuh — nn.Linear as the L2 GEMM-family references run it, the argument
 * checks those tasks share, and stream-ordered scratch. Header-only.
 *
 *     y[m, n] = Σ_{k<K} x[m, k]·W[n, k]  (+ b[n])  (+ ReLU)     x [M,K], W [N,K], y [M,N]
 *
 * (PyTorch's layout: W is [out_features, in_features], y = x·Wᵀ + b.) A chain
 * is written once against a "linear policy" L with
 *
 *     int L::run(const In *x, const float *W, const float *b, enum cua_lin_epi epi,
 *                Acc *y, int64_t M, int64_t N, int64_t K, cudaStream_t stream)
 *
 * which computes the product and then its epilogue epi (none, + b, + b then
 * ReLU); it returns 0 or an error code and only enqueues work. Policies:
 *     cua_linear_naive (here): the nvcc reference. Acc = float: the naive GEMM
 *         (cua_gemm_naive_dot, one warp per output, W's rows contiguous in k),
 *         then the epilogue as separate naive kernels, as eager PyTorch runs
 *         them; Acc = double (the oracle): the tiled fp64 GEMM (cua_gemm_f64),
 *         then the same epilogue kernels in double. In is float, or, for a
 *         Linear that follows another op, Acc.
 *     baselines/cublas/l2-gemm-common.cuh: cuBLAS SGEMM + the same naive
 *         epilogue (library-unfused) and cuBLASLt with the epilogue fused
 *         (library-fused).
 *
 * cua_l2_scratch holds up to 8 cudaMallocAsync'd buffers on the caller's
 * stream and frees them (stream-ordered) when it goes out of scope. */
#ifndef CUA_COMMON_LINEAR_CUH
#define CUA_COMMON_LINEAR_CUH

#include <type_traits>
#include "gemm.cuh"
#include "epilogue.cuh"

enum cua_lin_epi {
	CUA_LIN_NONE,        /* y = x·Wᵀ */
	CUA_LIN_BIAS,        /* y = x·Wᵀ + b */
	CUA_LIN_BIAS_RELU,   /* y = max(x·Wᵀ + b, 0) */
};

/* The epilogue of a linear as separate naive kernels on y [M,N] in place. */
template <typename Acc>
static inline void cua_linear_epilogue(Acc *y, const float *b, enum cua_lin_epi epi, int64_t M,
                                       int64_t N, cudaStream_t stream)
{
	if (epi == CUA_LIN_NONE)
		return;
	cua_ep_bcast<Acc>(M * N, N, 1, cua_ep_add(), y, b, y, stream);
	if (epi == CUA_LIN_BIAS_RELU)
		cua_ep_unary<Acc>(M * N, cua_ep_relu(), y, y, stream);
}

struct cua_linear_naive {
	template <typename In, typename Acc>
	static int run(const In *x, const float *W, const float *b, enum cua_lin_epi epi, Acc *y,
	               int64_t M, int64_t N, int64_t K, cudaStream_t stream)
	{
		const struct cua_gemm_desc d = cua_gemm_desc_packed(M, N, K, false, true);
		if constexpr (std::is_same<Acc, double>::value) {
			cua_gemm_f64<In, float, double>(x, W, y, d, 1.0, stream);
		} else {
			static_assert(std::is_same<In, float>::value, "fp32 linear reads f32");
			cua_gemm_naive_dot<float, float, float>(x, W, y, d, 1.0f, stream);
		}
		cua_linear_epilogue<Acc>(y, b, epi, M, N, stream);
		return (int)cudaGetLastError();
	}
};

/* x [M,K] and W [N,K] f32, b [N] f32 when b != NULL; sets M, N, K. */
static inline int cua_check_linear(const struct cua_tensor *x, const struct cua_tensor *W,
                                   const struct cua_tensor *b, int64_t *M, int64_t *N,
                                   int64_t *K)
{
	CUA_CHECK(cua_check_tensor(x, CUA_F32, 2));
	CUA_CHECK(cua_check_tensor(W, CUA_F32, 2));
	*M = x->shape[0];
	*K = x->shape[1];
	*N = W->shape[0];
	CUA_CHECK(cua_check_dim(W, 1, *K));
	if (b != NULL) {
		CUA_CHECK(cua_check_tensor(b, CUA_F32, 1));
		CUA_CHECK(cua_check_dim(b, 0, *N));
	}
	return 0;
}

/* t is f32 of rank ndim with extents dims[0..ndim). */
static inline int cua_check_extents(const struct cua_tensor *t, enum cua_dtype dt, int ndim,
                                    const int64_t *dims)
{
	CUA_CHECK(cua_check_tensor(t, dt, ndim));
	for (int i = 0; i < ndim; i++)
		CUA_CHECK(cua_check_dim(t, i, dims[i]));
	return 0;
}

/* A parameter vector of n f32. */
static inline int cua_check_vec(const struct cua_tensor *t, int64_t n)
{
	return cua_check_extents(t, CUA_F32, 1, &n);
}

struct cua_l2_scratch {
	cudaStream_t stream;
	void *p[8];
	int n;

	explicit cua_l2_scratch(cudaStream_t s) : stream(s), n(0) {}
	cua_l2_scratch(const cua_l2_scratch &) = delete;
	cua_l2_scratch &operator=(const cua_l2_scratch &) = delete;
	~cua_l2_scratch()
	{
		for (int i = 0; i < n; i++)
			cudaFreeAsync(p[i], stream);
	}

	/* *out = count elements of T on the stream; 0 or the cudaError_t. */
	template <typename T> int get(T **out, int64_t count)
	{
		*out = NULL;
		if (n == 8)
			return (int)cudaErrorMemoryAllocation;
		cudaError_t e = cudaMallocAsync((void **)out, (size_t)count * sizeof(T), stream);
		if (e != cudaSuccess)
			return (int)e;
		p[n++] = *out;
		return 0;
	}
};

#endif /* CUA_COMMON_LINEAR_CUH */
