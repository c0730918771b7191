/* L1/082-conv-transpose3d reference:
 * y = conv_transpose3d(x, w), f32, no bias,
 * x [N,C,in...], w [C,F/G,K...] (transposed layout), y [N,F,out...];
 * the formula and layouts are in task.json and tasks/common/conv-transpose.cuh.
 * cua_solve is the nvcc baseline: gather form, one thread per output, fp32
 * accumulation in (tap, c) order; cua_oracle runs it in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o conv-transpose3d.so tasks/L1/082-conv-transpose3d/reference.cu
 * Napkin math (timed N=8, C=64, F=64, 32×32×32 -> 34×34×34):
 * 2·N·C·in·(F/G)·K = 58.0 GFLOP of products (1728 terms per output at most, 1728 on
 * average); 4·(x + w + y) = 148 MB (0.03 ms at 4.26 TB/s).
 * This kernel: ~1 TFLOP/s -> ~58 ms; the fp64 oracle ~58–87 ms.
 * cuDNN (estimate, unmeasured): 5–30 TFLOP/s (cuDNN's 3-D fp32 dgrad) -> 1.9–12 ms.
 * Tolerance atol 1.2e-3 ~ 1e-3·sqrt(1728/1152) (L1/056's atol scaled to the terms per
 * output), rtol 1e-4: fp32 sums err ~1e-05, TF32 products ~6e-03 (1 sigma). */
#include "cuarena.h"
#include "conv-transpose.cuh"

/* task.json's hyper-parameters: spatial dims, kernel, stride, padding,
 * output padding, dilation (per dimension, outermost first), groups. */
static const struct cua_convt_params convt = {3, {3, 3, 3}, {1, 1, 1}, {0, 0, 0}, {0, 0, 0}, {1, 1, 1}, 1};

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
