/* L1/045-average-pooling-2d reference: 2-D average pooling (avg_pool2d(x, 11)),
 * x [N,C,spatial…] f32, window 11, stride 11, padding 0, dilation 1, floor mode, count_include_pad (the divisor is 121) ->
 * y with out = (H − 11)/11 + 1.
 * cua_solve is the nvcc baseline: pool2d.cuh's kernel, one thread per output,
 * consecutive threads on consecutive outputs; cua_oracle runs it in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-045.so tasks/L1/045-average-pooling-2d/reference.cu
 * Napkin math (timed N=16, C=64, H=W=2048 -> 186×186): 4·N·C·(2048² + 186²) = 17.3 GB, almost all of it x read once; ~4.0 ms at 4.3 TB/s. */
#include "cuarena.h"
#include "poolnd.cuh"

/* nsp, window, stride, padding (task.json params), max, count_include_pad */
static const struct cua_pool_spec pool = {2, 11, 11, 0, false, true};

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
