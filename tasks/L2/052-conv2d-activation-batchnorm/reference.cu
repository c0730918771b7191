/* L2/052-conv2d-activation-batchnorm reference: Conv2d 3×3, tanh(softplus(x))·x, BatchNorm (batch statistics).
 * Chain: conv2d k3 + b, then one naive kernel per operator as eager PyTorch runs them (struct
 * l2c_t052 in tasks/common/epilogue-conv.cuh, shared with the cuDNN baselines). cua_solve: L1's
 * naive fp32 conv kernel (conv2d.cuh), the conv bias as its own kernel, then the epilogue kernels
 * of epilogue.cuh in fp32, intermediates in cudaMallocAsync'd scratch. cua_oracle: the same chain
 * in fp64, the conv as the tiled fp64 implicit GEMM of conv-oracle.cuh (150 GFLOP of fp64 FMAs).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o ref.so tasks/L2/052-conv2d-activation-batchnorm/reference.cu
 * Napkin math (timed N=64 C=64 F=128 H=128 W=128): 151.4 GFLOP, 789 MB moved by a fused kernel.
 * Tolerance atol 0.001, rtol 0.001: a normalisation divides by a standard deviation of ~0.1–0.2,
 * amplifying the conv's fp32 error 5–10× (estimated; to be measured on the H200). */
#include "cuarena.h"
#include "epilogue-conv.cuh"

L2C_REFERENCE(l2c_t052)
