/* L2/068 reference (68_Matmul_Min_Subtract): Linear, min with 2, subtract 2.
 * The chain (tasks/common/l2-gemm.cuh, l2_068): see task.json's description.
 * cua_solve is the nvcc baseline: the unfused chain, the naive GEMM (one warp per
 * output, W's rows contiguous in k) then one naive kernel per operator as eager
 * PyTorch runs them, intermediates in stream-ordered scratch; cua_oracle runs the
 * same chain in double (gemm.cuh's tiled fp64 GEMM) and writes f64.
 * Baselines: cublas/l2-068-unfused (cuBLAS SGEMM, strict fp32, + these kernels),
 * cublas/l2-068-fused (cuBLASLt matmul with the bias in its epilogue
 * (CUBLASLT_EPILOGUE_BIAS), the rest of the chain as naive kernels).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o matmul-min-subtract.so tasks/L2/068-matmul-min-subtract/reference.cu
 * Napkin math (timed M=128, N=16384, K=16384): 2·M·N·K = 68.7 GFLOP;
 * 1091 MB at the floor (each input read once, the output written once). cuBLAS
 * strict fp32 at ~51 TFLOP/s: ~1.35 ms for the GEMM; eager's epilogue passes
 * over the M·N intermediate add ~0.01 ms of HBM traffic, which a fused kernel
 * saves. The fp64 oracle's GEMM at ~15–25 TFLOP/s: ~3 ms.
 * Tolerance (atol 5e-5, rtol 1e-4): y ≈ z − 2: z errs by ≲ 2e-5 (K = 16384) and rtol·|y| ≈
 * 2e-4 dominates. Estimates: the lead measures the worst errors on the H200 and adjusts. */
#include "cuarena.h"
#include "l2-gemm.cuh"

CUA_L2_REFERENCE(l2_068)
