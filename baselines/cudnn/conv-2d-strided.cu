/* baselines/cudnn/conv-2d-strided.cu — cuDNN baseline for X/003-conv2d-strided: y =
 * conv2d(x, w, stride=2, padding=1), NCHW f32, 3×3 filters, no bias: x [N,C,H,W],
 * w [F,C,3,3], y [N,F,(H-1)/2+1,(W-1)/2+1],
 * as cudnnConvolutionForward with CUDNN_FMA_MATH (strict fp32), algorithm found once
 * per shape (conv-common.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o conv-2d-strided.so baselines/cudnn/conv-2d-strided.cu -lcudnn
 * Napkin math (timed N=32, C=128, F=256, H=W=128 → 64×64): 2·N·F·64·64·C·9 = 77.3 GFLOP;
 * 4·(NCHW + 9FC + NF·64·64) = 404 MB (0.09 ms at 4.26 TB/s; 1.2 ms at the FFMA peak).
 * Estimate: cuDNN strict fp32, implicit GEMM: ~2.5–4 ms. */
#include "conv-common.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct conv_spec conv = {2, {3, 3}, {2, 2}, {1, 1}, {1, 1}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return conv_forward(&conv, in, n_in, out, n_out, stream);
}
