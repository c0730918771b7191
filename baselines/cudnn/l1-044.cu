/* baselines/cudnn/l1-044.cu — cuDNN baseline for L1/044-average-pooling-1d: y = avg_pool1d(x, 8, stride=1, padding=4),
 * f32, window 8, stride 1, padding 4, floor mode, as cudnnPoolingForward(CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING: the padded zeros count in the divisor).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o l1-044.so baselines/cudnn/l1-044.cu -lcudnn
 * Napkin math (timed N=64, C=128, L=65536): 4.3 GB moved, ~1 ms at 4.3 TB/s. */
#include "pool-common.cuh"

/* tasks/L1/044-average-pooling-1d/task.json params, in cuDNN's spatial order (a 1-D task has H = 1 in front of L):
 * mode, x_rank, nsp, window, padding, stride, api_2d */
static const struct pool_spec pool = {CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING, 3, 2, {1, 8}, {0, 4}, {1, 1}, 0};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return pool_forward(&pool, in, n_in, out, n_out, stream);
}
