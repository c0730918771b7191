/* L1/057-conv1d reference: y = conv1d(x, w), NCL f32, kernel 3, stride 1, no padding,
 * dilation 1, no bias: x [N,C,L], w [F,C,3], y [N,F,L-2],
 *     y[n,f,l] = Σ_c Σ_{k<3} x[n,c,l+k] · w[f,c,k].
 * cua_solve is the nvcc baseline: direct convolution (convnd.cuh), one thread per
 * output, fp32 accumulation in (c, k) order; cua_oracle runs it in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o conv1d.so tasks/L1/057-conv1d/reference.cu
 * Napkin math (timed N=32, C=F=256, L=8192): 2·N·F·(L-2)·C·3 = 103.1 GFLOP; 4·(NCL + 3FC +
 * NF(L-2)) = 538 MB (0.13 ms at 4.26 TB/s, the "bytes" SOL; 1.5 ms at the 66.9 TFLOP/s FFMA
 * peak).
 * Estimates on an H200: cuDNN strict fp32 (1-D as 2-D, H = 1), implicit GEMM at 20–35 TFLOP/s:
 * ~3–5 ms; this kernel ~85 ms (naive direct conv runs ~1.2 TFLOP/s); the oracle ~90 ms. */
#include "cuarena.h"
#include "convnd.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct cua_conv_hparams conv = {1, {3}, {1}, {0}, {1}, 1};

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
