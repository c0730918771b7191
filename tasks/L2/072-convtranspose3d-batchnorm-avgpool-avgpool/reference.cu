/* L2/072-convtranspose3d-batchnorm-avgpool-avgpool reference:
 * ConvTranspose3d 3×3×3 stride 2 (no bias), BatchNorm3d, AvgPool3d 2, AvgPool3d 2.
 * Chain: conv_transpose3d k3 s2 p1 (no bias), then one naive kernel per operator as eager PyTorch
 * runs them (struct l2d_t072 in tasks/common/epilogue-conv3d.cuh, shared with the cuDNN
 * baselines). cua_solve: L1's naive fp32 transposed-conv kernel (conv-transpose.cuh), then the
 * epilogue kernels of epilogue.cuh / poolnd.cuh in fp32, intermediates in cudaMallocAsync'd
 * scratch. cua_oracle: the same chain in fp64, the conv as the tiled fp64 implicit GEMM of
 * conv3d-oracle.cuh (8× the useful FMAs, for the stride-2 taps it walks).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o ref.so tasks/L2/072-convtranspose3d-batchnorm-avgpool-avgpool/reference.cu
 * Napkin math (timed N=64 C=3 F=16 D=32 H=32 W=32): 8.0 GFLOP, 39 MB moved by a fused kernel.
 * Tolerance atol 0.001, rtol 0.001: a normalisation divides by a standard deviation of ~0.05–0.2,
 * amplifying the conv's fp32 error 5–20× (estimated; to be measured on the H200). */
#include "cuarena.h"
#include "epilogue-conv3d.cuh"

L2D_REFERENCE(l2d_t072)
