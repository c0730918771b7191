/* baselines/cudnn/l1-080.cu — cuDNN baseline for L1/080-conv-standard-2d-square-input-asymmetric-kernel-dilated-padded:
 * y = conv2d(x, w, padding=(2, 4), dilation=(2, 3)), f32, no bias, as
 * cudnnConvolutionForward with CUDNN_FMA_MATH (strict fp32: no TF32
 * tensor cores), algorithm found once per shape (conv-common.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o l1-080.so baselines/cudnn/l1-080.cu -lcudnn
 * Napkin math (timed N=8, C=32, F=64, H=512, W=512): 372 GFLOP; 785 MB moved at the floor
 * (0.18 ms at 4.3 TB/s; 5.5 ms at the 67 TFLOP/s FFMA peak). */
#include "conv-common.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct conv_spec conv = {2, {5, 9}, {1, 1}, {2, 4}, {2, 3}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return conv_forward(&conv, in, n_in, out, n_out, stream);
}
