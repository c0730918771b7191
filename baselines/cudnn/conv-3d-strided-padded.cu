/* baselines/cudnn/conv-3d-strided-padded.cu — cuDNN baseline for
 * X/006-conv3d-strided-padded: y = conv3d(x, w, stride=2, padding=1), NCDHW f32, 3×3×3
 * filters, no bias: x [N,C,D,H,W], w [F,C,3,3,3], y [N,F,(D-1)/2+1,(H-1)/2+1,(W-1)/2+1],
 * as cudnnConvolutionForward with CUDNN_FMA_MATH (strict fp32), algorithm found once
 * per shape (conv-common.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o conv-3d-strided-padded.so baselines/cudnn/conv-3d-strided-padded.cu -lcudnn
 * Napkin math (timed N=8, C=64, F=128, D=H=W=64 → 32³): 2·N·F·32³·C·27 = 116.0 GFLOP; 4·(NCDHW
 * + 27FC + NF·32³) = 672 MB (0.16 ms at 4.26 TB/s; 1.7 ms at the FFMA peak).
 * Estimate: cuDNN strict fp32 3-D implicit GEMM: ~4–8 ms. */
#include "conv-common.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct conv_spec conv = {3, {3, 3, 3}, {2, 2, 2}, {1, 1, 1}, {1, 1, 1}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return conv_forward(&conv, in, n_in, out, n_out, stream);
}
