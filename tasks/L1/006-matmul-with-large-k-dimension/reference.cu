/* L1/006-matmul-large-k reference: C = A·B with a long inner dimension,
 * A [M,K], B [K,N], C [M,N], f32 row-major.
 * cua_solve is the nvcc baseline (naive, one thread per output, fp32 FMA in k
 * order); cua_oracle is the same loop in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o matmul-large-k.so
 *        tasks/L1/006-matmul-large-k/reference.cu
 * Napkin math (timed M=N=512, K=131072): 2·M·N·K = 68.7 GFLOP; 4·(MK+KN+MN) =
 * 538 MB. Only 16 output tiles of 128×128: cuBLAS must split K, ~2–3 ms at
 * 25–35 TFLOP/s (1.35 ms at 51). This kernel: 262144 threads fill the GPU once
 * (64 warps/SM), ~35–50 ms at 001's ~2 TFLOP/s; the fp64 oracle ~50–70 ms.
 * Tolerance: a sequential fp32 sum of 131072 products of U(-1,1) values errs by
 * ~2.5e-3 rms (1.87e-8·K, scaled from 001's measured max 4.1e-4 at K = 4096),
 * ~1.2e-2 at most over 262144 outputs; TF32 errs by ~3.6e-2 rms (1e-4·sqrt(K)).
 * |C| ~ 121, so 4e-2 + 1e-4·|C| passes fp32 with ≥ 3.3× margin and fails TF32
 * on ~15 % of the elements. */
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
