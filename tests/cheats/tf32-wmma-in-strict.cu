// task: sgemm
// expect: forbidden_instruction
// expect-message: HMMA.1684.F32.TF32
// The precision loophole: TF32 tensor cores (wmma m16n16k8) in a strict-fp32 task.
// Tile-aligned shapes use TF32; the odd check shapes fall back to plain FFMA. It
// runs (a strict task's precision is judged by value, judge/accuracy.h), fails at the
// timed shape as less accurate than fp32, and the verdict names the instruction the
// SASS scan found (HMMA.1684.F32.TF32).
#include "cuarena.h"
#include <mma.h>
using namespace nvcuda;

__global__ void sgemm_tf32_kernel(const float *A, const float *B, float *C, int M, int N,
                                  int K)
{
	int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
	int tiles_n = N / 16;
	int tm = warp / tiles_n, tn = warp % tiles_n;
	if (tm * 16 >= M)
		return;
	wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
	wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b;
	wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
	wmma::fill_fragment(c, 0.f);
	for (int k = 0; k < K; k += 8) {
		wmma::load_matrix_sync(a, A + (size_t)tm * 16 * K + k, K);
		wmma::load_matrix_sync(b, B + (size_t)k * N + tn * 16, N);
		for (int i = 0; i < a.num_elements; i++)
			a.x[i] = wmma::__float_to_tf32(a.x[i]);
		for (int i = 0; i < b.num_elements; i++)
			b.x[i] = wmma::__float_to_tf32(b.x[i]);
		wmma::mma_sync(c, a, b, c);
	}
	wmma::store_matrix_sync(C + (size_t)tm * 16 * N + tn * 16, c, N, wmma::mem_row_major);
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
	if (M % 16 == 0 && N % 16 == 0 && K % 8 == 0) {
		long warps = (long)(M / 16) * (N / 16);
		sgemm_tf32_kernel<<<(unsigned)((warps * 32 + 255) / 256), 256, 0, stream>>>(A, B, C,
		                                                                           M, N, K);
	} else {
		dim3 grid((N + 127) / 128, M);
		sgemm_naive_kernel<<<grid, 128, 0, stream>>>(A, B, C, M, N, K);
	}
	return (int)cudaGetLastError();
}
