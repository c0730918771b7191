/* baselines/cudnn/l1-045.cu — cuDNN baseline for L1/045-average-pooling-2d: y = avg_pool2d(x, 11),
 * f32, window 11, stride 11, padding 0, floor mode, as cudnnPoolingForward(CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING: the padded zeros count in the divisor).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o l1-045.so baselines/cudnn/l1-045.cu -lcudnn
 * Napkin math (timed N=16, C=64, H=2048, W=2048): 17.3 GB moved, ~4 ms at 4.3 TB/s. */
#include "pool-common.cuh"

/* tasks/L1/045-average-pooling-2d/task.json params, in cuDNN's spatial order (a 1-D task has H = 1 in front of L):
 * mode, x_rank, nsp, window, padding, stride, api_2d */
static const struct pool_spec pool = {CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING, 4, 2, {11, 11}, {0, 0}, {11, 11}, 0};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return pool_forward(&pool, in, n_in, out, n_out, stream);
}
