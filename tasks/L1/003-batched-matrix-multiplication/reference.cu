/* L1/003-batched-matrix-multiplication reference: C[b] = A[b]·B[b], A [BATCH,M,K],
 * B [BATCH,K,N], C [BATCH,M,N], f32 row-major.
 * cua_solve is the nvcc baseline (naive, one thread per output, grid z over the
 * batch, fp32 FMA in k order); cua_oracle is the same loop in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-003.so tasks/L1/003-batched-matrix-multiplication/reference.cu
 * Napkin math (timed BATCH=128, M=512, K=1024, N=2048): 275 GFLOP, 1.88 GB moved at the floor (0.44 ms at 4.3 TB/s; 4.1 ms at the 67 TFLOP/s FFMA peak).
 * Tolerance atol 0.0005, rtol 0.0001 (task.json; the reasons are in its description and
 * tools/l1-tasks.py). */
#include "cuarena.h"
#include "gemm.cuh"

template <typename Acc, typename Out>
static int bmm(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
               cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 2, out, n_out, 1));
	const struct cua_tensor *A = &in[0], *B = &in[1];
	struct cua_tensor *C = &out[0];
	CUA_CHECK(cua_check_tensor(A, CUA_F32, 3));
	CUA_CHECK(cua_check_tensor(B, CUA_F32, 3));
	CUA_CHECK(cua_check_tensor(C, cua_dtype_of<Out>::value, 3));
	const int64_t batch = A->shape[0], M = A->shape[1], K = A->shape[2], N = B->shape[2];
	CUA_CHECK(cua_check_dim(B, 0, batch));
	CUA_CHECK(cua_check_dim(B, 1, K));
	CUA_CHECK(cua_check_dim(C, 0, batch));
	CUA_CHECK(cua_check_dim(C, 1, M));
	CUA_CHECK(cua_check_dim(C, 2, N));

	struct cua_gemm_desc d = cua_gemm_desc_nn(M, N, K);
	d.batch = batch;      /* strides M·K, K·N, M·N: the packed batches */
	cua_gemm_naive<float, Acc, Out>((const float *)A->data, (const float *)B->data,
	                                (Out *)C->data, d, Acc(1), stream);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return bmm<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return bmm<double, double>(in, n_in, out, n_out, stream);
}
