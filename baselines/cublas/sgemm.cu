/* baselines/cublas/sgemm.cu — cuBLAS baseline for L1/001-square-matrix-multiplication: row-major
 * C[M,N] = A[M,K]·B[K,N] in strict fp32 (CUBLAS_DEFAULT_MATH: no TF32).
 * cuBLAS is column-major, so it computes C^T = B^T·A^T: a row-major X[r,c] is
 * the column-major X^T[c,r] with the same leading dimension.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o sgemm.so baselines/cublas/sgemm.cu -lcublas
 * Napkin math (timed 4096³): 137.4 GFLOP at ~51 TFLOP/s strict fp32 = ~2.7 ms. */
#include "cublas-common.cuh"

/* math, A stored transposed, B stored transposed */
static const struct sgemm_spec gemm = {CUBLAS_DEFAULT_MATH, 0, 0};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return blas_sgemm(&gemm, in, n_in, out, n_out, stream);
}
