/* L2/056 reference (56_Matmul_Sigmoid_Sum): Linear, Sigmoid, row sum.
 * The chain (tasks/common/l2-gemm.cuh, l2_056): see task.json's description.
 * cua_solve is the nvcc baseline: the unfused chain, the naive GEMM (one warp per
 * output, W's rows contiguous in k) then one naive kernel per operator as eager
 * PyTorch runs them, intermediates in stream-ordered scratch; cua_oracle runs the
 * same chain in double (gemm.cuh's tiled fp64 GEMM) and writes f64.
 * Baselines: cublas/l2-056-unfused (cuBLAS SGEMM, strict fp32, + these kernels),
 * cublas/l2-056-fused (cuBLASLt matmul with the bias in its epilogue
 * (CUBLASLT_EPILOGUE_BIAS), the rest of the chain as naive kernels).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o matmul-sigmoid-sum.so tasks/L2/056-matmul-sigmoid-sum/reference.cu
 * Napkin math (timed M=128, N=32768, K=32768): 2·M·N·K = 274.9 GFLOP;
 * 4312 MB at the floor (each input read once, the output written once). cuBLAS
 * strict fp32 at ~51 TFLOP/s: ~5.39 ms for the GEMM; eager's epilogue passes
 * over the M·N intermediate add ~0.05 ms of HBM traffic, which a fused kernel
 * saves. The fp64 oracle's GEMM at ~15–25 TFLOP/s: ~14 ms.
 * Tolerance (atol 0.01, rtol 1e-6): y ≈ 16384 (rows differ by ~±7): sigmoid damps z's error
 * 4×, their sum over 32768 errs ≲ 1e-3, and a blocked (tree or chunked) fp32 sum rounds by
 * ~1e-3; a single sequential sum of 32768 terms errs ~0.1 and is not accepted. atol 1e-2 +
 * rtol 1e-6 (~0.026): the Linear's bias moves y by only ~0.2, and a looser rtol would hide
 * it. Estimates: the lead measures the worst errors on the H200 and adjusts. */
#include "cuarena.h"
#include "l2-gemm.cuh"

CUA_L2_REFERENCE(l2_056)
