/* L1/042-l2-norm reference: y[b,:] = x[b,:] / sqrt(Σ_d x[b,d]²), x, y [B,D]
 * f32 (KernelBench's L2Norm).
 * cua_solve is the nvcc baseline: norm.cuh's block-per-row kernel, 256
 * threads, two passes over the row (sum of squares, write), block reduction by
 * warp shuffles; cua_oracle runs the same passes in double and writes f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l2-norm.so tasks/L1/042-l2-norm/reference.cu
 * Napkin math (timed B=32768, D=16384, rows of 64 KiB): 8·B·D = 4.29 GB at the
 * floor, ~1.0 ms at 4.26 TB/s; the second read of a row mostly hits L2.
 * 3 flops per element.
 * Tolerance (atol 1e-9, rtol 1e-5; |y| ~ 6e-3): a thread sums 64 squares (one
 * chunk), then 8 tree levels: a chain of ≤ 73 fp32 adds of same-sign terms
 * (plus the rounding of each square), ≤ 74·6e-8 = 4.4e-6 relative on the sum,
 * 2.2e-6 on the norm, ≤ 2.4e-6 on y: 4× inside rtol. */
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
