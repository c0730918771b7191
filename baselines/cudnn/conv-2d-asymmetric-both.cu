/* baselines/cudnn/conv-2d-asymmetric-both.cu — cuDNN baseline for
 * L1/061-conv2d-asymmetric-both: y = conv2d(x, w, padding=(2, 1)), NCHW f32, 5×3 kernel,
 * stride 1, no bias, on a non-square input: x [N,C,H,W], w [F,C,5,3], y [N,F,H,W],
 * as cudnnConvolutionForward with CUDNN_FMA_MATH (strict fp32), algorithm found once
 * per shape (conv-common.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o conv-2d-asymmetric-both.so baselines/cudnn/conv-2d-asymmetric-both.cu -lcudnn
 * Napkin math (timed N=8, C=F=128, H=128, W=256): 2·N·F·H·W·C·15 = 128.8 GFLOP; 4·(NCHW + 15FC
 * + NFHW) = 269 MB (0.06 ms at 4.26 TB/s; 1.9 ms at the FFMA peak).
 * Estimate: cuDNN strict fp32, implicit GEMM or FFT: ~3–6 ms. */
#include "conv-common.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct conv_spec conv = {2, {5, 3}, {1, 1}, {2, 1}, {1, 1}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return conv_forward(&conv, in, n_in, out, n_out, stream);
}
