/* L1/030-selu reference: SELU elementwise over x, y [B,D] f32,
 *     y = scale·x if x > 0 else scale·alpha·(exp(x) - 1).
 * cua_solve is the nvcc baseline (grid-stride, one coalesced load and store per
 * element, CUDA single-precision math functions); cua_oracle evaluates the same
 * formula in double from the same f32 inputs and writes f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o selu.so tasks/L1/030-selu/reference.cu
 * Napkin math (timed B=4096, D=196608, 805 M elements): 8·B·D = 6.44 GB moved,
 * 4·B·D = 3.22 GFLOP by convention (memory bound by far); ~1.5 ms at
 * 4.3 TB/s, so a good kernel takes ~1.7-2 ms and this one about the same. The
 * oracle moves 9.7 GB (f64 output): ~3 ms. */
#include "cuarena.h"
#include "elementwise.cuh"

/* PyTorch's constants (torch.nn.SELU); T(...) rounds them to float for the
 * fp32 build. */
#define SELU_ALPHA 1.6732632423543772848170429916717
#define SELU_SCALE 1.0507009873554804934193349852946

struct selu_op {
	template <typename T> __host__ __device__ T operator()(T x) const
	{
		return x > T(0) ? T(SELU_SCALE) * x
		                : T(SELU_SCALE) * (T(SELU_ALPHA) * cua_expm1(x));
	}
};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return cua_unary_task<float, float>(in, n_in, out, n_out, 2, selu_op(), stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return cua_unary_task<double, double>(in, n_in, out, n_out, 2, selu_op(), stream);
}
