/* X/008-conv-transpose2d-large-kernel reference:
 * y = conv_transpose2d(x, w), f32, no bias,
 * x [N,C,in...], w [C,F/G,K...] (transposed layout), y [N,F,out...];
 * the formula and layouts are in task.json and tasks/common/conv-transpose.cuh.
 * cua_solve is the nvcc baseline: gather form, one thread per output, fp32
 * accumulation in (tap, c) order; cua_oracle runs it in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o conv-transpose2d-large-kernel.so tasks/X/008-conv-transpose2d-large-kernel/reference.cu
 * Napkin math (timed N=12, C=128, F=128, 128×128 -> 132×132):
 * 2·N·C·in·(F/G)·K = 161.1 GFLOP of products (3200 terms per output at most, 3200 on
 * average); 4·(x + w + y) = 209 MB (0.05 ms at 4.26 TB/s).
 * This kernel: ~1 TFLOP/s -> ~161 ms; the fp64 oracle ~161–242 ms.
 * cuDNN (estimate, unmeasured): 30–80 TFLOP/s (implicit GEMM or FFT (FFT does fewer flops)) -> 2.0–5.4 ms.
 * Tolerance atol 1.7e-3 ~ 1e-3·sqrt(3200/1152) (atol 1e-3 of a 3×3, C = 128 convolution's 1152 terms, scaled to the terms per
 * output), rtol 1e-4: fp32 sums err ~3e-05, TF32 products ~8e-03 (1 sigma). */
#include "cuarena.h"
#include "conv-transpose.cuh"

/* task.json's hyper-parameters: spatial dims, kernel, stride, padding,
 * output padding, dilation (per dimension, outermost first), groups. */
static const struct cua_convt_params convt = {2, {5, 5}, {1, 1}, {0, 0}, {0, 0}, {1, 1}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return cua_convt_reference<float, float>(in, n_in, out, n_out, convt, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return cua_convt_reference<double, double>(in, n_in, out, n_out, convt, stream);
}
