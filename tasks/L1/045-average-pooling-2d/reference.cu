/* L1/048-avgpool-2d reference: 2-D average pooling, NCHW f32, window 3,
 * stride 3, no padding, floor mode: x [N,C,H,W] -> y [N,C,OH,OW],
 * OH = (H − 3)/3 + 1, OW likewise; divisor 9.
 * cua_solve is the nvcc baseline: pool2d.cuh's kernel, one thread per output,
 * consecutive threads on consecutive ow; cua_oracle runs the same kernel in
 * double and writes f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o avgpool-2d.so tasks/L1/048-avgpool-2d/reference.cu
 * Napkin math (timed N=C=64, H=W=512 -> 170×170): 4·N·C·H·W + 4·N·C·OH·OW
 * = 4.29 + 0.47 = 4.77 GB; ~1.1 ms at 4.26 TB/s. 9 adds per output.
 * Tolerance (atol = rtol = 1e-5): 8 fp32 adds and a division err by
 * ≤ 8·6e-8·mean|x| + 6e-8·|y| ≲ 1e-6 even for |x| ~ 2: ≥ 10× inside;
 * |y| ~ 0.33, so zeros fail. */
#include "cuarena.h"
#include "poolnd.cuh"

/* nsp, window, stride, padding (task.json params), max, count_include_pad */
static const struct cua_pool_spec pool = {2, 3, 3, 0, false, true};

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
