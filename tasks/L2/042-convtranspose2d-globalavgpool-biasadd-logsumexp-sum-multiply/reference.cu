/* L2/042-convtranspose2d-globalavgpool-biasadd-logsumexp-sum-multiply reference: ConvTranspose2d 3×3, global average pool, + bias, logsumexp, sum, · 10.
 * Chain: conv_transpose2d k3 s1 p0 op0 + b, then one naive kernel per operator as eager PyTorch
 * runs them (struct l2c_t042 in tasks/common/epilogue-conv.cuh, shared with the cuDNN baselines).
 * cua_solve: L1's naive fp32 conv kernel (conv-transpose.cuh), the conv bias as its own kernel,
 * then the epilogue kernels of epilogue.cuh in fp32, intermediates in cudaMallocAsync'd scratch.
 * cua_oracle: the same chain in fp64, the conv as the tiled fp64 implicit GEMM of conv-oracle.cuh
 * (618 GFLOP of fp64 FMAs).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o ref.so tasks/L2/042-convtranspose2d-globalavgpool-biasadd-logsumexp-sum-multiply/reference.cu
 * Napkin math (timed N=16 C=64 F=128 H=512 W=512): 618.5 GFLOP, 1074 MB moved by a fused kernel.
 * Tolerance atol 5e-05, rtol 1e-06: the output averages many conv outputs, so fp32 errors average
 * out while regenerating one input moves it by ~1e-3 relative: tight enough for the
 * non-degeneracy checks, with margin over fp32 summation error (estimated; to be measured on the
 * H200). */
#include "cuarena.h"
#include "epilogue-conv.cuh"

L2C_REFERENCE(l2c_t042)
