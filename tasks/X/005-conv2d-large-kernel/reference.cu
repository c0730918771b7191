/* X/005-conv2d-large-kernel reference: y = conv2d(x, w, padding=3), NCHW f32, 7×7 filters,
 * stride 1, no bias: x [N,C,H,W], w [F,C,7,7], y [N,F,H,W],
 *     y[n,f,h,v] = Σ_c Σ_{i,j<7} x[n,c,h+i-3,v+j-3] · w[f,c,i,j]   (x = 0 outside).
 * cua_solve is the nvcc baseline: direct convolution (convnd.cuh), one thread per
 * output, fp32 accumulation in (c, i, j) order; cua_oracle runs it in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o conv2d-large-kernel.so tasks/X/005-conv2d-large-kernel/reference.cu
 * Napkin math (timed N=16, C=F=64, H=W=128): 2·N·F·H·W·C·49 = 105.2 GFLOP; 4·(NCHW + 49FC +
 * NFHW) = 135 MB (0.03 ms at 4.26 TB/s; 1.6 ms at the FFMA peak).
 * Estimates on an H200: cuDNN strict fp32, FFT or implicit GEMM: ~2–5 ms; this kernel ~90 ms
 * (naive direct conv runs ~1.2 TFLOP/s); the oracle ~95 ms. */
#include "cuarena.h"
#include "convnd.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct cua_conv_hparams conv = {2, {7, 7}, {1, 1}, {3, 3}, {1, 1}, 1};

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
