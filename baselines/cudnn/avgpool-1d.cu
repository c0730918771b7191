/* baselines/cudnn/avgpool-1d.cu — cuDNN baseline for L1/047-avgpool-1d:
 * 1-D average pooling of x [N,C,L] f32, window 4, stride 2,
 * padding 1, count_include_pad, floor mode,
 * as cudnnPoolingForward(CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING)
 * on x viewed as [N,C,1,L] with a 1×4 window.
 * COUNT_INCLUDE_PADDING divides by the full window size, torch's count_include_pad=True
 * (in floor mode a window never reaches past the padded extent, so torch's divisor
 * is always the window size too).
 * The output extents cuDNN derives are checked against y's shape.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o avgpool-1d.so baselines/cudnn/avgpool-1d.cu -lcudnn
 * Napkin math (timed N=C=64, L=262144 -> 131072): 4·N·C·(L + OL) = 6.44 GB,
 * ~1.5 ms at 4.26 TB/s. */
#include "pool-common.cuh"

/* tasks/L1/047-avgpool-1d/task.json params, in cuDNN's spatial order (H = 1 added in front of L):
 * mode, x_rank, nsp, window, padding, stride, api_2d */
static const struct pool_spec pool = {CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING, 3, 2, {1, 4}, {0, 1}, {1, 2}, 0};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return pool_forward(&pool, in, n_in, out, n_out, stream);
}
