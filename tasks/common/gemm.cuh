/* gemm.cuh — naive batched GEMM, one thread per output element. Header-only.
 *
 *     C[b] = alpha * op(A[b]) · op(B[b])       b in [0, batch)
 *
 * All matrices are row-major with leading dimensions (elements between rows):
 *     op(A) is M×K: A[m*lda + k], or A[k*lda + m] when trans_a (A stored K×M)
 *     op(B) is K×N: B[k*ldb + n], or B[n*ldb + k] when trans_b (B stored N×K)
 *     C     is M×N: C[m*ldc + n]
 * and batch b starts at A + b*stride_a, B + b*stride_b, C + b*stride_c.
 * Products are accumulated in Acc in k order and stored as Out, so the fp32
 * reference (In = Acc = Out = float) and the fp64 oracle (In = float,
 * Acc = Out = double) share one kernel.
 *
 * This is the nvcc baseline, deliberately untiled: a warp covers 32 adjacent n
 * of one row m, so A is a broadcast and B (not transposed) a coalesced 128-byte
 * load per k; 2*M*N*K flops at ~one L1 load per FMA (a few TFLOP/s on an H200,
 * against ~51 for cuBLAS strict fp32).
 *
 * With trans_b, that mapping would make every load of B a 32-row gather, so two
 * variants keep every load coalesced or a broadcast, same desc and semantics:
 *     op(A) = A,  op(B) = Bᵀ:  cua_gemm_naive_dot, one warp per output, lanes
 *                              stride over k (both rows contiguous), shuffle sum
 *     op(A) = Aᵀ, op(B) = Bᵀ:  cua_gemm_naive_mx, a warp covers 32 adjacent m of
 *                              one column n (A coalesced, B a broadcast; the
 *                              stores of C are strided, one per output)
 * cua_gemm_naive itself suits op(B) = B with either op(A). */
#ifndef CUA_COMMON_GEMM_CUH
#define CUA_COMMON_GEMM_CUH

#include "check.cuh"

struct cua_gemm_desc {
	int64_t M, N, K, batch;
	bool trans_a, trans_b;
	int64_t lda, ldb, ldc;
	int64_t stride_a, stride_b, stride_c;
};

/* A plain row-major C[M,N] = A[M,K] · B[K,N], one batch. */
static inline struct cua_gemm_desc cua_gemm_desc_nn(int64_t M, int64_t N, int64_t K)
{
	struct cua_gemm_desc d;
	d.M = M; d.N = N; d.K = K; d.batch = 1;
	d.trans_a = false; d.trans_b = false;
	d.lda = K; d.ldb = N; d.ldc = N;
	d.stride_a = M * K; d.stride_b = K * N; d.stride_c = M * N;
	return d;
}

/* Densely packed row-major operands, one batch: A stored M×K (K×M when
 * trans_a), B stored K×N (N×K when trans_b), C M×N. Set batch and the strides
 * for a batched product. */
static inline struct cua_gemm_desc cua_gemm_desc_packed(int64_t M, int64_t N, int64_t K,
                                                        bool trans_a, bool trans_b)
{
	struct cua_gemm_desc d = cua_gemm_desc_nn(M, N, K);
	d.trans_a = trans_a;
	d.trans_b = trans_b;
	d.lda = trans_a ? M : K;
	d.ldb = trans_b ? K : N;
	return d;
}

#define CUA_GEMM_BX 32
#define CUA_GEMM_BY 8

/* Grid: x over n, y over m, z over batch; each loops past the grid so any
 * extent works. */
template <typename In, typename Acc, typename Out>
__global__ void gemm_naive_kernel(const In *__restrict__ A, const In *__restrict__ B,
                                  Out *__restrict__ C, struct cua_gemm_desc d, Acc alpha)
{
	/* step between consecutive k in A and in B */
	const int64_t ak = d.trans_a ? d.lda : 1;
	const int64_t bk = d.trans_b ? 1 : d.ldb;
	for (int64_t b = blockIdx.z; b < d.batch; b += gridDim.z) {
		for (int64_t m = (int64_t)blockIdx.y * blockDim.y + threadIdx.y; m < d.M;
		     m += (int64_t)gridDim.y * blockDim.y) {
			const In *a = A + b * d.stride_a + (d.trans_a ? m : m * d.lda);
			for (int64_t n = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; n < d.N;
			     n += (int64_t)gridDim.x * blockDim.x) {
				const In *bp = B + b * d.stride_b + (d.trans_b ? n * d.ldb : n);
				Acc acc = 0;
				for (int64_t k = 0; k < d.K; k++)
					acc += (Acc)a[k * ak] * (Acc)bp[k * bk];
				C[b * d.stride_c + m * d.ldc + n] = (Out)(alpha * acc);
			}
		}
	}
}

/* Enqueue on stream; the caller validates d and checks cudaGetLastError(). */
template <typename In, typename Acc, typename Out>
static inline void cua_gemm_naive(const In *A, const In *B, Out *C, const struct cua_gemm_desc &d,
                                  Acc alpha, cudaStream_t stream)
{
	dim3 block(CUA_GEMM_BX, CUA_GEMM_BY);
	int64_t gx = (d.N + CUA_GEMM_BX - 1) / CUA_GEMM_BX;
	dim3 grid((unsigned int)(gx < CUA_MAX_BLOCKS_1D ? gx : CUA_MAX_BLOCKS_1D),
	          cua_blocks_yz(d.M, CUA_GEMM_BY), cua_blocks_yz(d.batch, 1));
	gemm_naive_kernel<In, Acc, Out><<<grid, block, 0, stream>>>(A, B, C, d, alpha);
}

