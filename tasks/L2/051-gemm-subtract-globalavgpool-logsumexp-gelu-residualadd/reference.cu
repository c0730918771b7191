/* L2/051 reference (51_Gemm_Subtract_GlobalAvgPool_LogSumExp_GELU_ResidualAdd): Linear,
 * subtract, mean over features, logsumexp, GELU, add the input.
 * The chain (tasks/common/l2-gemm.cuh, l2_051): see task.json's description.
 * cua_solve is the nvcc baseline: the unfused chain, the naive GEMM (one warp per
 * output, W's rows contiguous in k) then one naive kernel per operator as eager
 * PyTorch runs them, intermediates in stream-ordered scratch; cua_oracle runs the
 * same chain in double (gemm.cuh's tiled fp64 GEMM) and writes f64.
 * Baselines: cublas/l2-051-unfused (cuBLAS SGEMM, strict fp32, + these kernels),
 * cublas/l2-051-fused (cuBLASLt matmul with the bias in its epilogue
 * (CUBLASLT_EPILOGUE_BIAS), the rest of the chain as naive kernels).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o gemm-subtract-globalavgpool-logsumexp-gelu-residualadd.so tasks/L2/051-gemm-subtract-globalavgpool-logsumexp-gelu-residualadd/reference.cu
 * Napkin math (timed M=2048, N=8192, K=8192): 2·M·N·K = 274.9 GFLOP;
 * 403 MB at the floor (each input read once, the output written once). cuBLAS
 * strict fp32 at ~51 TFLOP/s: ~5.39 ms for the GEMM; eager's epilogue passes
 * over the M·N intermediate add ~0.09 ms of HBM traffic, which a fused kernel
 * saves. The fp64 oracle's GEMM at ~15–25 TFLOP/s: ~14 ms.
 * Tolerance (atol 2e-6, rtol 2e-6): g ≈ 0.005 is small against x ∈ [0,1); the mean of N =
 * 8192 z's is accurate to ~1e-8, so y is within an ulp or two of exact; the tolerance (2e-6
 * + 2e-6·|y|) is tight so that the Linear's bias, whose mean moves g by ~5e-5, is not below
 * it. Estimates: the lead measures the worst errors on the H200 and adjusts. */
#include "cuarena.h"
#include "l2-gemm.cuh"

CUA_L2_REFERENCE(l2_051)
