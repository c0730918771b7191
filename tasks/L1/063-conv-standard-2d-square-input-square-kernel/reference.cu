/* L1/063-conv-standard-2d-square-input-square-kernel reference: y = conv2d(x, w),
 * f32, no bias: x [N,C,H,W], w [F,C,K,K], y [N,F,H-K+1,W-K+1].
 * cua_solve is the nvcc baseline: direct convolution (convnd.cuh), one thread per output, fp32 accumulation in
 * (c, taps) order; cua_oracle runs it
 * in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-063.so tasks/L1/063-conv-standard-2d-square-input-square-kernel/reference.cu
 * Napkin math (timed N=16, C=16, F=128, H=1024, W=1024): 616 GFLOP; 9.63 GB moved at the floor
 * (2.2 ms at 4.3 TB/s). This kernel at ~1 TFLOP/s: ~6.2e+02 ms; the oracle about the same.
 * Tolerance atol 4e-05, rtol 0.0001: 1e-4 of the output scale (tools/l1-tasks.py), ~100× the fp32
 * rounding of these sums. */
#include "cuarena.h"
#include "convnd.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct cua_conv_hparams conv = {2, {3, 3}, {1, 1}, {0, 0}, {1, 1}, 1};

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
