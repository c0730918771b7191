/* L1/068-conv2d-depthwise-asymmetric-kernel reference: y = conv2d(x, w, groups=C), NCHW
 * f32, one 3×7 filter per channel, stride 1, no padding, no bias: x [N,C,H,W], w [C,1,3,7],
 * y [N,C,H-2,W-6],
 *     y[n,c,h,v] = Σ_{i<3} Σ_{j<7} x[n,c,h+i,v+j] · w[c,0,i,j].
 * cua_solve is the nvcc baseline: direct convolution (convnd.cuh), one thread per
 * output, fp32 accumulation in (i, j) order; cua_oracle runs it in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o conv2d-depthwise-asymmetric-kernel.so tasks/L1/068-conv2d-depthwise-asymmetric-kernel/reference.cu
 * Napkin math (timed N=64, C=256, H=W=192 → 190×186): 2·NC·190·186·21 = 24.3 GFLOP; 4·(NCHW +
 * 21C + NC·190·186) = 4732 MB, memory bound: 1.11 ms at 4.26 TB/s (the SOL).
 * Estimates on an H200: cuDNN strict fp32 depthwise kernel: ~1.3–3 ms; this kernel ~3–5 ms
 * (memory bound, 21 taps from L1); the oracle ~3–5 ms. */
#include "cuarena.h"
#include "convnd.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct cua_conv_hparams conv = {2, {3, 7}, {1, 1}, {0, 0}, {1, 1}, 0};

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
