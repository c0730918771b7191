/* L1/042-max-pooling-2d reference: 2-D max pooling (max_pool2d(x, 4, stride=1, padding=1)),
 * x [N,C,spatial…] f32, window 4, stride 1, padding 1, dilation 1, floor mode ->
 * y with out = (H + 2 − 4)/1 + 1 = H − 1.
 * cua_solve is the nvcc baseline: pool2d.cuh's kernel, one thread per output,
 * consecutive threads on consecutive outputs; cua_oracle runs it in double, writing f64 (the maxima are exact).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-042.so tasks/L1/042-max-pooling-2d/reference.cu
 * Napkin math (timed N=32, C=64, H=W=512 -> 511×511): 4·N·C·(512² + 511²) = 4.29 GB; ~1.0 ms at 4.3 TB/s. 16 compares per output. */
#include "cuarena.h"
#include "poolnd.cuh"

/* nsp, window, stride, padding (task.json params), max, count_include_pad */
static const struct cua_pool_spec pool = {2, 4, 1, 1, true, false};

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
