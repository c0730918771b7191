/* L2/097 reference (97_Matmul_BatchNorm_BiasAdd_Divide_Swish): Linear (bias dropped),
 * BatchNorm1d with batch statistics, add a scalar bias, divide by 1, Swish.
 * The chain (tasks/common/l2-gemm.cuh, l2_097): see task.json's description.
 * cua_solve is the nvcc baseline: the unfused chain, the naive GEMM (one warp per
 * output, W's rows contiguous in k) then one naive kernel per operator as eager
 * PyTorch runs them, intermediates in stream-ordered scratch; cua_oracle runs the
 * same chain in double (gemm.cuh's tiled fp64 GEMM) and writes f64.
 * Baselines: cublas/l2-097-unfused (cuBLAS SGEMM, strict fp32, + these kernels).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o matmul-batchnorm-biasadd-divide-swish.so tasks/L2/097-matmul-batchnorm-biasadd-divide-swish/reference.cu
 * Napkin math (timed M=1024, N=8192, K=8192): 2·M·N·K = 137.4 GFLOP;
 * 336 MB at the floor (each input read once, the output written once). cuBLAS
 * strict fp32 at ~51 TFLOP/s: ~2.69 ms for the GEMM; eager's epilogue passes
 * over the M·N intermediate add ~0.19 ms of HBM traffic, which a fused kernel
 * saves. The fp64 oracle's GEMM at ~15–25 TFLOP/s: ~7 ms.
 * Tolerance (atol 2e-4, rtol 1e-4): BatchNorm divides z's ≲ 1.5e-5 by a column std ≈ 0.17,
 * ×bn_weight ≤ 1.5, Swish's slope ≤ 1.1 → ≲ 1.5e-4: atol 2e-4. Estimates: the lead measures
 * the worst errors on the H200 and adjusts. */
#include "cuarena.h"
#include "l2-gemm.cuh"

CUA_L2_REFERENCE(l2_097)
