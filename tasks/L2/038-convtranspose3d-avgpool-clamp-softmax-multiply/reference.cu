/* L2/038-convtranspose3d-avgpool-clamp-softmax-multiply reference:
 * AvgPool3d 2, ConvTranspose3d 3×3×3 stride 2, clamp(0, 1), spatial Softmax, · scale.
 * Chain: avg_pool3d(x, 2), then conv_transpose3d k3 s2 p1 op1 + b, then one naive kernel per
 * operator as eager PyTorch runs them (struct l2d_t038 in tasks/common/epilogue-conv3d.cuh, shared
 * with the cuDNN baselines). cua_solve: the pool of x as its own kernel (poolnd.cuh), L1's naive
 * fp32 transposed-conv kernel (conv-transpose.cuh), the conv bias as its own kernel, then the
 * epilogue kernels of epilogue.cuh / poolnd.cuh in fp32, intermediates in cudaMallocAsync'd
 * scratch. cua_oracle: the same chain in fp64, the conv as the tiled fp64 implicit GEMM of
 * conv3d-oracle.cuh (8× the useful FMAs, for the stride-2 taps it walks).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o ref.so tasks/L2/038-convtranspose3d-avgpool-clamp-softmax-multiply/reference.cu
 * Napkin math (timed N=32 C=32 F=64 D=32 H=64 W=64): 59.6 GFLOP, 1611 MB moved by a fused kernel.
 * Tolerance atol 1e-09, rtol 0.0001: the outputs are softmax values of ~1e-5 (131072 per (n, f)),
 * so the tolerance is relative (rtol 1e-4, as L1's softmax): the clamped conv's ≲ 1e-6 absolute
 * error is its relative error in y (estimated; to be measured on the H200). */
#include "cuarena.h"
#include "epilogue-conv3d.cuh"

L2D_REFERENCE(l2d_t038)
