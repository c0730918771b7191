/* L1/073-conv-transposed-3d-asymmetric-input-square-kernel-strided-padded-grouped reference: y = conv_transpose3d(x, w, stride=2, padding=1; groups 1: KernelBench's model, see task.json),
 * f32, no bias: x [N,C,D,H,W], w [C,F,K,K,K], y [N,F,(D-1)*S-2*P+K-1+1,(H-1)*S-2*P+K-1+1,(W-1)*S-2*P+K-1+1].
 * cua_solve is the nvcc baseline: gather form (conv-transpose.cuh), one thread per output, fp32 accumulation in
 * (tap, c) order; cua_oracle runs it
 * in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-073.so tasks/L1/073-conv-transposed-3d-asymmetric-input-square-kernel-strided-padded-grouped/reference.cu
 * Napkin math (timed N=4, C=32, F=32, D=32, H=64, W=128): 58.0 GFLOP of products; 1.18 GB moved at the floor
 * (0.27 ms at 4.3 TB/s). This kernel at ~1 TFLOP/s: ~58 ms; the oracle about the same.
 * Tolerance atol 2e-05, rtol 0.0001: 1e-4 of the output scale (tools/l1-tasks.py), ~100× the fp32
 * rounding of these sums. */
#include "cuarena.h"
#include "conv-transpose.cuh"

/* task.json's hyper-parameters: spatial dims, kernel, stride, padding,
 * output padding, dilation (per dimension, outermost first), groups. */
static const struct cua_convt_params convt = {3, {3, 3, 3}, {2, 2, 2}, {1, 1, 1}, {0, 0, 0}, {1, 1, 1}, 1};

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
