/* L1/031-elu reference: ELU elementwise over x, y [B,D] f32,
 *     y = x if x > 0 else exp(x) - 1.
 * cua_solve is the nvcc baseline (grid-stride, one coalesced load and store per
 * element, CUDA single-precision math functions); cua_oracle evaluates the same
 * formula in double from the same f32 inputs and writes f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-031.so tasks/L1/031-elu/reference.cu
 * Napkin math (timed B=4096, D=393216): 4.83 GFLOP, 12.9 GB moved at the floor (3 ms at 4.3 TB/s).
 * Tolerance atol 1e-06, rtol 1e-05 (task.json; the reasons are in its description and
 * tools/l1-tasks.py). */
#include "cuarena.h"
#include "elementwise.cuh"

struct elu_op {
	template <typename T> __host__ __device__ T operator()(T x) const
	{
		return x > T(0) ? x : cua_expm1(x);   /* alpha = 1; expm1 is accurate near 0 */
	}
};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return cua_unary_task<float, float>(in, n_in, out, n_out, 2, elu_op(), stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return cua_unary_task<double, double>(in, n_in, out, n_out, 2, elu_op(), stream);
}
