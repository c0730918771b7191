/* X/007-conv-transpose2d-strided reference:
 * y = conv_transpose2d(x, w, stride=2, padding=1), f32, no bias,
 * x [N,C,in...], w [C,F/G,K...] (transposed layout), y [N,F,out...];
 * the formula and layouts are in task.json and tasks/common/conv-transpose.cuh.
 * cua_solve is the nvcc baseline: gather form, one thread per output, fp32
 * accumulation in (tap, c) order; cua_oracle runs it in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o conv-transpose2d-strided.so tasks/X/007-conv-transpose2d-strided/reference.cu
 * Napkin math (timed N=32, C=256, F=128, 64×64 -> 128×128):
 * 2·N·C·in·(F/G)·K = 137.4 GFLOP of products (1024 terms per output at most, 1024 on
 * average); 4·(x + w + y) = 405 MB (0.10 ms at 4.26 TB/s).
 * This kernel: ~1 TFLOP/s -> ~137 ms; the fp64 oracle ~137–206 ms.
 * cuDNN (estimate, unmeasured): 20–45 TFLOP/s (cuDNN's strided dgrad kernels) -> 3.1–6.9 ms.
 * Tolerance atol 9e-4 ~ 1e-3·sqrt(1024/1152) (atol 1e-3 of a 3×3, C = 128 convolution's 1152 terms, scaled to the terms per
 * output), rtol 1e-4: fp32 sums err ~8e-06, TF32 products ~4e-03 (1 sigma). */
#include "cuarena.h"
#include "conv-transpose.cuh"

/* task.json's hyper-parameters: spatial dims, kernel, stride, padding,
 * output padding, dilation (per dimension, outermost first), groups. */
static const struct cua_convt_params convt = {2, {4, 4}, {2, 2}, {1, 1}, {0, 0}, {1, 1}, 1};

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
