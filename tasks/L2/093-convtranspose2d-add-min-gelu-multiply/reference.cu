/* L2/093-convtranspose2d-add-min-gelu-multiply reference: ConvTranspose2d 4×4 stride 2, + 0.5, min(·, 0), GELU, · 2.
 * Chain: conv_transpose2d k4 s2 p0 op0 + b, then one naive kernel per operator as eager PyTorch
 * runs them (struct l2c_t093 in tasks/common/epilogue-conv.cuh, shared with the cuDNN baselines).
 * cua_solve: L1's naive fp32 conv kernel (conv-transpose.cuh), the conv bias as its own kernel,
 * then the epilogue kernels of epilogue.cuh in fp32, intermediates in cudaMallocAsync'd scratch.
 * cua_oracle: the same chain in fp64, the conv as the tiled fp64 implicit GEMM of
 * conv-oracle.cuh, which at stride 2 walks 4× the useful products (550 GFLOP of fp64 FMAs).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o ref.so tasks/L2/093-convtranspose2d-add-min-gelu-multiply/reference.cu
 * Napkin math (timed N=128 C=64 F=128 H=64 W=64): 138.5 GFLOP, 1242 MB moved by a fused kernel.
 * Tolerance atol 0.0002, rtol 0.0002: an elementwise epilogue on conv outputs of magnitude
 * ~0.1–1, where an fp32 FFT or Winograd conv errs by ~1e-5 (L1's conv tolerances scaled by the
 * output magnitude), ×2 for the scalings, with margin (estimated; to be measured on the H200). */
#include "cuarena.h"
#include "epilogue-conv.cuh"

L2C_REFERENCE(l2c_t093)
