/* L2/045 reference (45_Gemm_Sigmoid_LogSumExp): Linear, Sigmoid, Linear, LogSumExp over
 * features.
 * The chain (tasks/common/l2-gemm.cuh, l2_045): see task.json's description.
 * cua_solve is the nvcc baseline: the unfused chain, the naive GEMM (one warp per
 * output, W's rows contiguous in k) then one naive kernel per operator as eager
 * PyTorch runs them, intermediates in stream-ordered scratch; cua_oracle runs the
 * same chain in double (gemm.cuh's tiled fp64 GEMM) and writes f64.
 * Baselines: cublas/l2-045-unfused (cuBLAS SGEMM, strict fp32, + these kernels),
 * cublas/l2-045-fused (cuBLASLt matmul with the bias in its epilogue
 * (CUBLASLT_EPILOGUE_BIAS), the rest of the chain as naive kernels).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o gemm-sigmoid-logsumexp.so tasks/L2/045-gemm-sigmoid-logsumexp/reference.cu
 * Napkin math (timed M=16384, K=2048, H=4096, O=1024): 2·M·H·K + 2·M·O·H = 412.3 GFLOP;
 * 185 MB at the floor (each input read once, the output written once). cuBLAS
 * strict fp32 at ~51 TFLOP/s: ~8.08 ms for the GEMM; eager's epilogue passes
 * over the M·N intermediate add ~0.47 ms of HBM traffic, which a fused kernel
 * saves. The fp64 oracle's GEMM at ~15–25 TFLOP/s: ~21 ms.
 * Tolerance (atol 2e-6, rtol 1e-6): y ≈ 7 with a row spread ~1e-3, and regenerating b1 or
 * b2 moves y by only ~1e-4, so the tolerance is tight, 2e-6 + 1e-6·|y| (~9e-6). fp32 meets
 * it: t's errors (≲ 1e-5 each) are averaged by the logsumexp's weights (~1/1024), a blocked
 * sum of exp rounds by ~1e-7 relative, the final add by half an ulp of 7 (4.8e-7).
 * Estimates: the lead measures the worst errors on the H200 and adjusts. */
#include "cuarena.h"
#include "l2-gemm.cuh"

CUA_L2_REFERENCE(l2_045)
