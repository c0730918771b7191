/* L2/013-convtranspose3d-mean-add-softmax-tanh-scaling reference:
 * ConvTranspose3d 3×3×3 (padding 1), mean over depth, + bias, Softmax over channels, tanh, · 2.
 * Chain: conv_transpose3d k3 s1 p1 + b, then one naive kernel per operator as eager PyTorch runs
 * them (struct l2d_t013 in tasks/common/epilogue-conv3d.cuh, shared with the cuDNN baselines).
 * cua_solve: L1's naive fp32 transposed-conv kernel (conv-transpose.cuh), the conv bias as its own
 * kernel, then the epilogue kernels of epilogue.cuh / poolnd.cuh in fp32, intermediates in
 * cudaMallocAsync'd scratch. cua_oracle: the same chain in fp64, the conv as the tiled fp64
 * implicit GEMM of conv3d-oracle.cuh.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o ref.so tasks/L2/013-convtranspose3d-mean-add-softmax-tanh-scaling/reference.cu
 * Napkin math (timed N=16 C=16 F=64 D=32 H=128 W=128): 467.1 GFLOP, 604 MB moved by a fused
 * kernel. Tolerance atol 1e-05, rtol 0.0001: softmax values of ~1/64–0.3 (the N(0, 1) bias
 * dominates): relative accuracy of the exp and the sum, ~1e-6, with margin (estimated; to be
 * measured on the H200). */
#include "cuarena.h"
#include "epilogue-conv3d.cuh"

L2D_REFERENCE(l2d_t013)
