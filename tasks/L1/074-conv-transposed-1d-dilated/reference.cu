/* L1/074-conv-transpose1d-dilated-strided reference:
 * y = conv_transpose1d(x, w, stride=3, padding=2, dilation=2), f32, no bias,
 * x [N,C,in...], w [C,F/G,K...] (transposed layout), y [N,F,out...];
 * the formula and layouts are in task.json and tasks/common/conv-transpose.cuh.
 * cua_solve is the nvcc baseline: gather form, one thread per output, fp32
 * accumulation in (tap, c) order; cua_oracle runs it in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o conv-transpose1d-dilated-strided.so tasks/L1/074-conv-transpose1d-dilated-strided/reference.cu
 * Napkin math (timed N=16, C=256, F=256, 4096 -> 12290):
 * 2·N·C·in·(F/G)·K = 42.9 GFLOP of products (512 terms per output at most, 427 on
 * average); 4·(x + w + y) = 270 MB (0.06 ms at 4.26 TB/s).
 * This kernel: ~1 TFLOP/s, 83% of lanes busy per tap -> ~52 ms; the fp64 oracle ~52–77 ms.
 * cuDNN (estimate, unmeasured): 3–25 TFLOP/s (dilation limits cuDNN to its generic dgrad kernels) -> 1.7–14 ms.
 * Tolerance atol 7e-4 ~ 1e-3·sqrt(512/1152) (L1/056's atol scaled to the terms per
 * output), rtol 1e-4: fp32 sums err ~4e-06, TF32 products ~3e-03 (1 sigma). */
#include "cuarena.h"
#include "conv-transpose.cuh"

/* task.json's hyper-parameters: spatial dims, kernel, stride, padding,
 * output padding, dilation (per dimension, outermost first), groups. */
static const struct cua_convt_params convt = {1, {5}, {3}, {2}, {0}, {2}, 1};

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
