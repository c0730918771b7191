/* baselines/cudnn/avgpool-3d.cu — cuDNN baseline for L1/049-avgpool-3d:
 * 3-D average pooling of x [N,C,D,H,W] f32 (NCDHW), window 3, stride 2,
 * padding 1, count_include_pad, floor mode,
 * as cudnnPoolingForward(CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING).
 * COUNT_INCLUDE_PADDING divides by the full window size, torch's count_include_pad=True
 * (in floor mode a window never reaches past the padded extent, so torch's divisor
 * is always the window size too).
 * The output extents cuDNN derives are checked against y's shape.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o avgpool-3d.so baselines/cudnn/avgpool-3d.cu -lcudnn
 * Napkin math (timed N=16, C=32, D=H=W=128 -> 64³): 4·N·C·(D·H·W + OD·OH·OW) = 4.83 GB,
 * ~1.1 ms at 4.26 TB/s. */
#include "pool-common.cuh"

/* tasks/L1/049-avgpool-3d/task.json params, in cuDNN's spatial order:
 * mode, x_rank, nsp, window, padding, stride, api_2d */
static const struct pool_spec pool = {CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING, 5, 3, {3, 3, 3}, {1, 1, 1}, {2, 2, 2}, 0};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return pool_forward(&pool, in, n_in, out, n_out, stream);
}
