/* baselines/cudnn/l1-042.cu — cuDNN baseline for L1/042-max-pooling-2d: y = max_pool2d(x, 4, stride=1, padding=1),
 * f32, window 4, stride 1, padding 1, floor mode, as cudnnPoolingForward(CUDNN_POOLING_MAX).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o l1-042.so baselines/cudnn/l1-042.cu -lcudnn
 * Napkin math (timed N=32, C=64, H=512, W=512): 4.29 GB moved, ~1 ms at 4.3 TB/s. */
#include "pool-common.cuh"

/* tasks/L1/042-max-pooling-2d/task.json params, in cuDNN's spatial order (a 1-D task has H = 1 in front of L):
 * mode, x_rank, nsp, window, padding, stride, api_2d */
static const struct pool_spec pool = {CUDNN_POOLING_MAX, 4, 2, {4, 4}, {1, 1}, {1, 1}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return pool_forward(&pool, in, n_in, out, n_out, stream);
}
