/* baselines/cudnn/l1-084.cu — cuDNN baseline for L1/084-conv-depthwise-2d-asymmetric-input-square-kernel:
 * y = conv2d(x, w, groups=x.shape[1]), f32, no bias, as
 * cudnnConvolutionForward with CUDNN_FMA_MATH (strict fp32: no TF32
 * tensor cores), algorithm found once per shape (conv-common.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o l1-084.so baselines/cudnn/l1-084.cu -lcudnn
 * Napkin math (timed N=64, C=128, H=256, W=512): 19.1 GFLOP; 8.54 GB moved at the floor
 * (2 ms at 4.3 TB/s; 0.29 ms at the 67 TFLOP/s FFMA peak). */
#include "conv-common.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct conv_spec conv = {2, {3, 3}, {1, 1}, {0, 0}, {1, 1}, 0};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return conv_forward(&conv, in, n_in, out, n_out, stream);
}
