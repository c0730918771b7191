/* baselines/cudnn/conv2d.cu — cuDNN baseline for L1/056-conv2d-3x3: y = conv2d(x, w),
 * NCHW f32, 3×3 filters, stride 1, zero padding 1, dilation 1, no bias:
 * x [N,C,H,W], w [F,C,3,3], y [N,F,H,W], as cudnnConvolutionForward with
 * CUDNN_FMA_MATH (strict fp32: no TF32 tensor cores), algorithm found once per
 * shape by cudnnFindConvolutionForwardAlgorithmEx and cached (conv-common.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o conv2d.so baselines/cudnn/conv2d.cu -lcudnn
 * Napkin math (timed N=32, C=F=128, H=W=128): 2·N·F·H·W·C·9 = 154.6 GFLOP,
 * 537 MB. Measured on an H200, Find picks FFT_TILING at ~2.0 ms (77 "direct"
 * TFLOP/s, above the fp32 FMA peak: fewer real flops); implicit GEMM ~3.9 ms. */
#include "conv-common.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups */
static const struct conv_spec conv = {2, {3, 3}, {1, 1}, {1, 1}, {1, 1}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return conv_forward(&conv, in, n_in, out, n_out, stream);
}
