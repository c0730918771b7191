/* attention.cuh — naive scaled dot-product attention, materialising the scores.
 * Header-only. For each of `batch` independent heads (contiguous [S,D] slices),
 *
 *     scores = scale · Q·Kᵀ          [S,S]   (att_gemm_kernel, TransB)
 *     P      = softmax over each row  [S,S]   (att_softmax_kernel, in place)
 *     O      = P·V                    [S,D]   (att_gemm_kernel)
 *
 * The scores live in a caller-owned scratch array of Acc (float for the fp32
 * reference, double for the fp64 oracle, whose inputs are still float); the
 * caller walks the heads in chunks so the scratch stays bounded.
 *
 * att_gemm_kernel is a plain 32×32 shared-memory tiled batched GEMM, one output
 * per thread, products accumulated in Acc in k order: C[z] = alpha · A[z]·op(B[z])
 * with A [M,K], B [K,N] (or [N,K] when TransB, i.e. op(B) = Bᵀ), C [M,N], all
 * row-major and contiguous per batch entry. Two shared loads (one a broadcast)
 * per FMA: several TFLOP/s on an H200, against 66.9 for the FFMA peak.
 *
 * Napkin math per head: 4·S²·D flops in the two GEMMs; the scores take S² Acc,
 * written once, read three times and rewritten by the softmax, read by P·V. */
#ifndef CUA_COMMON_ATTENTION_CUH
#define CUA_COMMON_ATTENTION_CUH

#include <math.h>
#include "rowreduce.cuh"   /* cua_block_sum, cua_block_max, CUA_ROW_THREADS */

#define CUA_ATT_TILE 32

static __device__ __forceinline__ float att_exp(float v) { return expf(v); }
static __device__ __forceinline__ double att_exp(double v) { return exp(v); }

/* Block: CUA_ATT_TILE × CUA_ATT_TILE threads. Grid: x over N tiles, y over M
 * tiles, z over the batch; each loops past its grid extent. */
template <typename TA, typename TB, typename Acc, typename TC, bool TransB>
__global__ void att_gemm_kernel(const TA *__restrict__ A, const TB *__restrict__ Bm,
                                TC *__restrict__ C, int64_t batch, int64_t M, int64_t N,
                                int64_t K, Acc alpha)
{
	__shared__ TA As[CUA_ATT_TILE][CUA_ATT_TILE + 1];   /* As[m][k] */
	__shared__ TB Bs[CUA_ATT_TILE][CUA_ATT_TILE + 1];   /* Bs[k][n] */
	const int tx = threadIdx.x, ty = threadIdx.y;
	const int64_t mtiles = (M + CUA_ATT_TILE - 1) / CUA_ATT_TILE;
	const int64_t ntiles = (N + CUA_ATT_TILE - 1) / CUA_ATT_TILE;
	for (int64_t z = blockIdx.z; z < batch; z += gridDim.z) {
		const TA *Az = A + z * M * K;
		const TB *Bz = Bm + z * K * N;
		TC *Cz = C + z * M * N;
		for (int64_t bm = blockIdx.y; bm < mtiles; bm += gridDim.y) {
			for (int64_t bn = blockIdx.x; bn < ntiles; bn += gridDim.x) {
				const int64_t m0 = bm * CUA_ATT_TILE, n0 = bn * CUA_ATT_TILE;
				Acc acc = 0;
				for (int64_t k0 = 0; k0 < K; k0 += CUA_ATT_TILE) {
					/* thread (ty, tx) loads A[m0+ty][k0+tx] and one element of B,
					 * tx running along the contiguous index: coalesced */
					const int64_t am = m0 + ty, ak = k0 + tx;
					As[ty][tx] = am < M && ak < K ? Az[am * K + ak] : TA(0);
					if (TransB) {        /* B is [N,K]: B[n0+ty][k0+tx] → Bs[tx][ty] */
						const int64_t bn_ = n0 + ty, bk = k0 + tx;
						Bs[tx][ty] = bn_ < N && bk < K ? Bz[bn_ * K + bk] : TB(0);
					} else {             /* B is [K,N]: B[k0+ty][n0+tx] → Bs[ty][tx] */
						const int64_t bk = k0 + ty, bn_ = n0 + tx;
						Bs[ty][tx] = bk < K && bn_ < N ? Bz[bk * N + bn_] : TB(0);
					}
					__syncthreads();
					const int kmax = K - k0 < CUA_ATT_TILE ? (int)(K - k0) : CUA_ATT_TILE;
					for (int kk = 0; kk < kmax; kk++)
						acc += (Acc)As[ty][kk] * (Acc)Bs[kk][tx];
					__syncthreads();
				}
				const int64_t m = m0 + ty, n = n0 + tx;
				if (m < M && n < N)
					Cz[m * N + n] = (TC)(alpha * acc);
			}
		}
	}
}

