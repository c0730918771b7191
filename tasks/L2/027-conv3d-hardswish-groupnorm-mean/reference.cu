/* L2/027-conv3d-hardswish-groupnorm-mean reference:
 * Conv3d 4×4×4, HardSwish, GroupNorm(4), mean over (D, H, W).
 * Chain: conv3d k4 + b, then one naive kernel per operator as eager PyTorch runs them (struct
 * l2d_t027 in tasks/common/epilogue-conv3d.cuh, shared with the cuDNN baselines). cua_solve: L1's
 * naive fp32 conv kernel (convnd.cuh), the conv bias as its own kernel, then the epilogue kernels
 * of epilogue.cuh / poolnd.cuh in fp32, intermediates in cudaMallocAsync'd scratch. cua_oracle:
 * the same chain in fp64, the conv as the tiled fp64 implicit GEMM of conv3d-oracle.cuh.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o ref.so tasks/L2/027-conv3d-hardswish-groupnorm-mean/reference.cu
 * Napkin math (timed N=1024 C=3 F=16 D=16 H=32 W=32): 71.3 GFLOP, 201 MB moved by a fused kernel.
 * Tolerance atol 2e-05, rtol 1e-05: per-channel means of a group norm: the normalised values err
 * by ~1e-6 and their means by less; a new x moves the output by ~1e-3, which the tolerance must
 * stay far under (estimated; to be measured on the H200). */
#include "cuarena.h"
#include "epilogue-conv3d.cuh"

L2D_REFERENCE(l2d_t027)
