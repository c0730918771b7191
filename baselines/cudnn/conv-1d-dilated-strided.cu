/* baselines/cudnn/conv-1d-dilated-strided.cu — cuDNN baseline for
 * L1/058-conv1d-dilated-strided: y = conv1d(x, w, stride=3, dilation=4), NCL f32, kernel 3,
 * no padding, no bias: x [N,C,L], w [F,C,3], y [N,F,OL], OL = (L-9)/3 + 1,
 * as cudnnConvolutionForward with CUDNN_FMA_MATH (strict fp32), algorithm found once
 * per shape (conv-common.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o conv-1d-dilated-strided.so baselines/cudnn/conv-1d-dilated-strided.cu -lcudnn
 * Napkin math (timed N=32, C=F=256, L=24576, OL=8190): 2·N·F·OL·C·3 = 103.1 GFLOP; 4·(NCL +
 * 3FC + NF·OL) = 1074 MB (0.25 ms at 4.26 TB/s; 1.5 ms at the FFMA peak, the SOL: no fast
 * algorithm applies, every window tap lands in its own phase mod 3).
 * Estimate: cuDNN strict fp32 (1-D as 2-D), implicit GEMM: ~3–6 ms. */
#include "conv-common.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct conv_spec conv = {1, {3}, {3}, {0}, {4}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return conv_forward(&conv, in, n_in, out, n_out, stream);
}
