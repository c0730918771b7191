/* baselines/cudnn/conv-2d-asymmetric-kernel.cu — cuDNN baseline for
 * L1/059-conv2d-asymmetric-kernel: y = conv2d(x, w), NCHW f32, 3×5 kernel, stride 1, no
 * padding, no bias: x [N,C,H,W], w [F,C,3,5], y [N,F,H-2,W-4],
 * as cudnnConvolutionForward with CUDNN_FMA_MATH (strict fp32), algorithm found once
 * per shape (conv-common.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o conv-2d-asymmetric-kernel.so baselines/cudnn/conv-2d-asymmetric-kernel.cu -lcudnn
 * Napkin math (timed N=8, C=64, F=128, H=W=256): 2·N·F·254·252·C·15 = 125.8 GFLOP; 4·(NCHW +
 * 15FC + NF·254·252) = 397 MB (0.09 ms at 4.26 TB/s; 1.9 ms at the FFMA peak).
 * Estimate: cuDNN strict fp32, implicit GEMM or FFT: ~3–6 ms. */
#include "conv-common.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct conv_spec conv = {2, {3, 5}, {1, 1}, {0, 0}, {1, 1}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return conv_forward(&conv, in, n_in, out, n_out, stream);
}
