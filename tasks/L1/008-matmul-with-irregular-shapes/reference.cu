/* L1/008-matmul-irregular reference: C = A·B at sizes no tile divides,
 * A [M,K], B [K,N], C [M,N], f32 row-major.
 * cua_solve is the nvcc baseline (naive, one thread per output, fp32 FMA in k
 * order); cua_oracle is the same loop in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o matmul-irregular.so
 *        tasks/L1/008-matmul-irregular/reference.cu
 * Napkin math (timed M=8205, K=2949, N=5921, KernelBench's shape): 2·M·N·K =
 * 286.5 GFLOP; 4·(MK+KN+MN) = 361 MB. cuBLAS strict fp32 at ~48–51 TFLOP/s:
 * ~5.6–6 ms. This kernel ~140 ms at 001's ~2 TFLOP/s; the fp64 oracle ~200 ms.
 * Tolerance: sequential fp32 sums of 2949 products of U(-1,1) values err by
 * ~5.5e-5 rms, ~3e-4 at most over 48.6 M outputs; TF32 errs by ~5.4e-3 rms,
 * so 1e-3 + 1e-4·|C| (|C| ~ 18) passes fp32 with ≥ 3.3× margin and fails TF32
 * on more than half the elements. */
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
