/* baselines/cudnn/conv-1d.cu — cuDNN baseline for L1/057-conv1d: y = conv1d(x, w), NCL f32,
 * kernel 3, stride 1, no padding, dilation 1, no bias: x [N,C,L], w [F,C,3], y [N,F,L-2],
 * as cudnnConvolutionForward with CUDNN_FMA_MATH (strict fp32), algorithm found once
 * per shape (conv-common.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o conv-1d.so baselines/cudnn/conv-1d.cu -lcudnn
 * Napkin math (timed N=32, C=F=256, L=8192): 2·N·F·(L-2)·C·3 = 103.1 GFLOP; 4·(NCL + 3FC +
 * NF(L-2)) = 538 MB (0.13 ms at 4.26 TB/s, the "bytes" SOL; 1.5 ms at the 66.9 TFLOP/s FFMA
 * peak).
 * Estimate: cuDNN strict fp32 (1-D as 2-D, H = 1), implicit GEMM at 20–35 TFLOP/s: ~3–5 ms. */
#include "conv-common.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct conv_spec conv = {1, {3}, {1}, {0}, {1}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return conv_forward(&conv, in, n_in, out, n_out, stream);
}
