/* L2/008-conv3d-divide-max-globalavgpool-biasadd-sum reference:
 * Conv3d 3×3×3, / 2, MaxPool3d 2, global average pool, + bias, sum over channels.
 * Chain: conv3d k3 + b, then one naive kernel per operator as eager PyTorch runs them (struct
 * l2d_t008 in tasks/common/epilogue-conv3d.cuh, shared with the cuDNN baselines). cua_solve: L1's
 * naive fp32 conv kernel (convnd.cuh), the conv bias as its own kernel, then the epilogue kernels
 * of epilogue.cuh / poolnd.cuh in fp32, intermediates in cudaMallocAsync'd scratch. cua_oracle:
 * the same chain in fp64, the conv as the tiled fp64 implicit GEMM of conv3d-oracle.cuh.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o ref.so tasks/L2/008-conv3d-divide-max-globalavgpool-biasadd-sum/reference.cu
 * Napkin math (timed N=128 C=8 F=16 D=16 H=64 W=64): 47.9 GFLOP, 268 MB moved by a fused kernel.
 * Tolerance atol 2e-05, rtol 1e-05: a sum of 16 channel means of ~±1 (the bias dominates): the
 * fp32 means err by ~1e-7 relative, and a new x moves the output by ~1e-3, which the tolerance
 * must stay far under (estimated; to be measured on the H200). */
#include "cuarena.h"
#include "epilogue-conv3d.cuh"

L2D_REFERENCE(l2d_t008)
