/* L2/024-conv3d-min-softmax reference:
 * Conv3d 3×3×3, min over depth, Softmax over channels.
 * Chain: conv3d k3 + b, then one naive kernel per operator as eager PyTorch runs them (struct
 * l2d_t024 in tasks/common/epilogue-conv3d.cuh, shared with the cuDNN baselines). cua_solve: L1's
 * naive fp32 conv kernel (convnd.cuh), the conv bias as its own kernel, then the epilogue kernels
 * of epilogue.cuh / poolnd.cuh in fp32, intermediates in cudaMallocAsync'd scratch. cua_oracle:
 * the same chain in fp64, the conv as the tiled fp64 implicit GEMM of conv3d-oracle.cuh.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o ref.so tasks/L2/024-conv3d-min-softmax/reference.cu
 * Napkin math (timed N=128 C=3 F=24 D=24 H=32 W=32): 10.2 GFLOP, 49 MB moved by a fused kernel.
 * Tolerance atol 1e-05, rtol 0.0001: softmax values of ~1/24: relative accuracy of the exp and the
 * sum, ~1e-6, with margin (estimated; to be measured on the H200). */
#include "cuarena.h"
#include "epilogue-conv3d.cuh"

L2D_REFERENCE(l2d_t024)
