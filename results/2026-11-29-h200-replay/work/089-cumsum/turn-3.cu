/* L1/089-cumsum reference: y[b,l] = Σ_{j<=l} x[b,j] (torch.cumsum(x, dim=1)),
 * x, y [B,L] f32.
 * cua_solve is the nvcc baseline: one block per row, tiles of 256 elements
 * scanned with warp shuffles and a running carry (scan.cuh); cua_oracle runs the
 * same scan in double and writes f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o cumsum.so tasks/L1/089-cumsum/reference.cu
 * Napkin math (timed B=65536, L=8192): 8·B·L = 4.29 GB at the floor (read once,
 * write once): 1.0 ms at 4.26 TB/s, ~1.3 ms for a good kernel; B·L adds. This
 * kernel syncs three times per 1 KiB tile: a few ms. Rounding (x ~ N(0,1), so
 * |partial sums| ~ sqrt(l) ≤ ~450), simulated on the host at the timed shape
 * (seed 1): this scan errs by ≤ 1.3e-4 (2.6 % of the tolerance), a fully serial
 * fp32 scan by 1.5e-4 rms at the row end and ≤ 1.4e-3 (42 %): atol 2e-3 +
 * 1e-5·|y| passes both. */
#include "cuarena.h"
#include "scan.cuh"

template <typename Acc, typename Out>
static int cumsum(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                  cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 1, out, n_out, 1));
	const struct cua_tensor *x = &in[0];
	struct cua_tensor *y = &out[0];
	CUA_CHECK(cua_check_tensor(x, CUA_F32, 2));
	CUA_CHECK(cua_check_tensor(y, cua_dtype_of<Out>::value, 2));
	CUA_CHECK(cua_check_same_shape(x, y));

	cua_scan_rows<Acc, Out, cua_scan_sum, false, false>((const float *)x->data, NULL,
	                                                    (Out *)y->data, x->shape[0],
	                                                    x->shape[1], cua_scan_sum(), stream);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return cumsum<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return cumsum<double, double>(in, n_in, out, n_out, stream);
}
