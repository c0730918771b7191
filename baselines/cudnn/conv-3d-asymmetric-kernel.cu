/* baselines/cudnn/conv-3d-asymmetric-kernel.cu — cuDNN baseline for
 * L1/071-conv3d-asymmetric-kernel: y = conv3d(x, w), NCDHW f32, 3×5×7 kernel, stride 1, no
 * padding, no bias: x [N,C,D,H,W], w [F,C,3,5,7], y [N,F,D-2,H-4,W-6],
 * as cudnnConvolutionForward with CUDNN_FMA_MATH (strict fp32), algorithm found once
 * per shape (conv-common.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o conv-3d-asymmetric-kernel.so baselines/cudnn/conv-3d-asymmetric-kernel.cu -lcudnn
 * Napkin math (timed N=4, C=32, F=48, D=H=W=48 → 46×44×42): 2·N·F·46·44·42·C·105 = 109.7
 * GFLOP; 4·(NCDHW + 105FC + NF·46·44·42) = 123 MB (0.03 ms at 4.26 TB/s; 1.6 ms at the FFMA
 * peak).
 * Estimate: cuDNN strict fp32 3-D implicit GEMM: ~4–11 ms. */
#include "conv-common.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct conv_spec conv = {3, {3, 5, 7}, {1, 1, 1}, {0, 0, 0}, {1, 1, 1}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return conv_forward(&conv, in, n_in, out, n_out, stream);
}
