/* L1/018-matmul-at-bt reference: C = Aᵀ·Bᵀ, A stored [K,M], B stored [N,K],
 * C [M,N], f32 row-major: C[m,n] = Σ_k A[k,m]·B[n,k].
 * cua_solve is the nvcc baseline: naive, one thread per output, a warp on 32
 * adjacent m of one column n (so A[k,·] is a coalesced load and B[n,k] a
 * broadcast; each output is one strided store), fp32 FMA in k order;
 * cua_oracle is the same loop in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o matmul-at-bt.so
 *        tasks/L1/018-matmul-at-bt/reference.cu
 * Napkin math (timed M=2048, K=8192, N=4096): 2·M·N·K = 137.4 GFLOP;
 * 4·(MK+KN+MN) = 235 MB. cuBLAS strict fp32 at ~51 TFLOP/s: ~2.7 ms. This
 * kernel ~65 ms (001's loads with the roles of A and B swapped), the fp64
 * oracle ~95 ms.
 * Tolerance: sequential fp32 sums of 8192 products of U(-1,1) values err by
 * ~1.5e-4 rms, ~8e-4 at most over 8.4 M outputs (scaled from 001's measured
 * 4.1e-4 at K = 4096); TF32 errs by ~9e-3 rms, so 3e-3 + 1e-4·|C| (|C| ~ 30)
 * passes fp32 with ≥ 3.7× margin and fails TF32 on about half the elements. */
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
	const int64_t K = A->shape[0], M = A->shape[1], N = B->shape[0];   /* A [K,M], B [N,K] */
	CUA_CHECK(cua_check_dim(B, 1, K));
	CUA_CHECK(cua_check_dim(C, 0, M));
	CUA_CHECK(cua_check_dim(C, 1, N));

	struct cua_gemm_desc d = cua_gemm_desc_packed(M, N, K, true, true);
	cua_gemm_naive_mx<float, Acc, Out>((const float *)A->data, (const float *)B->data,
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
