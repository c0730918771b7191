/* L2/064 reference (64_Gemm_LogSumExp_LeakyReLU_LeakyReLU_GELU_GELU): Linear, LogSumExp,
 * LeakyReLU twice, GELU twice.
 * The chain (tasks/common/l2-gemm.cuh, l2_064): see task.json's description.
 * cua_solve is the nvcc baseline: the unfused chain, the naive GEMM (one warp per
 * output, W's rows contiguous in k) then one naive kernel per operator as eager
 * PyTorch runs them, intermediates in stream-ordered scratch; cua_oracle runs the
 * same chain in double (gemm.cuh's tiled fp64 GEMM) and writes f64.
 * Baselines: cublas/l2-064-unfused (cuBLAS SGEMM, strict fp32, + these kernels),
 * cublas/l2-064-fused (cuBLASLt matmul with the bias in its epilogue
 * (CUBLASLT_EPILOGUE_BIAS), the rest of the chain as naive kernels).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o gemm-logsumexp-leakyrelu-leakyrelu-gelu-gelu.so tasks/L2/064-gemm-logsumexp-leakyrelu-leakyrelu-gelu-gelu/reference.cu
 * Napkin math (timed M=1024, N=8192, K=8192): 2·M·N·K = 137.4 GFLOP;
 * 302 MB at the floor (each input read once, the output written once). cuBLAS
 * strict fp32 at ~51 TFLOP/s: ~2.69 ms for the GEMM; eager's epilogue passes
 * over the M·N intermediate add ~0.09 ms of HBM traffic, which a fused kernel
 * saves. The fp64 oracle's GEMM at ~15–25 TFLOP/s: ~7 ms.
 * Tolerance (atol 2e-6, rtol 1e-6): l ≈ 9.07 and rows differ by only ~2e-3, the Linear's
 * bias moves l by ~1e-4: so the tolerance is tight, 2e-6 + 1e-6·|y| (~1.1e-5). fp32 can
 * meet it: the logsumexp averages z's errors (→ ~1e-7), a blocked sum of exp rounds by
 * ~1e-7 relative, the final add by half an ulp of 9 (5e-7); a single sequential sum of 8192
 * exps (~5e-6) is marginal. Estimates: the lead measures the worst errors on the H200 and
 * adjusts. */
#include "cuarena.h"
#include "l2-gemm.cuh"

CUA_L2_REFERENCE(l2_064)
