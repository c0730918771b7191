// task: sgemm
// expect: ok
// Split precision on the bf16 tensor cores: each fp32 operand is split into a bf16 "high"
// part and a bf16 residual (x ≈ hi + lo, about 16 bits of mantissa together), and
// C = A·B is computed as Ahi·Bhi + Ahi·Blo + Alo·Bhi with fp32 accumulation. Until
// 2026-12-01 its HMMA.*.BF16 was refused before it ran; precision is judged by value
// now (judge/accuracy.h), and this is accurate enough to pass: its error carries no
// pattern of rounded inputs and is a few hundredths of what TF32 rounding costs
// (tests/test-accuracy.c measures the same arithmetic on the CPU). Odd shapes take a
// plain FFMA path.
#include "cuarena.h"
#include <cuda_bf16.h>
#include <mma.h>
using namespace nvcuda;

#define TILE 16

/* One warp per 16x16 tile of C; A and B tiles staged in shared memory as hi/lo bf16. */
__global__ void sgemm_split_bf16_kernel(const float *A, const float *B, float *C, int M,
                                        int N, int K)
{
	__shared__ __nv_bfloat16 a_hi[TILE * TILE], a_lo[TILE * TILE];
	__shared__ __nv_bfloat16 b_hi[TILE * TILE], b_lo[TILE * TILE];
	int tm = blockIdx.y, tn = blockIdx.x, lane = threadIdx.x;
	wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> ah, al;
	wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> bh, bl;
	wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
	wmma::fill_fragment(acc, 0.f);
	for (int k0 = 0; k0 < K; k0 += TILE) {
		for (int i = lane; i < TILE * TILE; i += 32) {
			int r = i / TILE, c = i % TILE;
			float a = A[(size_t)(tm * TILE + r) * K + k0 + c];
			float b = B[(size_t)(k0 + r) * N + tn * TILE + c];
			__nv_bfloat16 ha = __float2bfloat16(a), hb = __float2bfloat16(b);
			a_hi[i] = ha;
			a_lo[i] = __float2bfloat16(a - __bfloat162float(ha));
			b_hi[i] = hb;
			b_lo[i] = __float2bfloat16(b - __bfloat162float(hb));
		}
		__syncwarp();
		wmma::load_matrix_sync(ah, a_hi, TILE);
		wmma::load_matrix_sync(al, a_lo, TILE);
		wmma::load_matrix_sync(bh, b_hi, TILE);
		wmma::load_matrix_sync(bl, b_lo, TILE);
		wmma::mma_sync(acc, al, bh, acc);   /* small terms first */
		wmma::mma_sync(acc, ah, bl, acc);
		wmma::mma_sync(acc, ah, bh, acc);
		__syncwarp();
	}
	wmma::store_matrix_sync(C + (size_t)tm * TILE * N + tn * TILE, acc, N,
	                        wmma::mem_row_major);
}

__global__ void sgemm_naive_kernel(const float *A, const float *B, float *C, int M, int N,
                                   int K)
{
	int n = blockIdx.x * blockDim.x + threadIdx.x, m = blockIdx.y;
	if (n >= N || m >= M)
		return;
	float acc = 0.f;
	for (int k = 0; k < K; k++)
		acc = fmaf(A[(size_t)m * K + k], B[(size_t)k * N + n], acc);
	C[(size_t)m * N + n] = acc;
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	int M = (int)in[0].shape[0], K = (int)in[0].shape[1], N = (int)in[1].shape[1];
	const float *A = (const float *)in[0].data, *B = (const float *)in[1].data;
	float *C = (float *)out[0].data;
	if (M % TILE == 0 && N % TILE == 0 && K % TILE == 0) {
		dim3 grid(N / TILE, M / TILE);
		sgemm_split_bf16_kernel<<<grid, 32, 0, stream>>>(A, B, C, M, N, K);
	} else {
		dim3 grid((N + 127) / 128, M);
		sgemm_naive_kernel<<<grid, 128, 0, stream>>>(A, B, C, M, N, K);
	}
	return cudaGetLastError() != cudaSuccess;
}
