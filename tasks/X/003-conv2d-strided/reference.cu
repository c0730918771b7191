/* X/003-conv2d-strided reference: y = conv2d(x, w, stride=2, padding=1), NCHW f32, 3×3
 * filters, no bias: x [N,C,H,W], w [F,C,3,3], y [N,F,(H-1)/2+1,(W-1)/2+1],
 *     y[n,f,h,v] = Σ_c Σ_{i,j<3} x[n,c,2h+i-1,2v+j-1] · w[f,c,i,j]   (x = 0 outside).
 * cua_solve is the nvcc baseline: direct convolution (convnd.cuh), one thread per
 * output, fp32 accumulation in (c, i, j) order; cua_oracle runs it in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o conv2d-strided.so tasks/X/003-conv2d-strided/reference.cu
 * Napkin math (timed N=32, C=128, F=256, H=W=128 → 64×64): 2·N·F·64·64·C·9 = 77.3 GFLOP;
 * 4·(NCHW + 9FC + NF·64·64) = 404 MB (0.09 ms at 4.26 TB/s; 1.2 ms at the FFMA peak).
 * Estimates on an H200: cuDNN strict fp32, implicit GEMM: ~2.5–4 ms; this kernel ~65–130 ms
 * (stride-2 loads) (naive direct conv runs ~1.2 TFLOP/s); the oracle ~70–130 ms. */
#include "cuarena.h"
#include "convnd.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct cua_conv_hparams conv = {2, {3, 3}, {2, 2}, {1, 1}, {1, 1}, 1};

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
