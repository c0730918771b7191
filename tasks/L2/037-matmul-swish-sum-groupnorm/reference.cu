/* L2/037 reference (37_Matmul_Swish_Sum_GroupNorm): Linear, Swish, add bias, GroupNorm (64
 * groups).
 * The chain (tasks/common/l2-gemm.cuh, l2_037): see task.json's description.
 * cua_solve is the nvcc baseline: the unfused chain, the naive GEMM (one warp per
 * output, W's rows contiguous in k) then one naive kernel per operator as eager
 * PyTorch runs them, intermediates in stream-ordered scratch; cua_oracle runs the
 * same chain in double (gemm.cuh's tiled fp64 GEMM) and writes f64.
 * Baselines: cublas/l2-037-unfused (cuBLAS SGEMM, strict fp32, + these kernels),
 * cublas/l2-037-fused (cuBLASLt matmul with the bias in its epilogue
 * (CUBLASLT_EPILOGUE_BIAS), the rest of the chain as naive kernels).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o matmul-swish-sum-groupnorm.so tasks/L2/037-matmul-swish-sum-groupnorm/reference.cu
 * Napkin math (timed M=32768, N=4096, K=1024): 2·M·N·K = 274.9 GFLOP;
 * 688 MB at the floor (each input read once, the output written once). cuBLAS
 * strict fp32 at ~51 TFLOP/s: ~5.39 ms for the GEMM; eager's epilogue passes
 * over the M·N intermediate add ~3.50 ms of HBM traffic, which a fused kernel
 * saves. The fp64 oracle's GEMM at ~15–25 TFLOP/s: ~14 ms.
 * Tolerance (atol 1e-4, rtol 1e-4): after + bias (N(0,1)) a group's std is ≈ 1, so z's fp32
 * error (≲ 5e-6 at K = 1024) stays ≲ 1e-5 after the norm: atol 1e-4. Estimates: the lead
 * measures the worst errors on the H200 and adjusts. */
#include "cuarena.h"
#include "l2-gemm.cuh"

CUA_L2_REFERENCE(l2_037)
