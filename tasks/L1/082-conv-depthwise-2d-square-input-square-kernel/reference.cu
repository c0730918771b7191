/* L1/067-conv2d-depthwise reference: y = conv2d(x, w, padding=1, groups=C), NCHW f32, one
 * 3×3 filter per channel, stride 1, no bias: x [N,C,H,W], w [C,1,3,3], y [N,C,H,W],
 *     y[n,c,h,v] = Σ_{i,j<3} x[n,c,h+i-1,v+j-1] · w[c,0,i,j]   (x = 0 outside).
 * cua_solve is the nvcc baseline: direct convolution (convnd.cuh), one thread per
 * output, fp32 accumulation in (i, j) order; cua_oracle runs it in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o conv2d-depthwise.so tasks/L1/067-conv2d-depthwise/reference.cu
 * Napkin math (timed N=64, C=256, H=W=192): 2·NCHW·9 = 10.9 GFLOP; 4·(2·NCHW + 9C) = 4832 MB,
 * memory bound: 1.13 ms at 4.26 TB/s (the SOL).
 * Estimates on an H200: cuDNN strict fp32 depthwise kernel: ~1.3–2.5 ms; this kernel ~2–4 ms
 * (memory bound, taps from L1); the oracle ~3–5 ms (writes 4.8 GB of f64). */
#include "cuarena.h"
#include "convnd.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct cua_conv_hparams conv = {2, {3, 3}, {1, 1}, {1, 1}, {1, 1}, 0};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return cua_convnd_reference<float, float>(in, n_in, out, n_out, &conv, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return cua_convnd_reference<double, double>(in, n_in, out, n_out, &conv, stream);
}
