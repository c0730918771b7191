/* L1/066-conv2d-pointwise reference: y = conv2d(x, w), NCHW f32, 1×1 filters, stride 1, no
 * padding, no bias: x [N,C,H,W], w [F,C,1,1], y [N,F,H,W],
 *     y[n,f,h,v] = Σ_c x[n,c,h,v] · w[f,c,0,0].
 * cua_solve is the nvcc baseline: direct convolution (convnd.cuh), one thread per
 * output, fp32 accumulation in c order; cua_oracle runs it in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o conv2d-pointwise.so tasks/L1/066-conv2d-pointwise/reference.cu
 * Napkin math (timed N=64, C=256, F=512, H=W=64): 2·N·F·H·W·C = 68.7 GFLOP; 4·(NCHW + FC +
 * NFHW) = 806 MB (0.19 ms at 4.26 TB/s; 1.03 ms at the FFMA peak, the SOL).
 * Estimates on an H200: cuDNN strict fp32, a GEMM per image at 25–40 TFLOP/s: ~1.7–3 ms; this
 * kernel ~60–70 ms (naive direct conv runs ~1.2 TFLOP/s); the oracle ~60–70 ms. */
#include "cuarena.h"
#include "convnd.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct cua_conv_hparams conv = {2, {1, 1}, {1, 1}, {0, 0}, {1, 1}, 1};

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
