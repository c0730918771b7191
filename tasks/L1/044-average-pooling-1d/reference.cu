/* L1/047-avgpool-1d reference: 1-D average pooling of x [N,C,L] f32, window 4,
 * stride 2, zero padding 1, count_include_pad (divisor always 4), floor mode ->
 * y [N,C,OL], OL = (L + 2·1 − 4)/2 + 1.
 * cua_solve is the nvcc baseline: pool2d.cuh's kernel on x viewed as
 * [N,C,1,L] with a 1×4 window — one thread per output, consecutive threads on
 * consecutive outputs; cua_oracle runs the same kernel in double, writes f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o avgpool-1d.so tasks/L1/047-avgpool-1d/reference.cu
 * Napkin math (timed N=C=64, L=262144 -> OL=131072): 4·N·C·(L + OL)
 * = 4.29 + 2.15 = 6.44 GB; ~1.5 ms at 4.26 TB/s. 4 adds per output.
 * Tolerance (atol = rtol = 1e-5): 3 fp32 adds then an exact division by 4 err
 * by ≤ 3·6e-8·mean|x| ≲ 1e-6 even for |x| ~ 5: ≥ 10× inside; |y| ~ 0.5, so
 * zeros fail. */
#include "cuarena.h"
#include "poolnd.cuh"

/* nsp, window, stride, padding (task.json params), max, count_include_pad */
static const struct cua_pool_spec pool = {1, 4, 2, 1, false, true};

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
