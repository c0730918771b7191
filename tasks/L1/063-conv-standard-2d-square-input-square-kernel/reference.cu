/* L1/056-conv2d-3x3 reference: y = conv2d(x, w), NCHW f32, 3×3 filters, stride 1,
 * zero padding 1, no bias: x [N,C,H,W], w [F,C,3,3], y [N,F,H,W],
 *     y[n,f,h,v] = Σ_c Σ_{i,j<3} x[n,c,h+i-1,v+j-1] · w[f,c,i,j]   (x = 0 outside).
 * cua_solve is the nvcc baseline: direct convolution, one thread per output,
 * fp32 accumulation in (c,i,j) order; cua_oracle runs it in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o conv2d-3x3.so tasks/L1/056-conv2d-3x3/reference.cu
 * Napkin math (timed N=32, C=F=128, H=W=128): 2·N·F·H·W·C·9 = 154.6 GFLOP;
 * 4·(NCHW + 9FC + NFHW) = 537 MB. cuDNN strict fp32 (measured on an H200):
 * ~2.0 ms with FFT_TILING, ~3.9 ms with implicit GEMM; this kernel ~130 ms. */
#include "cuarena.h"
#include "conv2d.cuh"

template <typename Acc, typename Out>
static int conv2d_3x3(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                      cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 2, out, n_out, 1));
	const struct cua_tensor *x = &in[0], *w = &in[1];
	struct cua_tensor *y = &out[0];
	CUA_CHECK(cua_check_tensor(x, CUA_F32, 4));
	CUA_CHECK(cua_check_tensor(w, CUA_F32, 4));
	CUA_CHECK(cua_check_tensor(y, cua_dtype_of<Out>::value, 4));

	struct cua_conv2d_desc d;
	d.N = x->shape[0]; d.C = x->shape[1]; d.H = x->shape[2]; d.W = x->shape[3];
	d.F = w->shape[0]; d.KH = 3; d.KW = 3;
	d.OH = y->shape[2]; d.OW = y->shape[3];
	d.SH = d.SW = 1;
	d.PH = d.PW = 1;
	d.DH = d.DW = 1;
	d.G = 1;
	CUA_CHECK(cua_check_dim(w, 1, d.C));
	CUA_CHECK(cua_check_dim(w, 2, 3));
	CUA_CHECK(cua_check_dim(w, 3, 3));
	CUA_CHECK(cua_check_dim(y, 0, d.N));
	CUA_CHECK(cua_check_dim(y, 1, d.F));
	CUA_CHECK(cua_conv2d_validate(d));

	cua_conv2d_naive<float, Acc, Out>((const float *)x->data, (const float *)w->data,
	                                  (Out *)y->data, d, stream);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return conv2d_3x3<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return conv2d_3x3<double, double>(in, n_in, out, n_out, stream);
}
