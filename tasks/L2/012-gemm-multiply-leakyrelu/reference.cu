/* L2/012 reference (12_Gemm_Multiply_LeakyReLU): Linear, multiply by 2, LeakyReLU(0.1).
 * The chain (tasks/common/l2-gemm.cuh, l2_012): see task.json's description.
 * cua_solve is the nvcc baseline: the unfused chain, the naive GEMM (one warp per
 * output, W's rows contiguous in k) then one naive kernel per operator as eager
 * PyTorch runs them, intermediates in stream-ordered scratch; cua_oracle runs the
 * same chain in double (gemm.cuh's tiled fp64 GEMM) and writes f64.
 * Baselines: cublas/l2-012-unfused (cuBLAS SGEMM, strict fp32, + these kernels),
 * cublas/l2-012-fused (cuBLASLt matmul with the bias in its epilogue
 * (CUBLASLT_EPILOGUE_BIAS), the rest of the chain as naive kernels).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o gemm-multiply-leakyrelu.so tasks/L2/012-gemm-multiply-leakyrelu/reference.cu
 * Napkin math (timed M=1024, N=8192, K=8192): 2·M·N·K = 137.4 GFLOP;
 * 336 MB at the floor (each input read once, the output written once). cuBLAS
 * strict fp32 at ~51 TFLOP/s: ~2.69 ms for the GEMM; eager's epilogue passes
 * over the M·N intermediate add ~0.05 ms of HBM traffic, which a fused kernel
 * saves. The fp64 oracle's GEMM at ~15–25 TFLOP/s: ~7 ms.
 * Tolerance (atol 1e-4, rtol 1e-4): z has std ≈ 0.33; a k-ordered fp32 dot of K = 8192 errs
 * by ≲ 1.5e-5, doubled → 3e-5; atol 1e-4 keeps a 3× margin. Estimates: the lead measures
 * the worst errors on the H200 and adjusts. */
#include "cuarena.h"
#include "l2-gemm.cuh"

CUA_L2_REFERENCE(l2_012)
