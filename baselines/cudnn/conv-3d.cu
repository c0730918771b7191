/* baselines/cudnn/conv-3d.cu — cuDNN baseline for L1/070-conv3d: y = conv3d(x, w,
 * padding=1), NCDHW f32, 3×3×3 filters, stride 1, no bias: x [N,C,D,H,W], w [F,C,3,3,3],
 * y [N,F,D,H,W],
 * as cudnnConvolutionForward with CUDNN_FMA_MATH (strict fp32), algorithm found once
 * per shape (conv-common.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o conv-3d.so baselines/cudnn/conv-3d.cu -lcudnn
 * Napkin math (timed N=4, C=F=64, D=H=W=48): 2·N·F·DHW·C·27 = 97.8 GFLOP; 4·(NCDHW + 27FC +
 * NFDHW) = 227 MB (0.05 ms at 4.26 TB/s; 1.5 ms at the FFMA peak).
 * Estimate: cuDNN strict fp32 3-D implicit GEMM: ~3–8 ms. */
#include "conv-common.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct conv_spec conv = {3, {3, 3, 3}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return conv_forward(&conv, in, n_in, out, n_out, stream);
}
