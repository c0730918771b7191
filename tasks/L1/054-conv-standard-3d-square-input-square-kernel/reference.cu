/* L1/070-conv3d reference: y = conv3d(x, w, padding=1), NCDHW f32, 3×3×3 filters, stride 1,
 * no bias: x [N,C,D,H,W], w [F,C,3,3,3], y [N,F,D,H,W],
 *     y[n,f,t,h,v] = Σ_c Σ_{a,i,j<3} x[n,c,t+a-1,h+i-1,v+j-1] · w[f,c,a,i,j]   (x = 0 outside).
 * cua_solve is the nvcc baseline: direct convolution (convnd.cuh), one thread per
 * output, fp32 accumulation in (c, a, i, j) order; cua_oracle runs it in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o conv3d.so tasks/L1/070-conv3d/reference.cu
 * Napkin math (timed N=4, C=F=64, D=H=W=48): 2·N·F·DHW·C·27 = 97.8 GFLOP; 4·(NCDHW + 27FC +
 * NFDHW) = 227 MB (0.05 ms at 4.26 TB/s; 1.5 ms at the FFMA peak).
 * Estimates on an H200: cuDNN strict fp32 3-D implicit GEMM: ~3–8 ms; this kernel ~85 ms
 * (naive direct conv runs ~1.2 TFLOP/s); the oracle ~90 ms. */
#include "cuarena.h"
#include "convnd.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct cua_conv_hparams conv = {3, {3, 3, 3}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}, 1};

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
