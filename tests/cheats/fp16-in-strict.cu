// task: sgemm
// expect: forbidden_instruction
// expect-message: HMUL2
// Reduced precision in a strict-fp32 task: the products use half-precision inputs
// (fp32 accumulation), the fp16 loophole. Its error carries the pattern of inputs
// rounded to fp16's 10-bit mantissa, so it fails by value (judge/accuracy.h), and the
// verdict names the HMUL2 the SASS scan found.
#include "cuarena.h"
#include <cuda_fp16.h>

__global__ void sgemm_half_kernel(const float *A, const float *B, float *C, int M, int N, int K)
{
	int n = blockIdx.x * blockDim.x + threadIdx.x, m = blockIdx.y;
	if (n >= N || m >= M)
		return;
	float acc = 0.f;
	for (int k = 0; k < K; k++)
		acc += __half2float(__hmul(__float2half(A[(size_t)m * K + k]),
		                           __float2half(B[(size_t)k * N + n])));
	C[(size_t)m * N + n] = acc;
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	int M = (int)in[0].shape[0], K = (int)in[0].shape[1], N = (int)in[1].shape[1];
	dim3 grid((N + 127) / 128, M);
	sgemm_half_kernel<<<grid, 128, 0, stream>>>((const float *)in[0].data,
	                                            (const float *)in[1].data,
	                                            (float *)out[0].data, M, N, K);
	return (int)cudaGetLastError();
}
