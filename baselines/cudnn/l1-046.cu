/* baselines/cudnn/l1-046.cu — cuDNN baseline for L1/046-average-pooling-3d: y = avg_pool3d(x, 3, stride=2, padding=1),
 * f32, window 3, stride 2, padding 1, floor mode, as cudnnPoolingForward(CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING: the padded zeros count in the divisor).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o l1-046.so baselines/cudnn/l1-046.cu -lcudnn
 * Napkin math (timed N=16, C=32, D=128, H=128, W=256): 9.66 GB moved, ~2.2 ms at 4.3 TB/s. */
#include "pool-common.cuh"

/* tasks/L1/046-average-pooling-3d/task.json params, in cuDNN's spatial order (a 1-D task has H = 1 in front of L):
 * mode, x_rank, nsp, window, padding, stride, api_2d */
static const struct pool_spec pool = {CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING, 5, 3, {3, 3, 3}, {1, 1, 1}, {2, 2, 2}, 0};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return pool_forward(&pool, in, n_in, out, n_out, stream);
}
