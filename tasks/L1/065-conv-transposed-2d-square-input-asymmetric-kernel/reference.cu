/* L1/065-conv-transposed-2d-square-input-asymmetric-kernel reference: y = conv_transpose2d(x, w),
 * f32, no bias: x [N,C,H,W], w [C,F,KH,KW], y [N,F,H-1+KH-1+1,W-1+KW-1+1].
 * cua_solve is the nvcc baseline: gather form (conv-transpose.cuh), one thread per output, fp32 accumulation in
 * (tap, c) order; cua_oracle runs it
 * in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-065.so tasks/L1/065-conv-transposed-2d-square-input-asymmetric-kernel/reference.cu
 * Napkin math (timed N=8, C=64, F=64, H=512, W=512): 361 GFLOP of products; 1.08 GB moved at the floor
 * (0.25 ms at 4.3 TB/s). This kernel at ~1 TFLOP/s: ~3.6e+02 ms; the oracle about the same.
 * Tolerance atol 4e-05, rtol 0.0001: 1e-4 of the output scale (tools/l1-tasks.py), ~100× the fp32
 * rounding of these sums. */
#include "cuarena.h"
#include "conv-transpose.cuh"

/* task.json's hyper-parameters: spatial dims, kernel, stride, padding,
 * output padding, dilation (per dimension, outermost first), groups. */
static const struct cua_convt_params convt = {2, {3, 7}, {1, 1}, {0, 0}, {0, 0}, {1, 1}, 1};

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
