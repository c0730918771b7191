/* L1/009-matmul-tall-skinny reference: C = A·B with A [M,K] tall and skinny,
 * B [K,M], C [M,M], f32 row-major (K ≪ M).
 * cua_solve is the nvcc baseline (naive, one thread per output, fp32 FMA in k
 * order); cua_oracle is the same loop in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o matmul-tall-skinny.so
 *        tasks/L1/009-matmul-tall-skinny/reference.cu
 * Napkin math (timed M=32768, K=16): 4·(2MK+M²) = 4.30 GB, nearly all of it
 * writing C: 1.01 ms at 4.26 TB/s; 2·M²·K = 34.4 GFLOP (0.51 ms at the FFMA
 * peak): memory bound, best ~1.3 ms, cuBLAS ~1.5–2 ms. This kernel ~20 ms; the
 * fp64 oracle (8.6 GB of f64 output) ~25 ms.
 * Tolerance: 16-term fp32 sums err by ~3e-7 rms (worst case bound 3.8e-6);
 * TF32 errs by ~4e-4 rms, so 1e-5 + 1e-5·|C| (|C| ~ 1.3) passes fp32 with
 * ≥ 2.6× margin even at the worst-case bound and fails TF32. */
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
	CUA_CHECK(cua_check_dim(B, 1, M));   /* B [K,M], C [M,M] */
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
