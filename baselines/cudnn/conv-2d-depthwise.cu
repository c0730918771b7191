/* baselines/cudnn/conv-2d-depthwise.cu — cuDNN baseline for L1/067-conv2d-depthwise: y =
 * conv2d(x, w, padding=1, groups=C), NCHW f32, one 3×3 filter per channel, stride 1, no
 * bias: x [N,C,H,W], w [C,1,3,3], y [N,C,H,W],
 * as cudnnConvolutionForward with CUDNN_FMA_MATH (strict fp32), algorithm found once
 * per shape (conv-common.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o conv-2d-depthwise.so baselines/cudnn/conv-2d-depthwise.cu -lcudnn
 * Napkin math (timed N=64, C=256, H=W=192): 2·NCHW·9 = 10.9 GFLOP; 4·(2·NCHW + 9C) = 4832 MB,
 * memory bound: 1.13 ms at 4.26 TB/s (the SOL).
 * Estimate: cuDNN strict fp32 depthwise kernel: ~1.3–2.5 ms. */
#include "conv-common.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct conv_spec conv = {2, {3, 3}, {1, 1}, {1, 1}, {1, 1}, 0};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return conv_forward(&conv, in, n_in, out, n_out, stream);
}
