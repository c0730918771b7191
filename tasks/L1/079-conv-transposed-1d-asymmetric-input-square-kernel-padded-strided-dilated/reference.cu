/* L1/087-conv-transpose1d-output-padding reference:
 * y = conv_transpose1d(x, w, stride=2, padding=1, output_padding=1), f32, no bias,
 * x [N,C,in...], w [C,F/G,K...] (transposed layout), y [N,F,out...];
 * the formula and layouts are in task.json and tasks/common/conv-transpose.cuh.
 * cua_solve is the nvcc baseline: gather form, one thread per output, fp32
 * accumulation in (tap, c) order; cua_oracle runs it in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o conv-transpose1d-output-padding.so tasks/L1/087-conv-transpose1d-output-padding/reference.cu
 * Napkin math (timed N=8, C=512, F=256, 8192 -> 16384):
 * 2·N·C·in·(F/G)·K = 51.5 GFLOP of products (1024 terms per output at most, 768 on
 * average); 4·(x + w + y) = 270 MB (0.06 ms at 4.26 TB/s).
 * This kernel: ~1 TFLOP/s, 75% of lanes busy per tap -> ~69 ms; the fp64 oracle ~69–103 ms.
 * cuDNN (estimate, unmeasured): 10–35 TFLOP/s (strided dgrad over a height-1 image) -> 1.5–5.2 ms.
 * Tolerance atol 9e-4 ~ 1e-3·sqrt(1024/1152) (L1/056's atol scaled to the terms per
 * output), rtol 1e-4: fp32 sums err ~8e-06, TF32 products ~4e-03 (1 sigma). */
#include "cuarena.h"
#include "conv-transpose.cuh"

/* task.json's hyper-parameters: spatial dims, kernel, stride, padding,
 * output padding, dilation (per dimension, outermost first), groups. */
static const struct cua_convt_params convt = {1, {3}, {2}, {1}, {1}, {1}, 1};

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
