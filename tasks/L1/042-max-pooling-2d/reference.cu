/* L1/045-maxpool-2d reference: 2-D max pooling, NCHW f32, window 3, stride 2,
 * padding 1 (padding never wins), floor mode: x [N,C,H,W] -> y [N,C,OH,OW],
 * OH = (H + 2·1 - 3)/2 + 1, OW likewise.
 * cua_solve is the nvcc baseline: one thread per output, consecutive threads on
 * consecutive ow; cua_oracle writes the same (exact) maxima as f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o maxpool-2d.so tasks/L1/045-maxpool-2d/reference.cu
 * Napkin math (timed N=C=64, H=W=512 -> 256×256): 4·N·C·H·W + 4·N·C·OH·OW
 * = 4.29 + 1.07 = 5.37 GB; ~1.25 ms at 4.3 TB/s. 9 compares per output. */
#include "cuarena.h"
#include "poolnd.cuh"

/* nsp, window, stride, padding (task.json params), max, count_include_pad */
static const struct cua_pool_spec pool = {2, 3, 2, 1, true, false};

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
