/* L1/011-4d-tensor-matrix-multiplication reference: C = einsum('bijl,lk->bijk', A, B),
 * A [BATCH,I,J,L], B [L,K], C [BATCH,I,J,K], f32 row-major: one
 * (BATCH·I·J)×L by L×K product.
 * cua_solve is the nvcc baseline (naive, one thread per output, fp32 FMA in l
 * order); cua_oracle is the same loop in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-011.so tasks/L1/011-4d-tensor-matrix-multiplication/reference.cu
 * Napkin math (timed BATCH=8, I=256, J=512, L=256, K=768): 412 GFLOP, 4.3 GB moved at the floor (1 ms at 4.3 TB/s; 6.2 ms at the 67 TFLOP/s FFMA peak).
 * Tolerance atol 0.00015, rtol 0.0001 (task.json; the reasons are in its description and
 * tools/l1-tasks.py). */
#include "cuarena.h"
#include "gemm.cuh"

template <typename Acc, typename Out>
static int matmul_4d(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                     cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 2, out, n_out, 1));
	const struct cua_tensor *A = &in[0], *B = &in[1];
	struct cua_tensor *C = &out[0];
	CUA_CHECK(cua_check_tensor(A, CUA_F32, 4));
	CUA_CHECK(cua_check_tensor(B, CUA_F32, 2));
	CUA_CHECK(cua_check_tensor(C, cua_dtype_of<Out>::value, 4));
	const int64_t L = A->shape[3], K = B->shape[1];
	CUA_CHECK(cua_check_dim(B, 0, L));
	for (int i = 0; i < 3; i++)
		CUA_CHECK(cua_check_dim(C, i, A->shape[i]));
	CUA_CHECK(cua_check_dim(C, 3, K));

	/* rows of the flattened product: (b, i, j) triples, b slowest */
	const int64_t rows = A->shape[0] * A->shape[1] * A->shape[2];
	struct cua_gemm_desc d = cua_gemm_desc_nn(rows, K, L);
	cua_gemm_naive<float, Acc, Out>((const float *)A->data, (const float *)B->data,
	                                (Out *)C->data, d, Acc(1), stream);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return matmul_4d<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return matmul_4d<double, double>(in, n_in, out, n_out, stream);
}
