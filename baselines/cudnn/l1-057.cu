/* baselines/cudnn/l1-057.cu — cuDNN baseline for L1/057-conv-transposed-2d-square-input-square-kernel:
 * y = conv_transpose2d(x, w), f32, no bias, as
 * cudnnConvolutionBackwardData with CUDNN_FMA_MATH (strict fp32); see
 * conv-transpose-common.cuh for the mapping and the algorithm choice.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o l1-057.so baselines/cudnn/l1-057.cu -lcudnn
 * Napkin math (timed N=8, C=64, F=64, H=1024, W=1024): 618 GFLOP of products; 4.3 GB moved at the floor
 * (1 ms at 4.3 TB/s; 9.2 ms at the 67 TFLOP/s FFMA peak). */
#include "conv-transpose-common.cuh"

/* task.json's hyper-parameters: spatial dims, kernel, stride, padding,
 * output padding, dilation (per dimension, outermost first), groups. */
static const struct convt_hp hp = {2, {3, 3}, {1, 1}, {0, 0}, {0, 0}, {1, 1}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return convt_cudnn(&hp, in, n_in, out, n_out, stream);
}
