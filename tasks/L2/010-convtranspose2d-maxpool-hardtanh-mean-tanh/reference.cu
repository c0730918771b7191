/* L2/010-convtranspose2d-maxpool-hardtanh-mean-tanh reference: ConvTranspose2d 3×3, MaxPool 2, Hardtanh, mean, tanh.
 * Chain: conv_transpose2d k3 s1 p1 op0 + b, then one naive kernel per operator as eager PyTorch
 * runs them (struct l2c_t010 in tasks/common/epilogue-conv.cuh, shared with the cuDNN baselines).
 * cua_solve: L1's naive fp32 conv kernel (conv-transpose.cuh), the conv bias as its own kernel,
 * then the epilogue kernels of epilogue.cuh in fp32, intermediates in cudaMallocAsync'd scratch.
 * cua_oracle: the same chain in fp64, the conv as the tiled fp64 implicit GEMM of conv-oracle.cuh
 * (618 GFLOP of fp64 FMAs).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o ref.so tasks/L2/010-convtranspose2d-maxpool-hardtanh-mean-tanh/reference.cu
 * Napkin math (timed N=128 C=64 F=64 H=256 W=256): 619.0 GFLOP, 2148 MB moved by a fused kernel.
 * Tolerance atol 1e-05, rtol 0.0001: the output averages many conv outputs, so fp32 errors
 * average out while regenerating one input moves it by ~1e-3 relative: tight enough for the
 * non-degeneracy checks, with margin over fp32 summation error (estimated; to be measured on the
 * H200). */
#include "cuarena.h"
#include "epilogue-conv.cuh"

L2C_REFERENCE(l2c_t010)
