/* L1/047-avgpool-1d reference: 1-D average pooling of x [N,C,L] f32, window 4,
 * stride 2, zero padding 1, count_include_pad (divisor always 4), floor mode ->
 * y [N,C,OL], OL = (L + 2·1 − 4)/2 + 1.
 * cua_solve is the nvcc baseline: pool2d.cuh's kernel on x viewed as
 * [N,C,1,L] with a 1×4 window — one thread per output, consecutive threads on
 * consecutive outputs; cua_oracle runs the same kernel in double, writes f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o avgpool-1d.so tasks/L1/047-avgpool-1d/reference.cu
 * Napkin math (timed N=C=64, L=262144 -> OL=131072): 4·N·C·(L + OL)
 * = 4.29 + 2.15 = 6.44 GB; ~1.5 ms at 4.26 TB/s. 4 adds per output.
 * Tolerance (atol = rtol = 1e-5): 3 fp32 adds then an exact division by 4 err
 * by ≤ 3·6e-8·mean|x| ≲ 1e-6 even for |x| ~ 5: ≥ 10× inside; |y| ~ 0.5, so
 * zeros fail. */
#include "cuarena.h"
#include "pool2d.cuh"

#define POOL_K 4   /* task.json params K, S, P */
#define POOL_S 2
#define POOL_P 1

template <typename Acc, typename Out>
static int avgpool_1d(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                      cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 1, out, n_out, 1));
	const struct cua_tensor *x = &in[0];
	struct cua_tensor *y = &out[0];
	CUA_CHECK(cua_check_tensor(x, CUA_F32, 3));
	CUA_CHECK(cua_check_tensor(y, cua_dtype_of<Out>::value, 3));
	CUA_CHECK(cua_check_dim(y, 0, x->shape[0]));
	CUA_CHECK(cua_check_dim(y, 1, x->shape[1]));

	struct cua_pool2d_desc d;
	d.N = x->shape[0]; d.C = x->shape[1]; d.H = 1; d.W = x->shape[2];
	d.OH = 1; d.OW = y->shape[2];
	d.KH = 1; d.KW = POOL_K;
	d.SH = 1; d.SW = POOL_S;
	d.PH = 0; d.PW = POOL_P;
	d.DH = d.DW = 1;
	d.count_include_pad = true;
	CUA_CHECK(cua_pool2d_validate(d));

	cua_avgpool2d<float, Acc, Out>((const float *)x->data, (Out *)y->data, d, stream);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return avgpool_1d<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return avgpool_1d<double, double>(in, n_in, out, n_out, stream);
}
