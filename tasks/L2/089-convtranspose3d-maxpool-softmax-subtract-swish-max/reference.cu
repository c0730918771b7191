/* L2/089-convtranspose3d-maxpool-softmax-subtract-swish-max reference:
 * ConvTranspose3d 3×3×3 stride 2, MaxPool3d 2, Softmax over channels, − subtract, Swish, max over
 * channels.
 * Chain: conv_transpose3d k3 s2 p1 op1 + b, then one naive kernel per operator as eager PyTorch
 * runs them (struct l2d_t089 in tasks/common/epilogue-conv3d.cuh, shared with the cuDNN
 * baselines). cua_solve: L1's naive fp32 transposed-conv kernel (conv-transpose.cuh), the conv
 * bias as its own kernel, then the epilogue kernels of epilogue.cuh / poolnd.cuh in fp32,
 * intermediates in cudaMallocAsync'd scratch. cua_oracle: the same chain in fp64, the conv as the
 * tiled fp64 implicit GEMM of conv3d-oracle.cuh (8× the useful FMAs, for the stride-2 taps it
 * walks).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o ref.so tasks/L2/089-convtranspose3d-maxpool-softmax-subtract-swish-max/reference.cu
 * Napkin math (timed N=128 C=3 F=16 D=16 H=32 W=32): 7.6 GFLOP, 34 MB moved by a fused kernel.
 * Tolerance atol 2e-05, rtol 0.0001: softmax values of ~1/16 shifted by N(0, 1) values: the
 * softmax's ~1e-7 relative error passes through the swish, with margin (estimated; to be measured
 * on the H200). */
#include "cuarena.h"
#include "epilogue-conv3d.cuh"

L2D_REFERENCE(l2d_t089)
