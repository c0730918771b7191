/* L2/077-convtranspose3d-scale-batchnorm-globalavgpool reference:
 * ConvTranspose3d 5×5×5 (no bias), · 2, BatchNorm3d, global average pool.
 * Chain: conv_transpose3d k5 s1 p0 (no bias), then one naive kernel per operator as eager PyTorch
 * runs them (struct l2d_t077 in tasks/common/epilogue-conv3d.cuh, shared with the cuDNN
 * baselines). cua_solve: L1's naive fp32 transposed-conv kernel (conv-transpose.cuh), then the
 * epilogue kernels of epilogue.cuh / poolnd.cuh in fp32, intermediates in cudaMallocAsync'd
 * scratch. cua_oracle: the same chain in fp64, the conv as the tiled fp64 implicit GEMM of
 * conv3d-oracle.cuh.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o ref.so tasks/L2/077-convtranspose3d-scale-batchnorm-globalavgpool/reference.cu
 * Napkin math (timed N=16 C=64 F=128 D=16 H=32 W=32): 537.3 GFLOP, 71 MB moved by a fused kernel.
 * Tolerance atol 2e-05, rtol 1e-05: per-(n, f) means of a batch norm: the normalised values err by
 * ~1e-6 and their means by less; a new x moves the output by ~1e-3, which the tolerance must stay
 * far under (estimated; to be measured on the H200). */
#include "cuarena.h"
#include "epilogue-conv3d.cuh"

L2D_REFERENCE(l2d_t077)
