/* L1/038-groupnorm reference: GroupNorm with G = 8 groups and per-channel
 * affine, NCHW f32: each group of Cg = C/8 consecutive channels of a sample (a
 * contiguous slice of Cg·H·W elements) becomes (x − mean) / sqrt(var + eps) ·
 * weight[c] + bias[c], biased variance, eps = 1e-5; x, y [N,C,H,W], weight,
 * bias [C].
 * cua_solve is the nvcc baseline: norm.cuh's GroupNorm kernel, one block of
 * 512 threads per (n, g), three passes (mean, centred variance, write), block
 * reductions by warp shuffles; cua_oracle runs the same passes in double and
 * writes f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o groupnorm.so tasks/L1/038-groupnorm/reference.cu
 * Napkin math (timed N=128, C=64, H=W=256: 1024 groups of 2 MiB): 8·N·C·H·W +
 * 8·C = 4.29 GB at the floor, ~1.0 ms at 4.26 TB/s; this kernel reads each
 * group three times from HBM (2 MiB × ~528 resident blocks ≫ L2), ~8.6 GB,
 * a few ms. 8 flops per element.
 * Tolerance (atol = rtol = 1e-4): per group 524288 terms, 1024 per thread in
 * 16 chunks, then 9 tree levels: a chain of ≤ 64 + 16 + 9 = 89 fp32 adds, so
 * the variance errs by ≤ 89·6e-8 = 5.3e-6 relative and the mean by
 * ≤ 89·6e-8·E|x| ≈ 1e-5 absolute; with weight ≤ 1.5, y errs by ≲ 1e-5: ≥ 5×
 * inside. */
#include "cuarena.h"
#include "norm.cuh"

#define GROUPNORM_G 8        /* task.json params.G */
#define GROUPNORM_EPS 1e-5   /* task.json params.eps */

template <typename Acc, typename Out>
static int groupnorm(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                     cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 3, out, n_out, 1));
	const struct cua_tensor *x = &in[0], *w = &in[1], *b = &in[2];
	struct cua_tensor *y = &out[0];
	CUA_CHECK(cua_check_tensor(x, CUA_F32, 4));
	CUA_CHECK(cua_check_tensor(w, CUA_F32, 1));
	CUA_CHECK(cua_check_tensor(b, CUA_F32, 1));
	CUA_CHECK(cua_check_tensor(y, cua_dtype_of<Out>::value, 4));
	CUA_CHECK(cua_check_same_shape(x, y));
	CUA_CHECK(cua_check_dim(w, 0, x->shape[1]));
	CUA_CHECK(cua_check_dim(b, 0, x->shape[1]));

	struct cua_groupnorm_desc d;
	d.N = x->shape[0];
	d.C = x->shape[1];
	d.HW = x->shape[2] * x->shape[3];
	d.G = GROUPNORM_G;
	CUA_CHECK(cua_groupnorm_validate(d));
	cua_groupnorm<Acc, Out>((const float *)x->data, (const float *)w->data,
	                        (const float *)b->data, (Out *)y->data, d, (Acc)GROUPNORM_EPS,
	                        stream);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return groupnorm<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return groupnorm<double, double>(in, n_in, out, n_out, stream);
}
