/* L1/071-conv3d-asymmetric-kernel reference: y = conv3d(x, w), NCDHW f32, 3×5×7 kernel,
 * stride 1, no padding, no bias: x [N,C,D,H,W], w [F,C,3,5,7], y [N,F,D-2,H-4,W-6],
 *     y[n,f,t,h,v] = Σ_c Σ_{a<3} Σ_{i<5} Σ_{j<7} x[n,c,t+a,h+i,v+j] · w[f,c,a,i,j].
 * cua_solve is the nvcc baseline: direct convolution (convnd.cuh), one thread per
 * output, fp32 accumulation in (c, a, i, j) order; cua_oracle runs it in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o conv3d-asymmetric-kernel.so tasks/L1/071-conv3d-asymmetric-kernel/reference.cu
 * Napkin math (timed N=4, C=32, F=48, D=H=W=48 → 46×44×42): 2·N·F·46·44·42·C·105 = 109.7
 * GFLOP; 4·(NCDHW + 105FC + NF·46·44·42) = 123 MB (0.03 ms at 4.26 TB/s; 1.6 ms at the FFMA
 * peak).
 * Estimates on an H200: cuDNN strict fp32 3-D implicit GEMM: ~4–11 ms; this kernel ~95 ms
 * (naive direct conv runs ~1.2 TFLOP/s); the oracle ~95 ms. */
#include "cuarena.h"
#include "convnd.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct cua_conv_hparams conv = {3, {3, 5, 7}, {1, 1, 1}, {0, 0, 0}, {1, 1, 1}, 1};

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
