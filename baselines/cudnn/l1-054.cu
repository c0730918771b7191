/* baselines/cudnn/l1-054.cu — cuDNN baseline for L1/054-conv-standard-3d-square-input-square-kernel:
 * y = conv3d(x, w), f32, no bias, as
 * cudnnConvolutionForward with CUDNN_FMA_MATH (strict fp32: no TF32
 * tensor cores), algorithm found once per shape (conv-common.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o l1-054.so baselines/cudnn/l1-054.cu -lcudnn
 * Napkin math (timed N=16, C=3, F=64, D=64, H=64, W=64): 39.5 GFLOP; 1.03 GB moved at the floor
 * (0.24 ms at 4.3 TB/s; 0.59 ms at the 67 TFLOP/s FFMA peak). */
#include "conv-common.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct conv_spec conv = {3, {3, 3, 3}, {1, 1, 1}, {0, 0, 0}, {1, 1, 1}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return conv_forward(&conv, in, n_in, out, n_out, stream);
}
