/* L1/075-conv-transposed-2d-asymmetric-input-asymmetric-kernel-strided-grouped-padded-dilated reference: y = conv_transpose2d(x, w, stride=(2, 3), padding=(1, 2), groups=4, dilation=(2, 1)),
 * f32, no bias: x [N,C,H,W], w [C,F/G,KH,KW], y [N,F,(H-1)*SH-2*PH+DILH*(KH-1)+1,(W-1)*SW-2*PW+DILW*(KW-1)+1].
 * cua_solve is the nvcc baseline: gather form (conv-transpose.cuh), one thread per output, fp32 accumulation in
 * (tap, c) order; cua_oracle runs it
 * in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-075.so tasks/L1/075-conv-transposed-2d-asymmetric-input-asymmetric-kernel-strided-grouped-padded-dilated/reference.cu
 * Napkin math (timed N=16, C=32, F=64, H=128, W=256): 8.05 GFLOP of products; 873 MB moved at the floor
 * (0.2 ms at 4.3 TB/s). This kernel at ~1 TFLOP/s: ~8.1 ms; the oracle about the same.
 * Tolerance atol 1e-05, rtol 0.0001: 1e-4 of the output scale (tools/l1-tasks.py), ~100× the fp32
 * rounding of these sums. */
#include "cuarena.h"
#include "conv-transpose.cuh"

/* task.json's hyper-parameters: spatial dims, kernel, stride, padding,
 * output padding, dilation (per dimension, outermost first), groups. */
static const struct cua_convt_params convt = {2, {3, 5}, {2, 3}, {1, 2}, {0, 0}, {2, 1}, 4};

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
