/* baselines/cudnn/maxpool-2d.cu — cuDNN baseline for L1/045-maxpool-2d: 2-D max
 * pooling of x [N,C,H,W] f32 (NCHW), window 3, stride 2, padding 1, floor mode,
 * as cudnnPoolingForward(CUDNN_POOLING_MAX); cuDNN's padded cells never win a
 * max. The output extents cuDNN derives are checked against y's shape.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o maxpool-2d.so baselines/cudnn/maxpool-2d.cu -lcudnn
 * Napkin math (timed N=C=64, H=W=512): 4·N·C·(H·W + 256·256) = 5.37 GB,
 * ~1.25 ms at 4.3 TB/s. */
#include "pool-common.cuh"

/* tasks/L1/045-maxpool-2d/task.json params K = 3, S = 2, P = 1, through the 2-D calls:
 * mode, x_rank, nsp, window, padding, stride, api_2d */
static const struct pool_spec pool = {CUDNN_POOLING_MAX, 4, 2, {3, 3}, {1, 1}, {2, 2}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return pool_forward(&pool, in, n_in, out, n_out, stream);
}
