/* L1/007-matmul-small-k reference: C = A·B with a short inner dimension,
 * A [M,K], B [K,N], C [M,N], f32 row-major.
 * cua_solve is the nvcc baseline (naive, one thread per output, fp32 FMA in k
 * order); cua_oracle is the same loop in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o matmul-small-k.so
 *        tasks/L1/007-matmul-small-k/reference.cu
 * Napkin math (timed M=N=32768, K=32): 2·M·N·K = 68.7 GFLOP (1.03 ms at the
 * 66.9 TFLOP/s FFMA peak) and 4·(MK+KN+MN) = 4.30 GB, nearly all of it writing C
 * (1.01 ms at 4.26 TB/s): balanced on both ceilings, so the best kernels overlap
 * them; cuBLAS ~1.5–2.5 ms. This kernel ~35 ms at 001's ~2 TFLOP/s; the fp64
 * oracle (8.6 GB of f64 output) ~50 ms.
 * Tolerance: 32-term fp32 sums err by ~6e-7 rms, ~4e-6 at most over 1.07 G
 * outputs (the worst case bound is 1.5e-5); TF32 errs by ~5.7e-4 rms, so
 * 2e-5 + 2e-5·|C| (|C| ~ 1.9) passes fp32 with ≥ 5× margin and fails TF32. */
#include "cuarena.h"
#include "gemm.cuh"

template <typename Acc, typename Out>
static int matmul(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 2, out, n_out, 1));
	const struct cua_tensor *A = &in[0], *B = &in[1];
	struct cua_tensor *C = &out[0];
	CUA_CHECK(cua_check_tensor(A, CUA_F32, 2));
	CUA_CHECK(cua_check_tensor(B, CUA_F32, 2));
	CUA_CHECK(cua_check_tensor(C, cua_dtype_of<Out>::value, 2));
	const int64_t M = A->shape[0], K = A->shape[1], N = B->shape[1];
	CUA_CHECK(cua_check_dim(B, 0, K));
	CUA_CHECK(cua_check_dim(C, 0, M));
	CUA_CHECK(cua_check_dim(C, 1, N));
	struct cua_gemm_desc d = cua_gemm_desc_nn(M, N, K);
	cua_gemm_naive<float, Acc, Out>((const float *)A->data, (const float *)B->data,
	                                (Out *)C->data, d, Acc(1), stream);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return matmul<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return matmul<double, double>(in, n_in, out, n_out, stream);
}
