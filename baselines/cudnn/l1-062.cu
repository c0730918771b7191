/* baselines/cudnn/l1-062.cu — cuDNN baseline for L1/062-conv-standard-2d-square-input-asymmetric-kernel:
 * y = conv2d(x, w), f32, no bias, as
 * cudnnConvolutionForward with CUDNN_FMA_MATH (strict fp32: no TF32
 * tensor cores), algorithm found once per shape (conv-common.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o l1-062.so baselines/cudnn/l1-062.cu -lcudnn
 * Napkin math (timed N=8, C=32, F=64, H=512, W=512): 378 GFLOP; 793 MB moved at the floor
 * (0.18 ms at 4.3 TB/s; 5.6 ms at the 67 TFLOP/s FFMA peak). */
#include "conv-common.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct conv_spec conv = {2, {5, 9}, {1, 1}, {0, 0}, {1, 1}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return conv_forward(&conv, in, n_in, out, n_out, stream);
}
