/* L1/091-reverse-cumsum reference: y[b,l] = Σ_{j>=l} x[b,j]
 * (torch.cumsum(x.flip(1), dim=1).flip(1)), x, y [B,L] f32.
 * cua_solve is the nvcc baseline: one block per row walking it from the end in
 * tiles of 256 elements, each scanned with warp shuffles plus a running carry
 * (scan.cuh, Reverse); cua_oracle runs the same scan in double and writes f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o reverse-cumsum.so \
 *        tasks/L1/091-reverse-cumsum/reference.cu
 * Napkin math (timed B=65536, L=8192): 8·B·L = 4.29 GB at the floor: 1.0 ms at
 * 4.26 TB/s, ~1.3 ms for a good kernel; B·L adds. Rounding as in 089-cumsum
 * (simulated on the host at the timed shape): this scan ≤ 1.2e-4, a fully serial
 * fp32 scan ≤ 1.5e-3, against atol 2e-3 + 1e-5·|y|. */
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
