/* L2/023-conv3d-groupnorm-mean reference:
 * Conv3d 3×3×3, GroupNorm(8), mean over (C, D, H, W).
 * Chain: conv3d k3 + b, then one naive kernel per operator as eager PyTorch runs them (struct
 * l2d_t023 in tasks/common/epilogue-conv3d.cuh, shared with the cuDNN baselines). cua_solve: L1's
 * naive fp32 conv kernel (convnd.cuh), the conv bias as its own kernel, then the epilogue kernels
 * of epilogue.cuh / poolnd.cuh in fp32, intermediates in cudaMallocAsync'd scratch. cua_oracle:
 * the same chain in fp64, the conv as the tiled fp64 implicit GEMM of conv3d-oracle.cuh.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o ref.so tasks/L2/023-conv3d-groupnorm-mean/reference.cu
 * Napkin math (timed N=128 C=3 F=24 D=24 H=32 W=32): 10.5 GFLOP, 38 MB moved by a fused kernel.
 * Tolerance atol 1e-05, rtol 1e-05: one mean per sample of a group norm: the normalised values err
 * by ~1e-6 and their mean by less (the group statistics' fp32 error, ≲ 3e-6, is what remains); a
 * new x moves the output by ~2e-4 at the timed shape (a NumPy model at N = 4: 19× this tolerance),
 * which the tolerance must stay far under (estimated; to be measured on the H200). */
#include "cuarena.h"
#include "epilogue-conv3d.cuh"

L2D_REFERENCE(l2d_t023)
