/* baselines/cudnn/avgpool-2d.cu — cuDNN baseline for L1/048-avgpool-2d:
 * 2-D average pooling of x [N,C,H,W] f32 (NCHW), window 3,
 * stride 3, padding 0, floor mode,
 * as cudnnPoolingForward(CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING).
 * Without padding both of cuDNN's average modes divide by 9, as torch does.
 * The output extents cuDNN derives are checked against y's shape.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o avgpool-2d.so baselines/cudnn/avgpool-2d.cu -lcudnn
 * Napkin math (timed N=C=64, H=W=512 -> 170×170): 4·N·C·(H·W + OH·OW) = 4.77 GB,
 * ~1.1 ms at 4.26 TB/s. */
#include "pool-common.cuh"

/* tasks/L1/048-avgpool-2d/task.json params, in cuDNN's spatial order:
 * mode, x_rank, nsp, window, padding, stride, api_2d */
static const struct pool_spec pool = {CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING, 4, 2, {3, 3}, {0, 0}, {3, 3}, 0};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return pool_forward(&pool, in, n_in, out, n_out, stream);
}
