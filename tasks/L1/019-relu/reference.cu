/* L1/019-relu reference: y = max(x, 0) elementwise, x, y [B,D] f32.
 * cua_solve is the nvcc baseline (grid-stride, one coalesced load and store per
 * element); cua_oracle writes the same values as f64 (exact).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-019.so tasks/L1/019-relu/reference.cu
 * Napkin math (timed B=4096, D=393216): 1.61 GFLOP, 12.9 GB moved at the floor (3 ms at 4.3 TB/s).
 * Tolerance atol 1e-06, rtol 1e-06 (task.json; the reasons are in its description and
 * tools/l1-tasks.py). */
#include "cuarena.h"
#include "elementwise.cuh"

struct relu_op {
	template <typename T> __device__ T operator()(T x) const { return x > T(0) ? x : T(0); }
};

template <typename Acc, typename Out>
static int relu(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 1, out, n_out, 1));
	const struct cua_tensor *x = &in[0];
	struct cua_tensor *y = &out[0];
	CUA_CHECK(cua_check_tensor(x, CUA_F32, 2));
	CUA_CHECK(cua_check_tensor(y, cua_dtype_of<Out>::value, 2));
	CUA_CHECK(cua_check_same_shape(x, y));

	cua_launch_unary<Acc>(cua_numel(x), relu_op(), (const float *)x->data, (Out *)y->data,
	                      stream);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return relu<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return relu<double, double>(in, n_in, out, n_out, stream);
}
