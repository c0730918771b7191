/* L1/046-average-pooling-3d reference: 3-D average pooling (avg_pool3d(x, 3, stride=2, padding=1)),
 * x [N,C,spatial…] f32, window 3, stride 2, padding 1, dilation 1, floor mode, count_include_pad (the divisor is 27) ->
 * y with out = (D + 2 − 3)/2 + 1 per dim.
 * cua_solve is the nvcc baseline: poolnd.cuh's 3-D kernel, one thread per output,
 * consecutive threads on consecutive outputs; cua_oracle runs it in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-046.so tasks/L1/046-average-pooling-3d/reference.cu
 * Napkin math (timed N=16, C=32, D=H=128, W=256 -> 64×64×128): 4·N·C·(D·H·W + 64·64·128) = 9.66 GB (x has 2^31 elements: 64-bit indices); ~2.2 ms at 4.3 TB/s. */
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
