/* L2/039 reference (39_Gemm_Scale_BatchNorm): Linear (bias dropped), scale per feature,
 * BatchNorm1d with batch statistics.
 * The chain (tasks/common/l2-gemm.cuh, l2_gemm_scale_batchnorm): see task.json's description.
 * cua_solve is the nvcc baseline: the unfused chain, the naive GEMM (one warp per
 * output, W's rows contiguous in k) then one naive kernel per operator as eager
 * PyTorch runs them, intermediates in stream-ordered scratch; cua_oracle runs the
 * same chain in double (gemm.cuh's tiled fp64 GEMM) and writes f64.
 * Baselines: cublas/l2-039-unfused (cuBLAS SGEMM, strict fp32, + these kernels).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o gemm-scale-batchnorm.so tasks/L2/039-gemm-scale-batchnorm/reference.cu
 * Napkin math (timed M=16384, N=4096, K=4096): 2·M·N·K = 549.8 GFLOP;
 * 604 MB at the floor (each input read once, the output written once). cuBLAS
 * strict fp32 at ~51 TFLOP/s: ~10.78 ms for the GEMM; eager's epilogue passes
 * over the M·N intermediate add ~1.25 ms of HBM traffic, which a fused kernel
 * saves. The fp64 oracle's GEMM at ~15–25 TFLOP/s: ~27 ms.
 * Tolerance (atol 2e-4, rtol 1e-4): BatchNorm divides by the batch std of a column (≈
 * 0.17·|scale|, the scale cancels): z's ≲ 1.5e-5 (K = 8192) becomes ≲ 1e-4 after ×bn_weight
 * ≤ 1.5: atol 2e-4. Estimates: the lead measures the worst errors on the H200 and adjusts. */
#include "cuarena.h"
#include "l2-gemm.cuh"

CUA_L2_REFERENCE(l2_gemm_scale_batchnorm)
