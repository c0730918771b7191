/* baselines/cudnn/conv-2d-asymmetric-input.cu — cuDNN baseline for
 * L1/060-conv2d-asymmetric-input: y = conv2d(x, w), NCHW f32, 3×3 kernel, stride 1, no
 * padding, no bias, on a non-square input: x [N,C,H,W], w [F,C,3,3], y [N,F,H-2,W-2],
 * as cudnnConvolutionForward with CUDNN_FMA_MATH (strict fp32), algorithm found once
 * per shape (conv-common.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o conv-2d-asymmetric-input.so baselines/cudnn/conv-2d-asymmetric-input.cu -lcudnn
 * Napkin math (timed N=16, C=F=128, H=64, W=384): 2·N·F·62·382·C·9 = 111.8 GFLOP; 4·(NCHW +
 * 9FC + NF·62·382) = 396 MB (0.09 ms at 4.26 TB/s; 1.7 ms at the FFMA peak).
 * Estimate: cuDNN strict fp32, implicit GEMM / FFT / Winograd: ~2.5–5 ms. */
#include "conv-common.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct conv_spec conv = {2, {3, 3}, {1, 1}, {0, 0}, {1, 1}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return conv_forward(&conv, in, n_in, out, n_out, stream);
}
