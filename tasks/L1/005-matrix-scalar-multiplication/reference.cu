/* L1/005-matrix-scalar reference: C = A·s, A and C [M,N] f32, s a one-element
 * f32 tensor in device memory.
 * cua_solve is the nvcc baseline (grid-stride, s loaded once per thread, one
 * coalesced load and store per element); cua_oracle writes the products as f64
 * (exact: a product of two floats fits a double).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o matrix-scalar.so
 *        tasks/L1/005-matrix-scalar/reference.cu
 * Napkin math (timed M=32768, N=16384): 8·M·N = 4.29 GB moved: ~1.0 ms at
 * 4.26 TB/s, ~1.3 ms for this kernel and for cuBLAS Sgeam; the oracle writes
 * f64 (6.4 GB): ~1.6 ms.
 * Tolerance: the fp32 product is within 6e-8 relative of the exact one, so
 * 1e-6 + 1e-6·|C| passes it with a 16× margin; |C| ~ 0.5 makes zeros fail. */
#include "cuarena.h"
#include "check.cuh"

#define SCALE_THREADS 256

template <typename Acc, typename Out>
__global__ void scale_kernel(int64_t n, const float *__restrict__ A, const float *__restrict__ s,
                             Out *__restrict__ C)
{
	const Acc sv = (Acc)*s;
	int64_t stride = (int64_t)gridDim.x * blockDim.x;
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
		C[i] = (Out)((Acc)A[i] * sv);
}

template <typename Acc, typename Out>
static int matrix_scalar(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 2, out, n_out, 1));
	const struct cua_tensor *A = &in[0], *s = &in[1];
	struct cua_tensor *C = &out[0];
	CUA_CHECK(cua_check_tensor(A, CUA_F32, 2));
	CUA_CHECK(cua_check_tensor(s, CUA_F32, 1));
	CUA_CHECK(cua_check_dim(s, 0, 1));
	CUA_CHECK(cua_check_tensor(C, cua_dtype_of<Out>::value, 2));
	CUA_CHECK(cua_check_same_shape(A, C));

	const int64_t n = cua_numel(A);
	scale_kernel<Acc, Out><<<cua_blocks_1d(n, SCALE_THREADS), SCALE_THREADS, 0, stream>>>(
		n, (const float *)A->data, (const float *)s->data, (Out *)C->data);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return matrix_scalar<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return matrix_scalar<double, double>(in, n_in, out, n_out, stream);
}
