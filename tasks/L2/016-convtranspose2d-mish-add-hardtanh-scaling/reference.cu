/* L2/016-convtranspose2d-mish-add-hardtanh-scaling reference: ConvTranspose2d 3×3 stride 2, Mish, + 0.5, Hardtanh, · 2.
 * Chain: conv_transpose2d k3 s2 p1 op1 + b, then one naive kernel per operator as eager PyTorch
 * runs them (struct l2c_t016 in tasks/common/epilogue-conv.cuh, shared with the cuDNN baselines).
 * cua_solve: L1's naive fp32 conv kernel (conv-transpose.cuh), the conv bias as its own kernel,
 * then the epilogue kernels of epilogue.cuh in fp32, intermediates in cudaMallocAsync'd scratch.
 * cua_oracle: the same chain in fp64, the conv as the tiled fp64 implicit GEMM of
 * conv-oracle.cuh, which at stride 2 walks 4× the useful products (618 GFLOP of fp64 FMAs).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o ref.so tasks/L2/016-convtranspose2d-mish-add-hardtanh-scaling/reference.cu
 * Napkin math (timed N=128 C=64 F=64 H=128 W=128): 156.8 GFLOP, 2685 MB moved by a fused kernel.
 * Tolerance atol 0.0002, rtol 0.0002: an elementwise epilogue on conv outputs of magnitude
 * ~0.1–1, where an fp32 FFT or Winograd conv errs by ~1e-5 (L1's conv tolerances scaled by the
 * output magnitude), ×2 for the scalings, with margin (estimated; to be measured on the H200). */
#include "cuarena.h"
#include "epilogue-conv.cuh"

L2C_REFERENCE(l2c_t016)
