/* L1/061-conv2d-asymmetric-both reference: y = conv2d(x, w, padding=(2, 1)), NCHW f32, 5×3
 * kernel, stride 1, no bias, on a non-square input: x [N,C,H,W], w [F,C,5,3], y [N,F,H,W],
 *     y[n,f,h,v] = Σ_c Σ_{i<5} Σ_{j<3} x[n,c,h+i-2,v+j-1] · w[f,c,i,j]   (x = 0 outside).
 * cua_solve is the nvcc baseline: direct convolution (convnd.cuh), one thread per
 * output, fp32 accumulation in (c, i, j) order; cua_oracle runs it in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o conv2d-asymmetric-both.so tasks/L1/061-conv2d-asymmetric-both/reference.cu
 * Napkin math (timed N=8, C=F=128, H=128, W=256): 2·N·F·H·W·C·15 = 128.8 GFLOP; 4·(NCHW + 15FC
 * + NFHW) = 269 MB (0.06 ms at 4.26 TB/s; 1.9 ms at the FFMA peak).
 * Estimates on an H200: cuDNN strict fp32, implicit GEMM or FFT: ~3–6 ms; this kernel ~110 ms
 * (naive direct conv runs ~1.2 TFLOP/s); the oracle ~115 ms. */
#include "cuarena.h"
#include "convnd.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct cua_conv_hparams conv = {2, {5, 3}, {1, 1}, {2, 1}, {1, 1}, 1};

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
