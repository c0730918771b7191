/* L2/055 reference (55_Matmul_MaxPool_Sum_Scale): Linear, MaxPool1d(2) over features, row
 * sum, scale by 0.5.
 * The chain (tasks/common/l2-gemm.cuh, l2_055): see task.json's description.
 * cua_solve is the nvcc baseline: the unfused chain, the naive GEMM (one warp per
 * output, W's rows contiguous in k) then one naive kernel per operator as eager
 * PyTorch runs them, intermediates in stream-ordered scratch; cua_oracle runs the
 * same chain in double (gemm.cuh's tiled fp64 GEMM) and writes f64.
 * Baselines: cublas/l2-055-unfused (cuBLAS SGEMM, strict fp32, + these kernels),
 * cublas/l2-055-fused (cuBLASLt matmul with the bias in its epilogue
 * (CUBLASLT_EPILOGUE_BIAS), the rest of the chain as naive kernels).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o matmul-maxpool-sum-scale.so tasks/L2/055-matmul-maxpool-sum-scale/reference.cu
 * Napkin math (timed M=128, N=32768, K=32768): 2·M·N·K = 274.9 GFLOP;
 * 4312 MB at the floor (each input read once, the output written once). cuBLAS
 * strict fp32 at ~51 TFLOP/s: ~5.39 ms for the GEMM; eager's epilogue passes
 * over the M·N intermediate add ~0.02 ms of HBM traffic, which a fused kernel
 * saves. The fp64 oracle's GEMM at ~15–25 TFLOP/s: ~14 ms.
 * Tolerance (atol 5e-3, rtol 2e-6): y ≈ 1.5e3: the sum of 16384 maxima, each within ~2e-5
 * (K = 32768), errs ~1e-3 at most, its rounding (any blocked sum) ~1e-4: atol 5e-3 + rtol
 * 2e-6 (~8e-3); tight enough that regenerating the Linear's bias (~0.3) shows. Estimates:
 * the lead measures the worst errors on the H200 and adjusts. */
#include "cuarena.h"
#include "l2-gemm.cuh"

CUA_L2_REFERENCE(l2_055)
