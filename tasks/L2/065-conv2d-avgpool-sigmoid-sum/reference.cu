/* L2/065-conv2d-avgpool-sigmoid-sum reference: Conv2d 3×3, AvgPool 4, sigmoid, sum.
 * Chain: conv2d k3 + b, then one naive kernel per operator as eager PyTorch runs them (struct
 * l2c_t065 in tasks/common/epilogue-conv.cuh, shared with the cuDNN baselines). cua_solve: L1's
 * naive fp32 conv kernel (conv2d.cuh), the conv bias as its own kernel, then the epilogue kernels
 * of epilogue.cuh in fp32, intermediates in cudaMallocAsync'd scratch. cua_oracle: the same chain
 * in fp64, the conv as the tiled fp64 implicit GEMM of conv-oracle.cuh (172 GFLOP of fp64 FMAs).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o ref.so tasks/L2/065-conv2d-avgpool-sigmoid-sum/reference.cu
 * Napkin math (timed N=128 C=8 F=64 H=384 W=384): 173.3 GFLOP, 604 MB moved by a fused kernel.
 * Tolerance atol 0.001, rtol 1e-05: the output averages many conv outputs, so fp32 errors average
 * out while regenerating one input moves it by ~1e-3 relative: tight enough for the
 * non-degeneracy checks, with margin over fp32 summation error (estimated; to be measured on the
 * H200). */
#include "cuarena.h"
#include "epilogue-conv.cuh"

L2C_REFERENCE(l2c_t065)
