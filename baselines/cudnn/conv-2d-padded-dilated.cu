/* baselines/cudnn/conv-2d-padded-dilated.cu — cuDNN baseline for
 * L1/063-conv2d-padded-dilated: y = conv2d(x, w, padding=2, dilation=2), NCHW f32, 3×3
 * filters, stride 1, no bias: x [N,C,H,W], w [F,C,3,3], y [N,F,H,W],
 * as cudnnConvolutionForward with CUDNN_FMA_MATH (strict fp32), algorithm found once
 * per shape (conv-common.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o conv-2d-padded-dilated.so baselines/cudnn/conv-2d-padded-dilated.cu -lcudnn
 * Napkin math (timed N=32, C=F=128, H=W=112): 2·N·F·H·W·C·9 = 118.4 GFLOP; 4·(NCHW + 9FC +
 * NFHW) = 412 MB (0.10 ms at 4.26 TB/s; 1.8 ms at the FFMA peak).
 * Estimate: cuDNN strict fp32, implicit GEMM or FFT: ~3–6 ms. */
#include "conv-common.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct conv_spec conv = {2, {3, 3}, {1, 1}, {2, 2}, {2, 2}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return conv_forward(&conv, in, n_in, out, n_out, stream);
}
