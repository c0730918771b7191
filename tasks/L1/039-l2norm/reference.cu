/* L1/039-l2norm reference: y[b,:] = x[b,:] / sqrt(Σ_d x[b,d]²), x, y [B,D]
 * f32 (KernelBench's L2Norm).
 * cua_solve is the nvcc baseline: norm.cuh's block-per-row kernel, 256
 * threads, two passes over the row (sum of squares, write), block reduction by
 * warp shuffles; cua_oracle runs the same passes in double and writes f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-039.so tasks/L1/039-l2norm/reference.cu
 * Napkin math (timed B=32768, D=65535): 6.44 GFLOP, 17.2 GB moved at the floor (4 ms at 4.3 TB/s).
 * Tolerance atol 1e-09, rtol 1e-05 (task.json; the reasons are in its description and
 * tools/l1-tasks.py). */
#include "cuarena.h"
#include "norm.cuh"

template <typename Acc, typename Out>
static int l2_norm(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                   cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 1, out, n_out, 1));
	const struct cua_tensor *x = &in[0];
	struct cua_tensor *y = &out[0];
	CUA_CHECK(cua_check_tensor(x, CUA_F32, 2));
	CUA_CHECK(cua_check_tensor(y, cua_dtype_of<Out>::value, 2));
	CUA_CHECK(cua_check_same_shape(x, y));

	cua_rowscale<Acc, Out>((const float *)x->data, (Out *)y->data, x->shape[0], x->shape[1],
	                       cua_term_sq(), cua_fin_sqrt(), stream);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return l2_norm<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return l2_norm<double, double>(in, n_in, out, n_out, stream);
}
