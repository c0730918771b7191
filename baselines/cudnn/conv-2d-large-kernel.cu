/* baselines/cudnn/conv-2d-large-kernel.cu — cuDNN baseline for X/005-conv2d-large-kernel:
 * y = conv2d(x, w, padding=3), NCHW f32, 7×7 filters, stride 1, no bias: x [N,C,H,W],
 * w [F,C,7,7], y [N,F,H,W],
 * as cudnnConvolutionForward with CUDNN_FMA_MATH (strict fp32), algorithm found once
 * per shape (conv-common.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o conv-2d-large-kernel.so baselines/cudnn/conv-2d-large-kernel.cu -lcudnn
 * Napkin math (timed N=16, C=F=64, H=W=128): 2·N·F·H·W·C·49 = 105.2 GFLOP; 4·(NCHW + 49FC +
 * NFHW) = 135 MB (0.03 ms at 4.26 TB/s; 1.6 ms at the FFMA peak).
 * Estimate: cuDNN strict fp32, FFT or implicit GEMM: ~2–5 ms. */
#include "conv-common.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct conv_spec conv = {2, {7, 7}, {1, 1}, {3, 3}, {1, 1}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return conv_forward(&conv, in, n_in, out, n_out, stream);
}
