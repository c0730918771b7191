/* L1/005-matrix-scalar-multiplication reference: C = A·s, A and C [M,N] f32, s = 3.14
 * (KernelBench passes the Python float 3.14; task.json params.s).
 * cua_solve is the nvcc baseline: grid-stride, one fp32 multiplication by 3.14f per
 * element; cua_oracle multiplies in double by 3.14, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-005.so tasks/L1/005-matrix-scalar-multiplication/reference.cu
 * Napkin math (timed M=65536, N=16384): 8·M·N = 8.59 GB moved, M·N flops; ~2.0 ms at
 * 4.3 TB/s. fp32 errs by at most half an ulp of the product plus 3.14f's own 3.4e-8
 * relative: inside rtol 1e-6. */
#include "cuarena.h"
#include "check.cuh"

#define SCALE_THREADS 256
#define MATRIX_SCALAR_S 3.14   /* task.json params.s */

template <typename Acc, typename Out>
__global__ void scale_kernel(int64_t n, const float *__restrict__ A, Out *__restrict__ C)
{
	const Acc sv = (Acc)MATRIX_SCALAR_S;
	int64_t stride = (int64_t)gridDim.x * blockDim.x;
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
		C[i] = (Out)((Acc)A[i] * sv);
}

template <typename Acc, typename Out>
static int matrix_scalar(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 1, out, n_out, 1));
	const struct cua_tensor *A = &in[0];
	struct cua_tensor *C = &out[0];
	CUA_CHECK(cua_check_tensor(A, CUA_F32, 2));
	CUA_CHECK(cua_check_tensor(C, cua_dtype_of<Out>::value, 2));
	CUA_CHECK(cua_check_same_shape(A, C));

	const int64_t n = cua_numel(A);
	scale_kernel<Acc, Out><<<cua_blocks_1d(n, SCALE_THREADS), SCALE_THREADS, 0, stream>>>(
		n, (const float *)A->data, (Out *)C->data);
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
