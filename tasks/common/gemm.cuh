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
 * cua_gemm_naive itself suits op(B) = B with either op(A).
 *
 * The fp64 oracle (Acc = double) of all three launchers runs cua_gemm_f64
 * instead: a shared-memory tiled kernel, same desc, same products summed in
 * the same k order per output (one fma per k, as the naive kernels' contracted
 * acc += a·b), so the naive and mx launchers give bit-identical doubles and the
 * dot launcher differs only by its summation order (~1e-16 relative). The
 * float (Acc = float) paths, the nvcc baselines, are unchanged.
 * Napkin math of cua_gemm_f64: a 64×64 tile per block of 16×16 threads, 4×4
 * outputs per thread, k in steps of 16 through shared memory: per k a warp
 * reads 8 conflict-free shared wavefronts for 512 DFMA, about the H200's 64
 * DFMA per clock per SM, so ~15–25 TFLOP/s of its 34 (the naive fp64 loop: a
 * few); 1024×8192×8192 (137 GFLOP) in ~7 ms. */
#ifndef CUA_COMMON_GEMM_CUH
#define CUA_COMMON_GEMM_CUH

#include <type_traits>
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

#define CUA_GEMM64_BM 64      /* tile of C per block: BM × BN */
#define CUA_GEMM64_BN 64
#define CUA_GEMM64_BK 16      /* k per shared-memory step */
#define CUA_GEMM64_TS 16      /* threads per side of the block: 16 × 16 */

/* Grid: x over n tiles, y over m tiles, z over batch; each loops past the grid.
 * Thread (tx, ty) owns C[m0 + ty + 16i, n0 + tx + 16j], i, j < 4. A tile of
 * op(A) (BM × BK) and of op(B) (BK × BN) is staged in shared memory as double,
 * zero outside the matrices; each load walks the stored matrix's contiguous
 * index first (coalesced) and the +1 padding keeps the stores conflict-free. */
template <typename InA, typename InB, typename Out>
__global__ void __launch_bounds__(CUA_GEMM64_TS *CUA_GEMM64_TS)
gemm_f64_kernel(const InA *__restrict__ A, const InB *__restrict__ B, Out *__restrict__ C,
                struct cua_gemm_desc d, double alpha)
{
	__shared__ double As[CUA_GEMM64_BK][CUA_GEMM64_BM + 1];
	__shared__ double Bs[CUA_GEMM64_BK][CUA_GEMM64_BN + 1];
	const int tx = threadIdx.x, ty = threadIdx.y;
	const int tid = ty * CUA_GEMM64_TS + tx;
	const int64_t m_tiles = (d.M + CUA_GEMM64_BM - 1) / CUA_GEMM64_BM;
	const int64_t n_tiles = (d.N + CUA_GEMM64_BN - 1) / CUA_GEMM64_BN;
	for (int64_t b = blockIdx.z; b < d.batch; b += gridDim.z) {
		const InA *Ab = A + b * d.stride_a;
		const InB *Bb = B + b * d.stride_b;
		Out *Cb = C + b * d.stride_c;
		for (int64_t mt = blockIdx.y; mt < m_tiles; mt += gridDim.y) {
			for (int64_t nt = blockIdx.x; nt < n_tiles; nt += gridDim.x) {
				const int64_t m0 = mt * CUA_GEMM64_BM, n0 = nt * CUA_GEMM64_BN;
				double acc[4][4];
#pragma unroll
				for (int i = 0; i < 4; i++)
#pragma unroll
					for (int j = 0; j < 4; j++)
						acc[i][j] = 0;
				for (int64_t k0 = 0; k0 < d.K; k0 += CUA_GEMM64_BK) {
#pragma unroll
					for (int l = 0; l < 4; l++) {
						const int t = tid + l * CUA_GEMM64_TS * CUA_GEMM64_TS;
						int kk, mm, nn;
						if (d.trans_a) {
							mm = t % CUA_GEMM64_BM;
							kk = t / CUA_GEMM64_BM;
						} else {
							kk = t % CUA_GEMM64_BK;
							mm = t / CUA_GEMM64_BK;
						}
						int64_t m = m0 + mm, k = k0 + kk;
						double v = 0;
						if (m < d.M && k < d.K)
							v = (double)Ab[d.trans_a ? k * d.lda + m : m * d.lda + k];
						As[kk][mm] = v;
						if (d.trans_b) {
							kk = t % CUA_GEMM64_BK;
							nn = t / CUA_GEMM64_BK;
						} else {
							nn = t % CUA_GEMM64_BN;
							kk = t / CUA_GEMM64_BN;
						}
						const int64_t n = n0 + nn;
						k = k0 + kk;
						v = 0;
						if (n < d.N && k < d.K)
							v = (double)Bb[d.trans_b ? n * d.ldb + k : k * d.ldb + n];
						Bs[kk][nn] = v;
					}
					__syncthreads();
#pragma unroll
					for (int kk = 0; kk < CUA_GEMM64_BK; kk++) {
						double a[4], bv[4];
#pragma unroll
						for (int i = 0; i < 4; i++) {
							a[i] = As[kk][ty + CUA_GEMM64_TS * i];
							bv[i] = Bs[kk][tx + CUA_GEMM64_TS * i];
						}
#pragma unroll
						for (int i = 0; i < 4; i++)
#pragma unroll
							for (int j = 0; j < 4; j++)
								acc[i][j] = fma(a[i], bv[j], acc[i][j]);
					}
					__syncthreads();
				}
#pragma unroll
				for (int i = 0; i < 4; i++) {
					const int64_t m = m0 + ty + CUA_GEMM64_TS * i;
#pragma unroll
					for (int j = 0; j < 4; j++) {
						const int64_t n = n0 + tx + CUA_GEMM64_TS * j;
						if (m < d.M && n < d.N)
							Cb[m * d.ldc + n] = (Out)(alpha * acc[i][j]);
					}
				}
			}
		}
	}
}

