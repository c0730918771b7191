/* L2/048-conv3d-scaling-tanh-multiply-sigmoid reference:
 * Conv3d 3×3×3, · scale, tanh, · bias, Sigmoid.
 * Chain: conv3d k3 + b, then one naive kernel per operator as eager PyTorch runs them (struct
 * l2d_t048 in tasks/common/epilogue-conv3d.cuh, shared with the cuDNN baselines). cua_solve: L1's
 * naive fp32 conv kernel (convnd.cuh), the conv bias as its own kernel, then the epilogue kernels
 * of epilogue.cuh / poolnd.cuh in fp32, intermediates in cudaMallocAsync'd scratch. cua_oracle:
 * the same chain in fp64, the conv as the tiled fp64 implicit GEMM of conv3d-oracle.cuh.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o ref.so tasks/L2/048-conv3d-scaling-tanh-multiply-sigmoid/reference.cu
 * Napkin math (timed N=128 C=3 F=16 D=16 H=64 W=64): 18.7 GFLOP, 542 MB moved by a fused kernel.
 * Tolerance atol 0.0002, rtol 0.0002: an elementwise epilogue on conv outputs of magnitude ~0.1–1,
 * where an fp32 conv errs by ~1e-6 (L1's 3-D conv tolerances scaled by the output magnitude), with
 * margin (estimated; to be measured on the H200). */
#include "cuarena.h"
#include "epilogue-conv3d.cuh"

L2D_REFERENCE(l2d_t048)
