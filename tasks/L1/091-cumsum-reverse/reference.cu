/* L1/091-cumsum-reverse reference: y[b,l] = Σ_{j>=l} x[b,j]
 * (torch.cumsum(x.flip(1), dim=1).flip(1)), x, y [B,L] f32.
 * cua_solve is the nvcc baseline: one block per row walking it from the end in
 * tiles of 256 elements, each scanned with warp shuffles plus a running carry
 * (scan.cuh, Reverse); cua_oracle runs the same scan in double and writes f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o reverse-cumsum.so \
 *        tasks/L1/091-cumsum-reverse/reference.cu
 * Napkin math (timed B=32768, L=32768): 1.07 GFLOP, 8.59 GB moved at the floor (2 ms at 4.3 TB/s).
 * Tolerance atol 0.001, rtol 1e-05 (task.json; the reasons are in its description and
 * tools/l1-tasks.py). */
#include "cuarena.h"
#include "scan.cuh"

template <typename Acc, typename Out>
static int reverse_cumsum(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 1, out, n_out, 1));
	const struct cua_tensor *x = &in[0];
	struct cua_tensor *y = &out[0];
	CUA_CHECK(cua_check_tensor(x, CUA_F32, 2));
	CUA_CHECK(cua_check_tensor(y, cua_dtype_of<Out>::value, 2));
	CUA_CHECK(cua_check_same_shape(x, y));

	cua_scan_rows<Acc, Out, cua_scan_sum, true, false>((const float *)x->data, NULL,
	                                                   (Out *)y->data, x->shape[0],
	                                                   x->shape[1], cua_scan_sum(), stream);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return reverse_cumsum<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return reverse_cumsum<double, double>(in, n_in, out, n_out, stream);
}
