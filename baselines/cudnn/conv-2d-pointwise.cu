/* baselines/cudnn/conv-2d-pointwise.cu — cuDNN baseline for L1/066-conv2d-pointwise: y =
 * conv2d(x, w), NCHW f32, 1×1 filters, stride 1, no padding, no bias: x [N,C,H,W],
 * w [F,C,1,1], y [N,F,H,W],
 * as cudnnConvolutionForward with CUDNN_FMA_MATH (strict fp32), algorithm found once
 * per shape (conv-common.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o conv-2d-pointwise.so baselines/cudnn/conv-2d-pointwise.cu -lcudnn
 * Napkin math (timed N=64, C=256, F=512, H=W=64): 2·N·F·H·W·C = 68.7 GFLOP; 4·(NCHW + FC +
 * NFHW) = 806 MB (0.19 ms at 4.26 TB/s; 1.03 ms at the FFMA peak, the SOL).
 * Estimate: cuDNN strict fp32, a GEMM per image at 25–40 TFLOP/s: ~1.7–3 ms. */
#include "conv-common.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct conv_spec conv = {2, {1, 1}, {1, 1}, {0, 0}, {1, 1}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return conv_forward(&conv, in, n_in, out, n_out, stream);
}
