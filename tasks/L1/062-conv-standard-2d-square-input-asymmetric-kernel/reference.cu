/* L1/059-conv2d-asymmetric-kernel reference: y = conv2d(x, w), NCHW f32, 3×5 kernel, stride
 * 1, no padding, no bias: x [N,C,H,W], w [F,C,3,5], y [N,F,H-2,W-4],
 *     y[n,f,h,v] = Σ_c Σ_{i<3} Σ_{j<5} x[n,c,h+i,v+j] · w[f,c,i,j].
 * cua_solve is the nvcc baseline: direct convolution (convnd.cuh), one thread per
 * output, fp32 accumulation in (c, i, j) order; cua_oracle runs it in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o conv2d-asymmetric-kernel.so tasks/L1/059-conv2d-asymmetric-kernel/reference.cu
 * Napkin math (timed N=8, C=64, F=128, H=W=256): 2·N·F·254·252·C·15 = 125.8 GFLOP; 4·(NCHW +
 * 15FC + NF·254·252) = 397 MB (0.09 ms at 4.26 TB/s; 1.9 ms at the FFMA peak).
 * Estimates on an H200: cuDNN strict fp32, implicit GEMM or FFT: ~3–6 ms; this kernel ~105 ms
 * (naive direct conv runs ~1.2 TFLOP/s); the oracle ~110 ms. */
#include "cuarena.h"
#include "convnd.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct cua_conv_hparams conv = {2, {3, 5}, {1, 1}, {0, 0}, {1, 1}, 1};

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
