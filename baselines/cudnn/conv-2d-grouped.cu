/* baselines/cudnn/conv-2d-grouped.cu — cuDNN baseline for X/004-conv2d-grouped: y =
 * conv2d(x, w, padding=1, groups=4), NCHW f32, 3×3 filters, stride 1, no bias: x [N,C,H,W],
 * w [F,C/4,3,3], y [N,F,H,W],
 * as cudnnConvolutionForward with CUDNN_FMA_MATH (strict fp32), algorithm found once
 * per shape (conv-common.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o conv-2d-grouped.so baselines/cudnn/conv-2d-grouped.cu -lcudnn
 * Napkin math (timed N=32, C=F=256, H=W=96, 4 groups): 2·N·F·H·W·(C/4)·9 = 87.0 GFLOP; 4·(NCHW
 * + 9F·C/4 + NFHW) = 605 MB (0.14 ms at 4.26 TB/s; 1.3 ms at the FFMA peak).
 * Estimate: cuDNN strict fp32, grouped implicit GEMM / Winograd: ~3–9 ms. */
#include "conv-common.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct conv_spec conv = {2, {3, 3}, {1, 1}, {1, 1}, {1, 1}, 4};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return conv_forward(&conv, in, n_in, out, n_out, stream);
}
