/* L1/026-gelu reference: GELU elementwise over x, y [B,D] f32,
 *     y = 0.5·x·(1 + erf(x/√2)).
 * cua_solve is the nvcc baseline (grid-stride, one coalesced load and store per
 * element, CUDA single-precision math functions); cua_oracle evaluates the same
 * formula in double from the same f32 inputs and writes f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-026.so tasks/L1/026-gelu/reference.cu
 * Napkin math (timed B=4096, D=393216): 8.05 GFLOP, 12.9 GB moved at the floor (3 ms at 4.3 TB/s).
 * Tolerance atol 2e-06, rtol 1e-05 (task.json; the reasons are in its description and
 * tools/l1-tasks.py). */
#include "cuarena.h"
#include "elementwise.cuh"

struct gelu_erf_op {
	template <typename T> __host__ __device__ T operator()(T x) const
	{
		return T(0.5) * x * (T(1) + cua_erf(x * T(0.70710678118654752440)));
	}
};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return cua_unary_task<float, float>(in, n_in, out, n_out, 2, gelu_erf_op(), stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return cua_unary_task<double, double>(in, n_in, out, n_out, 2, gelu_erf_op(), stream);
}