/* C = alpha·op(A)·op(B) in double, any desc (see the top of the file); A and
 * B may differ in type (an f64 intermediate times f32 weights). Enqueue on
 * stream; the caller validates d and checks cudaGetLastError(). */
template <typename InA, typename InB, typename Out>
static inline void cua_gemm_f64(const InA *A, const InB *B, Out *C,
                                const struct cua_gemm_desc &d, double alpha, cudaStream_t stream)
{
	dim3 block(CUA_GEMM64_TS, CUA_GEMM64_TS);
	const int64_t gx = (d.N + CUA_GEMM64_BN - 1) / CUA_GEMM64_BN;
	dim3 grid((unsigned int)(gx < CUA_MAX_BLOCKS_1D ? gx : CUA_MAX_BLOCKS_1D),
	          cua_blocks_yz(d.M, CUA_GEMM64_BM), cua_blocks_yz(d.batch, 1));
	gemm_f64_kernel<InA, InB, Out><<<grid, block, 0, stream>>>(A, B, C, d, alpha);
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
	if constexpr (std::is_same<Acc, double>::value) {
		cua_gemm_f64<In, In, Out>(A, B, C, d, alpha, stream);
	} else {
		dim3 block(CUA_GEMM_BX, CUA_GEMM_BY);
		int64_t gx = (d.N + CUA_GEMM_BX - 1) / CUA_GEMM_BX;
		dim3 grid((unsigned int)(gx < CUA_MAX_BLOCKS_1D ? gx : CUA_MAX_BLOCKS_1D),
		          cua_blocks_yz(d.M, CUA_GEMM_BY), cua_blocks_yz(d.batch, 1));
		gemm_naive_kernel<In, Acc, Out><<<grid, block, 0, stream>>>(A, B, C, d, alpha);
	}
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
	if constexpr (std::is_same<Acc, double>::value) {
		cua_gemm_f64<In, In, Out>(A, B, C, d, alpha, stream);
	} else {
		dim3 block(CUA_GEMM_BX, CUA_GEMM_BY);
		int64_t gx = (d.M + CUA_GEMM_BX - 1) / CUA_GEMM_BX;
		dim3 grid((unsigned int)(gx < CUA_MAX_BLOCKS_1D ? gx : CUA_MAX_BLOCKS_1D),
		          cua_blocks_yz(d.N, CUA_GEMM_BY), cua_blocks_yz(d.batch, 1));
		gemm_naive_mx_kernel<In, Acc, Out><<<grid, block, 0, stream>>>(A, B, C, d, alpha);
	}
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
	if constexpr (std::is_same<Acc, double>::value) {
		cua_gemm_f64<In, In, Out>(A, B, C, d, alpha, stream);
	} else {
		const int wpb = CUA_GEMM_DOT_THREADS / 32;
		gemm_dot_kernel<In, Acc, Out><<<cua_blocks_1d(d.batch * d.M * d.N, wpb),
		                                CUA_GEMM_DOT_THREADS, 0, stream>>>(A, B, C, d, alpha);
	}
}

#endif /* CUA_COMMON_GEMM_CUH */
