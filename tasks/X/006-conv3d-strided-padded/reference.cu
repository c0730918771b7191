/* X/006-conv3d-strided-padded reference: y = conv3d(x, w, stride=2, padding=1), NCDHW f32,
 * 3×3×3 filters, no bias: x [N,C,D,H,W], w [F,C,3,3,3],
 * y [N,F,(D-1)/2+1,(H-1)/2+1,(W-1)/2+1],
 *     y[n,f,t,h,v] = Σ_c Σ_{a,i,j<3} x[n,c,2t+a-1,2h+i-1,2v+j-1] · w[f,c,a,i,j]   (x = 0 outside).
 * cua_solve is the nvcc baseline: direct convolution (convnd.cuh), one thread per
 * output, fp32 accumulation in (c, a, i, j) order; cua_oracle runs it in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o conv3d-strided-padded.so tasks/X/006-conv3d-strided-padded/reference.cu
 * Napkin math (timed N=8, C=64, F=128, D=H=W=64 → 32³): 2·N·F·32³·C·27 = 116.0 GFLOP; 4·(NCDHW
 * + 27FC + NF·32³) = 672 MB (0.16 ms at 4.26 TB/s; 1.7 ms at the FFMA peak).
 * Estimates on an H200: cuDNN strict fp32 3-D implicit GEMM: ~4–8 ms; this kernel ~100–200 ms
 * (stride-2 loads) (naive direct conv runs ~1.2 TFLOP/s); the oracle ~100–200 ms. */
#include "cuarena.h"
#include "convnd.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct cua_conv_hparams conv = {3, {3, 3, 3}, {2, 2, 2}, {1, 1, 1}, {1, 1, 1}, 1};

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