/* Enqueue C = alpha · A·op(B) for `batch` entries; the caller checks
 * cudaGetLastError(). Extents >= 1. */
template <typename TA, typename TB, typename Acc, typename TC, bool TransB>
static inline void cua_att_gemm(const TA *A, const TB *B, TC *C, int64_t batch, int64_t M,
                                int64_t N, int64_t K, Acc alpha, cudaStream_t stream)
{
	dim3 block(CUA_ATT_TILE, CUA_ATT_TILE);
	dim3 grid(cua_blocks_yz(N, CUA_ATT_TILE), cua_blocks_yz(M, CUA_ATT_TILE),
	          cua_blocks_yz(batch, 1));
	att_gemm_kernel<TA, TB, Acc, TC, TransB><<<grid, block, 0, stream>>>(A, B, C, batch, M, N,
	                                                                    K, alpha);
}

/* In-place stable softmax of each of `rows` rows of n: one block per row at a
 * time, three passes (max, Σ exp(x − max), write exp(x − max) / Σ). A thread
 * rewrites only elements it read itself, after the block sum's barrier. */
template <typename Acc>
__global__ void att_softmax_kernel(Acc *__restrict__ s, int64_t rows, int64_t n)
{
	for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
		Acc *sr = s + r * n;
		Acc m = (Acc)-INFINITY;
		for (int64_t j = threadIdx.x; j < n; j += blockDim.x)
			m = sr[j] > m ? sr[j] : m;
		m = cua_block_max(m);
		Acc sum = 0;
		for (int64_t j = threadIdx.x; j < n; j += blockDim.x)
			sum += att_exp(sr[j] - m);
		sum = cua_block_sum(sum);
		for (int64_t j = threadIdx.x; j < n; j += blockDim.x)
			sr[j] = att_exp(sr[j] - m) / sum;
	}
}

/* O = softmax(scale · Q·Kᵀ)·V for `heads` heads of [S,D] each (Q, K, V, O
 * contiguous [heads,S,D]), using scores[chunk·S·S] as scratch, `chunk` heads
 * per round. Enqueues on stream; the caller checks cudaGetLastError(). */
template <typename Acc, typename Out>
static inline void cua_sdpa_naive(const float *Q, const float *K, const float *V, Out *O,
                                  int64_t heads, int64_t S, int64_t D, Acc scale, Acc *scores,
                                  int64_t chunk, cudaStream_t stream)
{
	for (int64_t h0 = 0; h0 < heads; h0 += chunk) {
		const int64_t cnt = heads - h0 < chunk ? heads - h0 : chunk;
		const int64_t off = h0 * S * D;
		cua_att_gemm<float, float, Acc, Acc, true>(Q + off, K + off, scores, cnt, S, S, D,
		                                           scale, stream);
		att_softmax_kernel<Acc><<<cua_blocks_1d(cnt * S, 1), CUA_ROW_THREADS, 0, stream>>>(
			scores, cnt * S, S);
		cua_att_gemm<Acc, float, Acc, Out, false>(scores, V + off, O + off, cnt, S, D, S,
		                                          Acc(1), stream);
	}
}

#endif /* CUA_COMMON_ATTENTION_CUH */
