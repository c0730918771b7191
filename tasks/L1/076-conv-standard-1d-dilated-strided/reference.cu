/* L1/058-conv1d-dilated-strided reference: y = conv1d(x, w, stride=3, dilation=4), NCL f32,
 * kernel 3, no padding, no bias: x [N,C,L], w [F,C,3], y [N,F,OL], OL = (L-9)/3 + 1,
 *     y[n,f,l] = Σ_c Σ_{k<3} x[n,c,3l+4k] · w[f,c,k].
 * cua_solve is the nvcc baseline: direct convolution (convnd.cuh), one thread per
 * output, fp32 accumulation in (c, k) order; cua_oracle runs it in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o conv1d-dilated-strided.so tasks/L1/058-conv1d-dilated-strided/reference.cu
 * Napkin math (timed N=32, C=F=256, L=24576, OL=8190): 2·N·F·OL·C·3 = 103.1 GFLOP; 4·(NCL +
 * 3FC + NF·OL) = 1074 MB (0.25 ms at 4.26 TB/s; 1.5 ms at the FFMA peak, the SOL: no fast
 * algorithm applies, every window tap lands in its own phase mod 3).
 * Estimates on an H200: cuDNN strict fp32 (1-D as 2-D), implicit GEMM: ~3–6 ms; this kernel
 * ~90–200 ms (stride-3 loads) (naive direct conv runs ~1.2 TFLOP/s); the oracle ~90–200 ms. */
#include "cuarena.h"
#include "convnd.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct cua_conv_hparams conv = {1, {3}, {3}, {0}, {4}, 1};

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
