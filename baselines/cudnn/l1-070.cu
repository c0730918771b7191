/* baselines/cudnn/l1-070.cu — cuDNN baseline for L1/070-conv-transposed-3d-asymmetric-input-square-kernel:
 * y = conv_transpose3d(x, w), f32, no bias, as
 * cudnnConvolutionBackwardData with CUDNN_FMA_MATH (strict fp32); see
 * conv-transpose-common.cuh for the mapping and the algorithm choice.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o l1-070.so baselines/cudnn/l1-070.cu -lcudnn
 * Napkin math (timed N=8, C=48, F=24, D=96, H=96, W=96): 440 GFLOP of products; 2.08 GB moved at the floor
 * (0.48 ms at 4.3 TB/s; 6.6 ms at the 67 TFLOP/s FFMA peak). */
#include "conv-transpose-common.cuh"

/* task.json's hyper-parameters: spatial dims, kernel, stride, padding,
 * output padding, dilation (per dimension, outermost first), groups. */
static const struct convt_hp hp = {3, {3, 3, 3}, {1, 1, 1}, {0, 0, 0}, {0, 0, 0}, {1, 1, 1}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return convt_cudnn(&hp, in, n_in, out, n_out, stream);
}
