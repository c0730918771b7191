/* L2/014 reference (14_Gemm_Divide_Sum_Scaling): Matmul without bias (N(0,1) weight),
 * divide by 2, row sum, scale by 1.5.
 * The chain (tasks/common/l2-gemm.cuh, l2_014): see task.json's description.
 * cua_solve is the nvcc baseline: the unfused chain, the naive GEMM (one warp per
 * output, W's rows contiguous in k) then one naive kernel per operator as eager
 * PyTorch runs them, intermediates in stream-ordered scratch; cua_oracle runs the
 * same chain in double (gemm.cuh's tiled fp64 GEMM) and writes f64.
 * Baselines: cublas/l2-014-unfused (cuBLAS SGEMM, strict fp32, + these kernels).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o gemm-divide-sum-scaling.so tasks/L2/014-gemm-divide-sum-scaling/reference.cu
 * Napkin math (timed M=1024, N=8192, K=8192): 2·M·N·K = 137.4 GFLOP;
 * 302 MB at the floor (each input read once, the output written once). cuBLAS
 * strict fp32 at ~51 TFLOP/s: ~2.69 ms for the GEMM; eager's epilogue passes
 * over the M·N intermediate add ~0.03 ms of HBM traffic, which a fused kernel
 * saves. The fp64 oracle's GEMM at ~15–25 TFLOP/s: ~7 ms.
 * Tolerance (atol 0.2, rtol 1e-4): W ~ N(0,1) makes z ~ 52 and y ~ 3.5e3 (std); fp32
 * errors: ~3e-4 per z, summed over N = 8192 → ~0.03, plus the row sum's rounding ~0.02:
 * atol 0.2 and rtol 1e-4 (0.35 at a typical |y|). Estimates: the lead measures the worst
 * errors on the H200 and adjusts. */
#include "cuarena.h"
#include "l2-gemm.cuh"

CUA_L2_REFERENCE(l2_014)
