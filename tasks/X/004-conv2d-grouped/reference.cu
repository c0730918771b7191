/* X/004-conv2d-grouped reference: y = conv2d(x, w, padding=1, groups=4), NCHW f32, 3×3
 * filters, stride 1, no bias: x [N,C,H,W], w [F,C/4,3,3], y [N,F,H,W],
 *     y[n,f,h,v] = Σ_{c<C/4} Σ_{i,j<3} x[n,g·C/4+c,h+i-1,v+j-1] · w[f,c,i,j],  g = f/(F/4).
 * cua_solve is the nvcc baseline: direct convolution (convnd.cuh), one thread per
 * output, fp32 accumulation in (c, i, j) order; cua_oracle runs it in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o conv2d-grouped.so tasks/X/004-conv2d-grouped/reference.cu
 * Napkin math (timed N=32, C=F=256, H=W=96, 4 groups): 2·N·F·H·W·(C/4)·9 = 87.0 GFLOP; 4·(NCHW
 * + 9F·C/4 + NFHW) = 605 MB (0.14 ms at 4.26 TB/s; 1.3 ms at the FFMA peak).
 * Estimates on an H200: cuDNN strict fp32, grouped implicit GEMM / Winograd: ~3–9 ms; this
 * kernel ~75 ms (naive direct conv runs ~1.2 TFLOP/s); the oracle ~80 ms. */
#include "cuarena.h"
#include "convnd.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct cua_conv_hparams conv = {2, {3, 3}, {1, 1}, {1, 1}, {1, 1}, 4};

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
