/* L2/025-conv2d-min-tanh-tanh reference: Conv2d 3×3, min over channels, tanh, tanh.
 * Chain: conv2d k3 + b, then one naive kernel per operator as eager PyTorch runs them (struct
 * l2c_t025 in tasks/common/epilogue-conv.cuh, shared with the cuDNN baselines). cua_solve: L1's
 * naive fp32 conv kernel (conv2d.cuh), the conv bias as its own kernel, then the epilogue kernels
 * of epilogue.cuh in fp32, intermediates in cudaMallocAsync'd scratch. cua_oracle: the same chain
 * in fp64, the conv as the tiled fp64 implicit GEMM of conv-oracle.cuh (152 GFLOP of fp64 FMAs).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o ref.so tasks/L2/025-conv2d-min-tanh-tanh/reference.cu
 * Napkin math (timed N=128 C=16 F=64 H=256 W=256): 152.7 GFLOP, 570 MB moved by a fused kernel.
 * Tolerance atol 0.0002, rtol 0.0002: an elementwise epilogue on conv outputs of magnitude
 * ~0.1–1, where an fp32 FFT or Winograd conv errs by ~1e-5 (L1's conv tolerances scaled by the
 * output magnitude), ×2 for the scalings, with margin (estimated; to be measured on the H200). */
#include "cuarena.h"
#include "epilogue-conv.cuh"

L2C_REFERENCE(l2c_t025)
