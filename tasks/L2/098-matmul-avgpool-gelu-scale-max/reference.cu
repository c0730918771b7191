/* L2/098 reference (98_Matmul_AvgPool_GELU_Scale_Max): Linear, AvgPool1d(16) over features,
 * GELU, scale by 2, row max.
 * The chain (tasks/common/l2-gemm.cuh, l2_098): see task.json's description.
 * cua_solve is the nvcc baseline: the unfused chain, the naive GEMM (one warp per
 * output, W's rows contiguous in k) then one naive kernel per operator as eager
 * PyTorch runs them, intermediates in stream-ordered scratch; cua_oracle runs the
 * same chain in double (gemm.cuh's tiled fp64 GEMM) and writes f64.
 * Baselines: cublas/l2-098-unfused (cuBLAS SGEMM, strict fp32, + these kernels),
 * cublas/l2-098-fused (cuBLASLt matmul with the bias in its epilogue
 * (CUBLASLT_EPILOGUE_BIAS), the rest of the chain as naive kernels).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o matmul-avgpool-gelu-scale-max.so tasks/L2/098-matmul-avgpool-gelu-scale-max/reference.cu
 * Napkin math (timed M=1024, N=8192, K=8192): 2·M·N·K = 137.4 GFLOP;
 * 302 MB at the floor (each input read once, the output written once). cuBLAS
 * strict fp32 at ~51 TFLOP/s: ~2.69 ms for the GEMM; eager's epilogue passes
 * over the M·N intermediate add ~0.12 ms of HBM traffic, which a fused kernel
 * saves. The fp64 oracle's GEMM at ~15–25 TFLOP/s: ~7 ms.
 * Tolerance (atol 5e-5, rtol 1e-4): averages are as accurate as z (≲ 1.5e-5), GELU's slope
 * ≤ 1.1, ×2: atol 5e-5. Estimates: the lead measures the worst errors on the H200 and
 * adjusts. */
#include "cuarena.h"
#include "l2-gemm.cuh"

CUA_L2_REFERENCE(l2_098)
