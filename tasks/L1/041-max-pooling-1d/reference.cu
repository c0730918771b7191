/* L1/044-maxpool-1d reference: 1-D max pooling of x [N,C,L] f32, window 4,
 * stride 2, padding 2 (padding never wins), dilation 1, floor mode ->
 * y [N,C,OL], OL = (L + 2·2 − 4)/2 + 1.
 * cua_solve is the nvcc baseline: pool2d.cuh's kernel on x viewed as
 * [N,C,1,L] with a 1×4 window — one thread per output, consecutive threads on
 * consecutive outputs; cua_oracle writes the same (exact) maxima as f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o maxpool-1d.so tasks/L1/044-maxpool-1d/reference.cu
 * Napkin math (timed N=C=64, L=262144 -> OL=131073): 4·N·C·(L + OL)
 * = 4.29 + 2.15 = 6.44 GB; ~1.5 ms at 4.26 TB/s. 4 compares per output. */
#include "cuarena.h"
#include "poolnd.cuh"

/* nsp, window, stride, padding (task.json params), max, count_include_pad */
static const struct cua_pool_spec pool = {1, 4, 2, 2, true, false};

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
