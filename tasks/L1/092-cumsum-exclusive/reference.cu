/* L1/092-exclusive-cumsum reference: y[b,0] = 0, y[b,l] = Σ_{j<l} x[b,j], x, y [B,L]
 * f32 (the sum of the elements before position l; KernelBench's own reference
 * for this problem sliced the wrong dimension, KernelBench issue #72).
 * cua_solve is the nvcc baseline: one block per row, tiles of 256 elements
 * scanned with warp shuffles (the exclusive value is the lane below's inclusive
 * one, not inclusive − x) plus a running carry (scan.cuh, Exclusive);
 * cua_oracle runs the same scan in double and writes f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o exclusive-cumsum.so \
 *        tasks/L1/092-exclusive-cumsum/reference.cu
 * Napkin math (timed B=65536, L=8192): 8·B·L = 4.29 GB at the floor: 1.0 ms at
 * 4.26 TB/s, ~1.3 ms for a good kernel; B·L adds. Rounding as in 089-cumsum
 * (this scan ≤ ~1.3e-4, a fully serial fp32 scan ≤ ~1.5e-3, against
 * atol 2e-3 + 1e-5·|y|); inclusive − x adds one more rounding of |y| ≤ ~450,
 * i.e. ≤ 3e-5, and passes too. */
#include "cuarena.h"
#include "scan.cuh"

template <typename Acc, typename Out>
static int exclusive_cumsum(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                            int n_out, cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 1, out, n_out, 1));
	const struct cua_tensor *x = &in[0];
	struct cua_tensor *y = &out[0];
	CUA_CHECK(cua_check_tensor(x, CUA_F32, 2));
	CUA_CHECK(cua_check_tensor(y, cua_dtype_of<Out>::value, 2));
	CUA_CHECK(cua_check_same_shape(x, y));

	cua_scan_rows<Acc, Out, cua_scan_sum, false, true>((const float *)x->data, NULL,
	                                                   (Out *)y->data, x->shape[0],
	                                                   x->shape[1], cua_scan_sum(), stream);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return exclusive_cumsum<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return exclusive_cumsum<double, double>(in, n_in, out, n_out, stream);
}