/* Same product as gemm_naive_kernel with threadIdx.x along m: grid x over m,
 * y over n, z over batch. For op(A) = Aᵀ (A stored K×M, m contiguous) the load of
 * A is coalesced and, with op(B) = Bᵀ, the load of B is a broadcast. Products
 * are accumulated in k order, as in gemm_naive_kernel. */
template <typename In, typename Acc, typename Out>
__global__ void gemm_naive_mx_kernel(const In *__restrict__ A, const In *__restrict__ B,
                                     Out *__restrict__ C, struct cua_gemm_desc d, Acc alpha)
{
	const int64_t ak = d.trans_a ? d.lda : 1;
	const int64_t bk = d.trans_b ? 1 : d.ldb;
	for (int64_t b = blockIdx.z; b < d.batch; b += gridDim.z) {
		for (int64_t n = (int64_t)blockIdx.y * blockDim.y + threadIdx.y; n < d.N;
		     n += (int64_t)gridDim.y * blockDim.y) {
			const In *bp = B + b * d.stride_b + (d.trans_b ? n * d.ldb : n);
			for (int64_t m = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; m < d.M;
			     m += (int64_t)gridDim.x * blockDim.x) {
				const In *a = A + b * d.stride_a + (d.trans_a ? m : m * d.lda);
				Acc acc = 0;
				for (int64_t k = 0; k < d.K; k++)
					acc += (Acc)a[k * ak] * (Acc)bp[k * bk];
				C[b * d.stride_c + m * d.ldc + n] = (Out)(alpha * acc);
			}
		}
	}
}

/* Enqueue on stream; the caller validates d and checks cudaGetLastError(). */
template <typename In, typename Acc, typename Out>
static inline void cua_gemm_naive_mx(const In *A, const In *B, Out *C,
                                     const struct cua_gemm_desc &d, Acc alpha,
                                     cudaStream_t stream)
{
	dim3 block(CUA_GEMM_BX, CUA_GEMM_BY);
	int64_t gx = (d.M + CUA_GEMM_BX - 1) / CUA_GEMM_BX;
	dim3 grid((unsigned int)(gx < CUA_MAX_BLOCKS_1D ? gx : CUA_MAX_BLOCKS_1D),
	          cua_blocks_yz(d.N, CUA_GEMM_BY), cua_blocks_yz(d.batch, 1));
	gemm_naive_mx_kernel<In, Acc, Out><<<grid, block, 0, stream>>>(A, B, C, d, alpha);
}

#define CUA_GEMM_DOT_THREADS 256    /* 8 warps, 8 outputs per block in flight */

/* Sum over the 32 lanes of a full warp; every lane gets it. */
template <typename T>
__device__ __forceinline__ T gemm_warp_sum(T v)
{
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_xor_sync(0xffffffffu, v, o);
	return v;
}

/* One warp per output (b, m, n), outputs in row-major order (consecutive warps
 * share m, so the row of A is reused from L1). Lane l accumulates the products
 * of k = l, l+32, l+64, ... in k order, then the warp sums the 32 partial sums
 * with a butterfly. Any desc works; loads are coalesced when op(A) = A and
 * op(B) = Bᵀ (both contiguous in k). blockDim.x is a multiple of 32, and the
 * loop over outputs is uniform per warp, so the full-warp shuffle is safe. */
template <typename In, typename Acc, typename Out>
__global__ void gemm_dot_kernel(const In *__restrict__ A, const In *__restrict__ B,
                                Out *__restrict__ C, struct cua_gemm_desc d, Acc alpha)
{
	const int lane = threadIdx.x & 31;
	const int64_t wpb = blockDim.x >> 5;
	const int64_t total = d.batch * d.M * d.N;
	const int64_t ak = d.trans_a ? d.lda : 1;
	const int64_t bk = d.trans_b ? 1 : d.ldb;
	for (int64_t o = (int64_t)blockIdx.x * wpb + (threadIdx.x >> 5); o < total;
	     o += (int64_t)gridDim.x * wpb) {
		const int64_t n = o % d.N, t = o / d.N;
		const int64_t m = t % d.M, b = t / d.M;
		const In *a = A + b * d.stride_a + (d.trans_a ? m : m * d.lda);
		const In *bp = B + b * d.stride_b + (d.trans_b ? n * d.ldb : n);
		Acc acc = 0;
		for (int64_t k = lane; k < d.K; k += 32)
			acc += (Acc)a[k * ak] * (Acc)bp[k * bk];
		acc = gemm_warp_sum(acc);
		if (lane == 0)
			C[b * d.stride_c + m * d.ldc + n] = (Out)(alpha * acc);
	}
}

/* Enqueue on stream; the caller validates d and checks cudaGetLastError(). */
template <typename In, typename Acc, typename Out>
static inline void cua_gemm_naive_dot(const In *A, const In *B, Out *C,
                                      const struct cua_gemm_desc &d, Acc alpha,
                                      cudaStream_t stream)
{
	const int wpb = CUA_GEMM_DOT_THREADS / 32;
	gemm_dot_kernel<In, Acc, Out><<<cua_blocks_1d(d.batch * d.M * d.N, wpb),
	                                CUA_GEMM_DOT_THREADS, 0, stream>>>(A, B, C, d, alpha);
}

#endif /* CUA_COMMON_GEMM_CUH */
