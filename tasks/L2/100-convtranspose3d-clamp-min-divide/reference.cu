/* L2/100-convtranspose3d-clamp-min-divide reference:
 * ConvTranspose3d 3×3×3 stride 2, clamp(min −1), / 2.
 * Chain: conv_transpose3d k3 s2 p1 + b, then one naive kernel per operator as eager PyTorch runs
 * them (struct l2d_t100 in tasks/common/epilogue-conv3d.cuh, shared with the cuDNN baselines).
 * cua_solve: L1's naive fp32 transposed-conv kernel (conv-transpose.cuh), the conv bias as its own
 * kernel, then the epilogue kernels of epilogue.cuh / poolnd.cuh in fp32, intermediates in
 * cudaMallocAsync'd scratch. cua_oracle: the same chain in fp64, the conv as the tiled fp64
 * implicit GEMM of conv3d-oracle.cuh (8× the useful FMAs, for the stride-2 taps it walks).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o ref.so tasks/L2/100-convtranspose3d-clamp-min-divide/reference.cu
 * Napkin math (timed N=16 C=64 F=128 D=24 H=48 W=48): 393.1 GFLOP, 3702 MB moved by a fused
 * kernel. Tolerance atol 0.0002, rtol 0.0002: an elementwise epilogue on conv outputs of magnitude
 * ~0.1–1, where an fp32 conv errs by ~1e-6 (L1's 3-D conv tolerances scaled by the output
 * magnitude), with margin (estimated; to be measured on the H200). */
#include "cuarena.h"
#include "epilogue-conv3d.cuh"

L2D_REFERENCE(l2d_t100)
