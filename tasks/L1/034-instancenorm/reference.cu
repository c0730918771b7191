/* L1/034-instancenorm reference: InstanceNorm2d without affine, NCHW f32: each
 * plane (n,c) of H·W elements becomes (x − mean) / sqrt(var + eps), biased
 * variance, eps = 1e-5; x, y [N,C,H,W].
 * cua_solve is the nvcc baseline: norm.cuh's GroupNorm kernel with one channel
 * per group and no affine — one block of 512 threads per plane, three passes
 * (mean, centred variance, write), block reductions by warp shuffles;
 * cua_oracle runs the same passes in double and writes f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-034.so tasks/L1/034-instancenorm/reference.cu
 * Napkin math (timed N=112, C=64, H=512, W=512): 13.2 GFLOP, 15 GB moved at the floor (3.5 ms at 4.3 TB/s).
 * Tolerance atol 0.0001, rtol 0.0001 (task.json; the reasons are in its description and
 * tools/l1-tasks.py). */
#include "cuarena.h"
#include "norm.cuh"

#define INSTANCENORM_EPS 1e-5   /* task.json params.eps */

template <typename Acc, typename Out>
static int instancenorm(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
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
	d.G = d.C;               /* one channel per group */
	CUA_CHECK(cua_groupnorm_validate(d));
	cua_groupnorm<Acc, Out>((const float *)x->data, NULL, NULL, (Out *)y->data, d,
	                        (Acc)INSTANCENORM_EPS, stream);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return instancenorm<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return instancenorm<double, double>(in, n_in, out, n_out, stream);
}
