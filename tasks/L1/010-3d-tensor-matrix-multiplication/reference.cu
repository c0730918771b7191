/* L1/010-matmul-3d-tensor-matrix reference: C = A·B over the last dimension of
 * A, A [N,M,K], B [K,L], C [N,M,L], f32 row-major: one (N·M)×K by K×L product.
 * cua_solve is the nvcc baseline (naive, one thread per output, fp32 FMA in k
 * order); cua_oracle is the same loop in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o matmul-3d-tensor-matrix.so
 *        tasks/L1/010-matmul-3d-tensor-matrix/reference.cu
 * Napkin math (timed N=16, M=2048, K=2048, L=768): 2·N·M·K·L = 103.1 GFLOP;
 * 4·(NMK+KL+NML) = 375 MB. cuBLAS strict fp32 at ~50 TFLOP/s: ~2.1 ms. This
 * kernel ~50 ms at 001's ~2 TFLOP/s; the fp64 oracle ~70 ms.
 * Tolerance: sequential fp32 sums of 2048 products of U(-1,1) values err by
 * ~3.8e-5 rms, ~2.1e-4 at most over 25 M outputs; TF32 errs by ~4.5e-3 rms,
 * so 1e-3 + 1e-4·|C| (|C| ~ 15) passes fp32 with ≥ 4.7× margin and fails TF32
 * on more than half the elements. */
#include "cuarena.h"
#include "gemm.cuh"

template <typename Acc, typename Out>
static int matmul_3d(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                     cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 2, out, n_out, 1));
	const struct cua_tensor *A = &in[0], *B = &in[1];
	struct cua_tensor *C = &out[0];
	CUA_CHECK(cua_check_tensor(A, CUA_F32, 3));
	CUA_CHECK(cua_check_tensor(B, CUA_F32, 2));
	CUA_CHECK(cua_check_tensor(C, cua_dtype_of<Out>::value, 3));
	const int64_t N = A->shape[0], M = A->shape[1], K = A->shape[2], L = B->shape[1];
	CUA_CHECK(cua_check_dim(B, 0, K));
	CUA_CHECK(cua_check_dim(C, 0, N));
	CUA_CHECK(cua_check_dim(C, 1, M));
	CUA_CHECK(cua_check_dim(C, 2, L));

	/* rows of the flattened product: (n, m) pairs, n slowest */
	struct cua_gemm_desc d = cua_gemm_desc_nn(N * M, L, K);
	cua_gemm_naive<float, Acc, Out>((const float *)A->data, (const float *)B->data,
	                                (Out *)C->data, d, Acc(1), stream);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return matmul_3d<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return matmul_3d<double, double>(in, n_in, out, n_out, stream);
}
