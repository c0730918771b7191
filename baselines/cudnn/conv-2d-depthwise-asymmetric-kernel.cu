/* baselines/cudnn/conv-2d-depthwise-asymmetric-kernel.cu — cuDNN baseline for
 * L1/068-conv2d-depthwise-asymmetric-kernel: y = conv2d(x, w, groups=C), NCHW f32, one 3×7
 * filter per channel, stride 1, no padding, no bias: x [N,C,H,W], w [C,1,3,7],
 * y [N,C,H-2,W-6],
 * as cudnnConvolutionForward with CUDNN_FMA_MATH (strict fp32), algorithm found once
 * per shape (conv-common.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o conv-2d-depthwise-asymmetric-kernel.so baselines/cudnn/conv-2d-depthwise-asymmetric-kernel.cu -lcudnn
 * Napkin math (timed N=64, C=256, H=W=192 → 190×186): 2·NC·190·186·21 = 24.3 GFLOP; 4·(NCHW +
 * 21C + NC·190·186) = 4732 MB, memory bound: 1.11 ms at 4.26 TB/s (the SOL).
 * Estimate: cuDNN strict fp32 depthwise kernel: ~1.3–3 ms. */
#include "conv-common.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct conv_spec conv = {2, {3, 7}, {1, 1}, {0, 0}, {1, 1}, 0};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return conv_forward(&conv, in, n_in, out, n_out, stream);
}
