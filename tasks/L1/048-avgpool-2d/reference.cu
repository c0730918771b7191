/* L1/048-avgpool-2d reference: 2-D average pooling, NCHW f32, window 3,
 * stride 3, no padding, floor mode: x [N,C,H,W] -> y [N,C,OH,OW],
 * OH = (H − 3)/3 + 1, OW likewise; divisor 9.
 * cua_solve is the nvcc baseline: pool2d.cuh's kernel, one thread per output,
 * consecutive threads on consecutive ow; cua_oracle runs the same kernel in
 * double and writes f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o avgpool-2d.so tasks/L1/048-avgpool-2d/reference.cu
 * Napkin math (timed N=C=64, H=W=512 -> 170×170): 4·N·C·H·W + 4·N·C·OH·OW
 * = 4.29 + 0.47 = 4.77 GB; ~1.1 ms at 4.26 TB/s. 9 adds per output.
 * Tolerance (atol = rtol = 1e-5): 8 fp32 adds and a division err by
 * ≤ 8·6e-8·mean|x| + 6e-8·|y| ≲ 1e-6 even for |x| ~ 2: ≥ 10× inside;
 * |y| ~ 0.33, so zeros fail. */
#include "cuarena.h"
#include "pool2d.cuh"

#define POOL_K 3   /* task.json params K, S */
#define POOL_S 3

template <typename Acc, typename Out>
static int avgpool_2d(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                      cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 1, out, n_out, 1));
	const struct cua_tensor *x = &in[0];
	struct cua_tensor *y = &out[0];
	CUA_CHECK(cua_check_tensor(x, CUA_F32, 4));
	CUA_CHECK(cua_check_tensor(y, cua_dtype_of<Out>::value, 4));
	CUA_CHECK(cua_check_dim(y, 0, x->shape[0]));
	CUA_CHECK(cua_check_dim(y, 1, x->shape[1]));

	struct cua_pool2d_desc d;
	d.N = x->shape[0]; d.C = x->shape[1]; d.H = x->shape[2]; d.W = x->shape[3];
	d.OH = y->shape[2]; d.OW = y->shape[3];
	d.KH = d.KW = POOL_K;
	d.SH = d.SW = POOL_S;
	d.PH = d.PW = 0;
	d.DH = d.DW = 1;
	d.count_include_pad = true;   /* no padding: the divisor is 9 either way */
	CUA_CHECK(cua_pool2d_validate(d));

	cua_avgpool2d<float, Acc, Out>((const float *)x->data, (Out *)y->data, d, stream);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return avgpool_2d<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return avgpool_2d<double, double>(in, n_in, out, n_out, stream);
}
