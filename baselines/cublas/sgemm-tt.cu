/* baselines/cublas/sgemm-tt.cu — cuBLAS baseline for L1/018-matmul-with-transposed-both: row-major
 * C[M,N] = A^T·B^T, A stored [K,M], B stored [N,K], in strict fp32
 * (CUBLAS_DEFAULT_MATH: no TF32).
 * cuBLAS is column-major: a row-major X[r,c] is the column-major X^T[c,r] with the
 * same leading dimension, so cuBLAS computes C^T [N,M] = B·A.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o sgemm-tt.so baselines/cublas/sgemm-tt.cu -lcublas
 * Napkin math (timed M=2048, K=8192, N=4096): 137.4 GFLOP at ~51 TFLOP/s = ~2.7 ms. */
#include "cublas-common.cuh"

/* math, A stored transposed, B stored transposed */
static const struct sgemm_spec gemm = {CUBLAS_DEFAULT_MATH, 1, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return blas_sgemm(&gemm, in, n_in, out, n_out, stream);
}
