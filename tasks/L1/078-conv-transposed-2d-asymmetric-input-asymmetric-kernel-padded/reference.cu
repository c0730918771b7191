/* L1/078-conv-transpose2d-padded reference:
 * y = conv_transpose2d(x, w, padding=(1, 2)), f32, no bias,
 * x [N,C,in...], w [C,F/G,K...] (transposed layout), y [N,F,out...];
 * the formula and layouts are in task.json and tasks/common/conv-transpose.cuh.
 * cua_solve is the nvcc baseline: gather form, one thread per output, fp32
 * accumulation in (tap, c) order; cua_oracle runs it in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o conv-transpose2d-padded.so tasks/L1/078-conv-transpose2d-padded/reference.cu
 * Napkin math (timed N=16, C=128, F=128, 128×128 -> 128×128):
 * 2·N·C·in·(F/G)·K = 128.8 GFLOP of products (1920 terms per output at most, 1920 on
 * average); 4·(x + w + y) = 269 MB (0.06 ms at 4.26 TB/s).
 * This kernel: ~1 TFLOP/s -> ~129 ms; the fp64 oracle ~129–193 ms.
 * cuDNN (estimate, unmeasured): 25–60 TFLOP/s (implicit GEMM or FFT) -> 2.1–5.2 ms.
 * Tolerance atol 1.3e-3 ~ 1e-3·sqrt(1920/1152) (L1/056's atol scaled to the terms per
 * output), rtol 1e-4: fp32 sums err ~2e-05, TF32 products ~6e-03 (1 sigma). */
#include "cuarena.h"
#include "conv-transpose.cuh"

/* task.json's hyper-parameters: spatial dims, kernel, stride, padding,
 * output padding, dilation (per dimension, outermost first), groups. */
static const struct cua_convt_params convt = {2, {3, 5}, {1, 1}, {1, 2}, {0, 0}, {1, 1}, 1};

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
