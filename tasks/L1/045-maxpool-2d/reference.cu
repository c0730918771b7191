/* L1/045-maxpool-2d reference: 2-D max pooling, NCHW f32, window 3, stride 2,
 * padding 1 (padding never wins), floor mode: x [N,C,H,W] -> y [N,C,OH,OW],
 * OH = (H + 2·1 - 3)/2 + 1, OW likewise.
 * cua_solve is the nvcc baseline: one thread per output, consecutive threads on
 * consecutive ow; cua_oracle writes the same (exact) maxima as f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o maxpool-2d.so tasks/L1/045-maxpool-2d/reference.cu
 * Napkin math (timed N=C=64, H=W=512 -> 256×256): 4·N·C·H·W + 4·N·C·OH·OW
 * = 4.29 + 1.07 = 5.37 GB; ~1.25 ms at 4.3 TB/s. 9 compares per output. */
#include "cuarena.h"
#include "pool2d.cuh"

#define POOL_K 3   /* task.json params K, S, P */
#define POOL_S 2
#define POOL_P 1

template <typename Acc, typename Out>
static int maxpool_2d(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
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
	d.PH = d.PW = POOL_P;
	d.DH = d.DW = 1;
	d.count_include_pad = false;
	CUA_CHECK(cua_pool2d_validate(d));

	cua_maxpool2d<float, Acc, Out>((const float *)x->data, (Out *)y->data, d, stream);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return maxpool_2d<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return maxpool_2d<double, double>(in, n_in, out, n_out, stream);
}
