/* L1/017-matmul-a-bt reference: C = A·Bᵀ, A [M,K], B stored [N,K], C [M,N], f32
 * row-major: C[m,n] = Σ_k A[m,k]·B[n,k].
 * cua_solve is the nvcc baseline: both operands are contiguous in k, so one
 * warp computes one output (the dot product of row m of A and row n of B):
 * lane l sums the products of k ≡ l (mod 32) in k order, then a shuffle tree
 * adds the 32 partial sums. One thread per output would make every load of B
 * a 32-row gather. cua_oracle is the same in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o matmul-a-bt.so
 *        tasks/L1/017-matmul-a-bt/reference.cu
 * Napkin math (timed M=2048, K=8192, N=4096): 2·M·N·K = 137.4 GFLOP;
 * 4·(MK+KN+MN) = 235 MB. cuBLAS strict fp32 at ~51 TFLOP/s: ~2.7 ms. This
 * kernel re-reads B (134 MB, more than L2) about M/2 times from HBM, ~137 GB:
 * ~40–80 ms; the fp64 oracle about the same.
 * Tolerance: set for a plain sequential fp32 sum, the least accurate order a
 * candidate is likely to use (this kernel's 32 interleaved partial sums err
 * several times less): 8192 products of U(-1,1) values err by ~1.5e-4 rms, ~8e-4
 * at most over 8.4 M outputs (scaled from 001's measured 4.1e-4 at K = 4096);
 * TF32 errs by ~9e-3 rms, so 3e-3 + 1e-4·|C| (|C| ~ 30) passes fp32 with
 * ≥ 3.7× margin and fails TF32 on about half the elements. */
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
	const int64_t M = A->shape[0], K = A->shape[1], N = B->shape[0];   /* A [M,K], B [N,K] */
	CUA_CHECK(cua_check_dim(B, 1, K));
	CUA_CHECK(cua_check_dim(C, 0, M));
	CUA_CHECK(cua_check_dim(C, 1, N));

	struct cua_gemm_desc d = cua_gemm_desc_packed(M, N, K, false, true);
	cua_gemm_naive_dot<float, Acc, Out>((const float *)A->data, (const float *)B->data,
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
