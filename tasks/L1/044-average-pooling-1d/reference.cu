/* L1/044-average-pooling-1d reference: 1-D average pooling (avg_pool1d(x, 8, stride=1, padding=4)),
 * x [N,C,spatial…] f32, window 8, stride 1, padding 4, dilation 1, floor mode, count_include_pad (the divisor is 8) ->
 * y with out = L + 2·4 − 8 + 1 = L + 1.
 * cua_solve is the nvcc baseline: pool2d.cuh's 2-D (x viewed as [N,C,1,L]) kernel, one thread per output,
 * consecutive threads on consecutive outputs; cua_oracle runs it in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-044.so tasks/L1/044-average-pooling-1d/reference.cu
 * Napkin math (timed N=64, C=128, L=65536 -> 65537): 4·N·C·(L + OL) = 4.29 GB; ~1.0 ms at 4.3 TB/s. 8 adds per output. */
#include "cuarena.h"
#include "poolnd.cuh"

/* nsp, window, stride, padding (task.json params), max, count_include_pad */
static const struct cua_pool_spec pool = {1, 8, 1, 4, false, true};

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
