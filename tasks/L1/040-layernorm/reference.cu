/* L1/040-layernorm reference: layer normalisation over the last three dimensions of x
 * [N,C,H,W] f32 (nn.LayerNorm((C, H, W)) with its initial weight 1 and bias 0), eps 1e-5:
 * each sample's C·H·W elements (one contiguous slice) are normalised by their own mean and
 * biased variance.
 * cua_solve is the nvcc baseline: that is GroupNorm with one group, so norm.cuh's
 * block-per-group kernel with G = 1 and no affine — one block per sample, three passes
 * (mean, centred variance, write) with chunked sums; cua_oracle runs it in double, writing
 * f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-040.so tasks/L1/040-layernorm/reference.cu
 * Napkin math (timed N=16, C=64, H=W=256: 67.1 M elements): 8 bytes per element at the
 * floor, 537 MB, ~0.13 ms at 4.3 TB/s; this kernel reads each sample three times with only
 * N = 16 blocks in flight (~1 ms).
 * Tolerance atol = rtol = 1e-4: a mean of 4.2 M values in U[0, 1) errs by ~1e-7 with the
 * chunked sums, y = (x − mean)/std ≤ 1.8 by a few 1e-7. */
#include "cuarena.h"
#include "norm.cuh"

#define LAYERNORM_EPS 1e-5   /* task.json params.eps */

template <typename Acc, typename Out>
static int layernorm(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                     cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 1, out, n_out, 1));
	const struct cua_tensor *x = &in[0];
	struct cua_tensor *y = &out[0];
	CUA_CHECK(cua_check_tensor(x, CUA_F32, 4));
	CUA_CHECK(cua_check_tensor(y, cua_dtype_of<Out>::value, 4));
	CUA_CHECK(cua_check_same_shape(x, y));

	struct cua_groupnorm_desc d;
	d.N = x->shape[0];
	d.C = x->shape[1];
	d.HW = x->shape[2] * x->shape[3];
	d.G = 1;                     /* one group: the statistics of the whole sample */
	CUA_CHECK(cua_groupnorm_validate(d));
	cua_groupnorm<Acc, Out>((const float *)x->data, NULL, NULL, (Out *)y->data, d,
	                        (Acc)LAYERNORM_EPS, stream);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return layernorm<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return layernorm<double, double>(in, n_in, out, n_out, stream);
}
