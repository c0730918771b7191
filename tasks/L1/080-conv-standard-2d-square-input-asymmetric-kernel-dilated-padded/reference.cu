/* L1/063-conv2d-padded-dilated reference: y = conv2d(x, w, padding=2, dilation=2), NCHW
 * f32, 3×3 filters, stride 1, no bias: x [N,C,H,W], w [F,C,3,3], y [N,F,H,W],
 *     y[n,f,h,v] = Σ_c Σ_{i,j<3} x[n,c,h+2i-2,v+2j-2] · w[f,c,i,j]   (x = 0 outside).
 * cua_solve is the nvcc baseline: direct convolution (convnd.cuh), one thread per
 * output, fp32 accumulation in (c, i, j) order; cua_oracle runs it in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o conv2d-padded-dilated.so tasks/L1/063-conv2d-padded-dilated/reference.cu
 * Napkin math (timed N=32, C=F=128, H=W=112): 2·N·F·H·W·C·9 = 118.4 GFLOP; 4·(NCHW + 9FC +
 * NFHW) = 412 MB (0.10 ms at 4.26 TB/s; 1.8 ms at the FFMA peak).
 * Estimates on an H200: cuDNN strict fp32, implicit GEMM or FFT: ~3–6 ms; this kernel ~100 ms
 * (naive direct conv runs ~1.2 TFLOP/s); the oracle ~105 ms. */
#include "cuarena.h"
#include "convnd.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct cua_conv_hparams conv = {2, {3, 3}, {1, 1}, {2, 2}, {2, 2}, 1};

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
