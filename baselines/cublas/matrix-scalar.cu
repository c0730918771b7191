/* baselines/cublas/matrix-scalar.cu — cuBLAS baseline for L1/005-matrix-scalar:
 * C[M,N] = A[M,N]·s with s a one-element f32 tensor in device memory, as one
 * out-of-place cublasSgeam, C = s·A + 0·A, with alpha and beta read from device
 * memory (CUBLAS_POINTER_MODE_DEVICE), so s never crosses to the host. Each
 * element is fl(s·a) exactly as the task defines it (adding 0·a is exact).
 * The row-major [M,N] matrices are column-major N×M with leading dimension N.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o matrix-scalar.so baselines/cublas/matrix-scalar.cu -lcublas
 * Napkin math (timed M=32768, N=16384): 4.29 GB moved, ~1.0 ms at 4.26 TB/s. */
#include "cublas-common.cuh"

/* A device-resident 0.0f (beta), made on the first call (before the handle,
 * ordered on stream before the geam) and kept for the life of the process;
 * 0 or a CUDA error. */
static float *d_zero;

static int get_zero(cudaStream_t stream)
{
	if (d_zero == NULL) {
		float *z;
		cudaError_t ce = cudaMalloc((void **)&z, sizeof(float));
		if (ce != cudaSuccess)
			return (int)ce;
		ce = cudaMemsetAsync(z, 0, sizeof(float), stream);   /* ordered before the geam */
		if (ce != cudaSuccess) {
			cudaFree(z);
			return (int)ce;
		}
		d_zero = z;
	}
	return 0;
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	if (in == NULL || out == NULL || n_in != 2 || n_out != 1)
		return -1;
	const struct cua_tensor *A = &in[0], *s = &in[1];
	struct cua_tensor *C = &out[0];
	if (!blas_shape_ok(A, 2, CUA_F32) || !blas_shape_ok(s, 1, CUA_F32) ||
	    !blas_shape_ok(C, 2, CUA_F32))
		return -2;
	const int M = (int)A->shape[0], N = (int)A->shape[1];
	if (s->shape[0] != 1 || C->shape[0] != M || C->shape[1] != N)
		return -4;

	int rc = get_zero(stream);
	if (rc != 0)
		return rc;
	rc = blas_bind_device_pointers(stream, CUBLAS_DEFAULT_MATH);
	if (rc != 0)
		return rc;
	/* column-major N×M: C = s·A + 0·A (B = A is only a valid pointer) */
	const float *a = (const float *)A->data;
	return blas_result(cublasSgeam(blas_handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M,
	                               (const float *)s->data, a, N, d_zero, a, N,
	                               (float *)C->data, N));
}
