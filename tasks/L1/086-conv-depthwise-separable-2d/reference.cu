/* L1/086-conv-depthwise-separable-2d reference: y = conv2d(conv2d(x, wd, padding=1,
 * groups=C), wp), NCHW f32, no bias: x [N,C,H,W], wd [C,1,3,3], wp [F,C,1,1], y [N,F,H,W],
 *     t[n,c,h,v] = Σ_{i,j<3} x[n,c,h+i-1,v+j-1] · wd[c,0,i,j]   (x = 0 outside),
 *     y[n,f,h,v] = Σ_c t[n,c,h,v] · wp[f,c,0,0].
 * cua_solve is the nvcc baseline: the two direct convolutions of convnd.cuh, one thread
 * per output each, t in fp32 scratch (stream-ordered cudaMallocAsync); cua_oracle runs
 * both in double with t in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-086.so tasks/L1/086-conv-depthwise-separable-2d/reference.cu
 * Napkin math (timed N=16, C=64, F=128, H=512, W=512): 73.6 GFLOP, 3.22 GB moved at the floor (0.75 ms at 4.3 TB/s; 1.1 ms at the 67 TFLOP/s FFMA peak).
 * Tolerance atol 2e-05, rtol 0.0001 (task.json; the reasons are in its description and
 * tools/l1-tasks.py). */
#include "cuarena.h"
#include "convnd.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct cua_conv_hparams depthwise = {2, {3, 3}, {1, 1}, {1, 1}, {1, 1}, 0};
static const struct cua_conv_hparams pointwise = {2, {1, 1}, {1, 1}, {0, 0}, {1, 1}, 1};

/* in = {x, wd, wp} (f32), out = {y} (Out); t is kept in Acc. */
template <typename Acc, typename Out>
static int separable(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                     cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 3, out, n_out, 1));
	const struct cua_tensor *x = &in[0], *wd = &in[1], *wp = &in[2];
	struct cua_tensor *y = &out[0];
	CUA_CHECK(cua_check_tensor(x, CUA_F32, 4));
	CUA_CHECK(cua_check_tensor(wd, CUA_F32, 4));
	CUA_CHECK(cua_check_tensor(wp, CUA_F32, 4));
	CUA_CHECK(cua_check_tensor(y, cua_dtype_of<Out>::value, 4));

	struct cua_convnd_desc dw, pw;
	CUA_CHECK(cua_convnd_make(&depthwise, x->shape, wd->shape, &dw));
	const int64_t ts[4] = {dw.N, dw.F, dw.out[1], dw.out[2]};   /* t [N,C,H,W] */
	CUA_CHECK(cua_convnd_make(&pointwise, ts, wp->shape, &pw));
	CUA_CHECK(cua_convnd_check_out(y, &pw));

	Acc *t = NULL;
	cudaError_t ce = cudaMallocAsync((void **)&t, (size_t)(ts[0] * ts[1] * ts[2] * ts[3]) *
	                                                  sizeof(Acc), stream);
	if (ce != cudaSuccess)
		return (int)ce;
	cua_convnd_naive<float, float, Acc, Acc>((const float *)x->data, (const float *)wd->data, t,
	                                         dw, stream);
	cua_convnd_naive<Acc, float, Acc, Out>(t, (const float *)wp->data, (Out *)y->data, pw,
	                                       stream);
	const cudaError_t launch = cudaGetLastError();
	ce = cudaFreeAsync(t, stream);
	return launch != cudaSuccess ? (int)launch : (int)ce;
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return separable<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return separable<double, double>(in, n_in, out, n_out, stream);
}
