/* L2/043-conv3d-max-logsumexp-relu reference:
 * Conv3d 3×3×3 (padding 1), MaxPool3d 2, LogSumExp over channels, ReLU.
 * Chain: conv3d k3 p1 + b, then one naive kernel per operator as eager PyTorch runs them (struct
 * l2d_t043 in tasks/common/epilogue-conv3d.cuh, shared with the cuDNN baselines). cua_solve: L1's
 * naive fp32 conv kernel (convnd.cuh), the conv bias as its own kernel, then the epilogue kernels
 * of epilogue.cuh / poolnd.cuh in fp32, intermediates in cudaMallocAsync'd scratch. cua_oracle:
 * the same chain in fp64, the conv as the tiled fp64 implicit GEMM of conv3d-oracle.cuh.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o ref.so tasks/L2/043-conv3d-max-logsumexp-relu/reference.cu
 * Napkin math (timed N=4 C=32 F=64 D=32 H=128 W=128): 232.5 GFLOP, 270 MB moved by a fused kernel.
 * Tolerance atol 0.0001, rtol 0.0001: a logsumexp of ~4 over 64 channels: the fp32 conv's ~1e-6
 * error passes through, the log and exp add ~1e-6 relative, with margin (estimated; to be measured
 * on the H200). */
#include "cuarena.h"
#include "epilogue-conv3d.cuh"

L2D_REFERENCE(l2d_t043)
