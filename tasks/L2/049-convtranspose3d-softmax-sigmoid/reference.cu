/* L2/049-convtranspose3d-softmax-sigmoid reference:
 * ConvTranspose3d 3×3×3 stride 2, Softmax over channels, Sigmoid.
 * Chain: conv_transpose3d k3 s2 p1 op1 + b, then one naive kernel per operator as eager PyTorch
 * runs them (struct l2d_t049 in tasks/common/epilogue-conv3d.cuh, shared with the cuDNN
 * baselines). cua_solve: L1's naive fp32 transposed-conv kernel (conv-transpose.cuh), the conv
 * bias as its own kernel, then the epilogue kernels of epilogue.cuh / poolnd.cuh in fp32,
 * intermediates in cudaMallocAsync'd scratch. cua_oracle: the same chain in fp64, the conv as the
 * tiled fp64 implicit GEMM of conv3d-oracle.cuh (8× the useful FMAs, for the stride-2 taps it
 * walks).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o ref.so tasks/L2/049-convtranspose3d-softmax-sigmoid/reference.cu
 * Napkin math (timed N=16 C=32 F=64 D=16 H=32 W=32): 29.8 GFLOP, 571 MB moved by a fused kernel.
 * Tolerance atol 2e-06, rtol 1e-06: sigmoid of softmax values of ~1/64: the fp32 softmax errs by
 * ~1e-8 absolute and the sigmoid near 0.5 by ~6e-8; y varies by ~1e-3 with x, so the tolerance
 * must stay far under that (estimated; to be measured on the H200). */
#include "cuarena.h"
#include "epilogue-conv3d.cuh"

L2D_REFERENCE(l2d_t049)
