// task: square-matrix-multiplication
// expect: ok
// expect-speedup: nvcc 2.0
// A shared-memory tiled SGEMM (128x128 block tile, 8x8 outputs per thread, BK=8):
// plain FFMA, strict fp32, bounds-checked so every shape set works.
// Napkin math: each k-step loads 2*128*8 floats to shared memory for 128*128*8*2
// flops, 64 FMAs per thread per k: far from the naive kernel's one load per FMA.
#include "cuarena.h"

#define BM 128
#define BN 128
#define BK 8
#define TM 8
#define TN 8

__global__ __launch_bounds__(256) void sgemm_tiled_kernel(const float *A, const float *B,
                                                          float *C, int M, int N, int K)
{
	__shared__ float As[BK][BM + 4];
	__shared__ float Bs[BK][BN + 4];
	int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
	int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
	float acc[TM][TN];
#pragma unroll
	for (int i = 0; i < TM; i++)
#pragma unroll
		for (int j = 0; j < TN; j++)
			acc[i][j] = 0.f;

	for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
		for (int l = 0; l < 4; l++) {
			int idx = tid + l * 256;
			int m = idx / BK, k = idx % BK;
			int gm = row0 + m, gk = k0 + k;
			As[k][m] = (gm < M && gk < K) ? A[(int64_t)gm * K + gk] : 0.f;
		}
#pragma unroll
		for (int l = 0; l < 4; l++) {
			int idx = tid + l * 256;
			int k = idx / BN, n = idx % BN;
			int gk = k0 + k, gn = col0 + n;
			Bs[k][n] = (gk < K && gn < N) ? B[(int64_t)gk * N + gn] : 0.f;
		}
		__syncthreads();
#pragma unroll
		for (int k = 0; k < BK; k++) {
			float a[TM], b[TN];
#pragma unroll
			for (int i = 0; i < TM; i++)
				a[i] = As[k][ty + 16 * i];
#pragma unroll
			for (int j = 0; j < TN; j++)
				b[j] = Bs[k][tx + 16 * j];
#pragma unroll
			for (int i = 0; i < TM; i++)
#pragma unroll
				for (int j = 0; j < TN; j++)
					acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
		}
		__syncthreads();
	}
#pragma unroll
	for (int i = 0; i < TM; i++)
#pragma unroll
		for (int j = 0; j < TN; j++) {
			int gm = row0 + ty + 16 * i, gn = col0 + tx + 16 * j;
			if (gm < M && gn < N)
				C[(int64_t)gm * N + gn] = acc[i][j];
		}
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	if (n_in != 2 || n_out != 1 || in[0].ndim != 2 || in[1].ndim != 2)
		return 1;
	int M = (int)in[0].shape[0], K = (int)in[0].shape[1], N = (int)in[1].shape[1];
	dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
	sgemm_tiled_kernel<<<grid, 256, 0, stream>>>((const float *)in[0].data,
	                                             (const float *)in[1].data,
	                                             (float *)out[0].data, M, N, K);
	return (int)cudaGetLastError();
}
