/* L1/049-avgpool-3d reference: 3-D average pooling, NCDHW f32, window 3,
 * stride 2, zero padding 1, count_include_pad (divisor always 27), floor mode:
 * x [N,C,D,H,W] -> y [N,C,OD,OH,OW], OD = (D + 2·1 − 3)/2 + 1, OH, OW likewise.
 * cua_solve is the nvcc baseline: poolnd.cuh's kernel, one thread per output,
 * consecutive threads on consecutive ow; cua_oracle runs the same kernel in
 * double and writes f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o avgpool-3d.so tasks/L1/049-avgpool-3d/reference.cu
 * Napkin math (timed N=16, C=32, D=H=W=128 -> 64³): 4·N·C·(D·H·W + OD·OH·OW)
 * = 4.29 + 0.54 = 4.83 GB; ~1.1 ms at 4.26 TB/s. 27 adds per output; each
 * input is read ~3.4 times, mostly from L1/L2 (a few ms).
 * Tolerance (atol = rtol = 1e-5): 26 fp32 adds and a division err by
 * ≤ 26·6e-8·mean|x| + 6e-8·|y| ≲ 2e-6 even for |x| ~ 1.3: ≥ 5× inside;
 * |y| ~ 0.15, so zeros fail. */
#include "cuarena.h"
#include "poolnd.cuh"

/* nsp, window, stride, padding (task.json params), max, count_include_pad */
static const struct cua_pool_spec pool = {3, 3, 2, 1, false, true};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return cua_pool_task<float, float>(pool, in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return cua_pool_task<double, double>(pool, in, n_in, out, n_out, stream);
}
