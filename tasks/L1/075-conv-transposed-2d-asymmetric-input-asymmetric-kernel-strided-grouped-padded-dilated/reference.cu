/* L1/080-conv-transpose2d-grouped reference:
 * y = conv_transpose2d(x, w, groups=4), f32, no bias,
 * x [N,C,in...], w [C,F/G,K...] (transposed layout), y [N,F,out...];
 * the formula and layouts are in task.json and tasks/common/conv-transpose.cuh.
 * cua_solve is the nvcc baseline: gather form, one thread per output, fp32
 * accumulation in (tap, c) order; cua_oracle runs it in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o conv-transpose2d-grouped.so tasks/L1/080-conv-transpose2d-grouped/reference.cu
 * Napkin math (timed N=16, C=256, F=256 in 4 groups of 64→64, 128×128 -> 130×130):
 * 2·N·C·in·(F/G)·K = 77.3 GFLOP of products (576 terms per output at most, 576 on
 * average); 4·(x + w + y) = 546 MB (0.13 ms at 4.26 TB/s).
 * This kernel: ~1 TFLOP/s -> ~77 ms; the fp64 oracle ~77–116 ms.
 * cuDNN (estimate, unmeasured): 10–35 TFLOP/s (grouped dgrad, 64 channels per group) -> 2.2–7.7 ms.
 * Tolerance atol 7e-4 ~ 1e-3·sqrt(576/1152) (L1/056's atol scaled to the terms per
 * output), rtol 1e-4: fp32 sums err ~5e-06, TF32 products ~3e-03 (1 sigma). */
#include "cuarena.h"
#include "conv-transpose.cuh"

/* task.json's hyper-parameters: spatial dims, kernel, stride, padding,
 * output padding, dilation (per dimension, outermost first), groups. */
static const struct cua_convt_params convt = {2, {3, 3}, {1, 1}, {0, 0}, {0, 0}, {1, 1}, 4};

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
