/* baselines/cublas/sgemm-tf32.cu — cuBLAS baseline for X/001-sgemm-tf32: row-major
 * C[M,N] = A[M,K]·B[K,N] with TF32 tensor cores (CUBLAS_TF32_TENSOR_OP_MATH).
 * cuBLAS is column-major, so it computes C^T = B^T·A^T: a row-major X[r,c] is
 * the column-major X^T[c,r] with the same leading dimension.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o sgemm-tf32.so baselines/cublas/sgemm-tf32.cu -lcublas
 * Napkin math (timed 4096³): 137.4 GFLOP at ~367 TFLOP/s TF32 = ~0.4 ms. */
#include "cublas-common.cuh"

/* math, A stored transposed, B stored transposed */
static const struct sgemm_spec gemm = {CUBLAS_TF32_TENSOR_OP_MATH, 0, 0};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return blas_sgemm(&gemm, in, n_in, out, n_out, stream);
}
