/* L2/078-convtranspose3d-max-max-sum reference:
 * ConvTranspose3d 5×5×5 stride 2 (padding 2), MaxPool3d 2, MaxPool3d 3, sum over channels.
 * Chain: conv_transpose3d k5 s2 p2 + b, then one naive kernel per operator as eager PyTorch runs
 * them (struct l2d_t078 in tasks/common/epilogue-conv3d.cuh, shared with the cuDNN baselines).
 * cua_solve: L1's naive fp32 transposed-conv kernel (conv-transpose.cuh), the conv bias as its own
 * kernel, then the epilogue kernels of epilogue.cuh / poolnd.cuh in fp32, intermediates in
 * cudaMallocAsync'd scratch. cua_oracle: the same chain in fp64, the conv as the tiled fp64
 * implicit GEMM of conv3d-oracle.cuh (8× the useful FMAs, for the stride-2 taps it walks).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o ref.so tasks/L2/078-convtranspose3d-max-max-sum/reference.cu
 * Napkin math (timed N=16 C=32 F=64 D=32 H=32 W=32): 268.9 GFLOP, 68 MB moved by a fused kernel.
 * Tolerance atol 0.0002, rtol 0.0001: a sum over 64 channels of maxima of the conv: the conv's
 * ~1e-6 error summed over the channels, with margin (estimated; to be measured on the H200). */
#include "cuarena.h"
#include "epilogue-conv3d.cuh"

L2D_REFERENCE(l2d_t078)
