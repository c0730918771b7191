/* L1/060-conv2d-asymmetric-input reference: y = conv2d(x, w), NCHW f32, 3×3 kernel, stride
 * 1, no padding, no bias, on a non-square input: x [N,C,H,W], w [F,C,3,3], y [N,F,H-2,W-2],
 *     y[n,f,h,v] = Σ_c Σ_{i,j<3} x[n,c,h+i,v+j] · w[f,c,i,j].
 * cua_solve is the nvcc baseline: direct convolution (convnd.cuh), one thread per
 * output, fp32 accumulation in (c, i, j) order; cua_oracle runs it in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o conv2d-asymmetric-input.so tasks/L1/060-conv2d-asymmetric-input/reference.cu
 * Napkin math (timed N=16, C=F=128, H=64, W=384): 2·N·F·62·382·C·9 = 111.8 GFLOP; 4·(NCHW +
 * 9FC + NF·62·382) = 396 MB (0.09 ms at 4.26 TB/s; 1.7 ms at the FFMA peak).
 * Estimates on an H200: cuDNN strict fp32, implicit GEMM / FFT / Winograd: ~2.5–5 ms; this
 * kernel ~95 ms (naive direct conv runs ~1.2 TFLOP/s); the oracle ~100 ms. */
#include "cuarena.h"
#include "convnd.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct cua_conv_hparams conv = {2, {3, 3}, {1, 1}, {0, 0}, {1, 1}, 1};

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
