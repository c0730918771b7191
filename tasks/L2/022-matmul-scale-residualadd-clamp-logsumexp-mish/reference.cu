/* L2/022 reference (22_Matmul_Scale_ResidualAdd_Clamp_LogSumExp_Mish): Linear, scale by 2,
 * add to itself, clamp ±10, logsumexp, x·mish(x).
 * The chain (tasks/common/l2-gemm.cuh, l2_022): see task.json's description.
 * cua_solve is the nvcc baseline: the unfused chain, the naive GEMM (one warp per
 * output, W's rows contiguous in k) then one naive kernel per operator as eager
 * PyTorch runs them, intermediates in stream-ordered scratch; cua_oracle runs the
 * same chain in double (gemm.cuh's tiled fp64 GEMM) and writes f64.
 * Baselines: cublas/l2-022-unfused (cuBLAS SGEMM, strict fp32, + these kernels),
 * cublas/l2-022-fused (cuBLASLt matmul with the bias in its epilogue
 * (CUBLASLT_EPILOGUE_BIAS), the rest of the chain as naive kernels).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o matmul-scale-residualadd-clamp-logsumexp-mish.so tasks/L2/022-matmul-scale-residualadd-clamp-logsumexp-mish/reference.cu
 * Napkin math (timed M=1024, N=8192, K=8192): 2·M·N·K = 137.4 GFLOP;
 * 302 MB at the floor (each input read once, the output written once). cuBLAS
 * strict fp32 at ~51 TFLOP/s: ~2.69 ms for the GEMM; eager's epilogue passes
 * over the M·N intermediate add ~0.08 ms of HBM traffic, which a fused kernel
 * saves. The fp64 oracle's GEMM at ~15–25 TFLOP/s: ~7 ms.
 * Tolerance (atol 1e-3, rtol 1e-5): l ≈ 9.9 and y ≈ l² ≈ 98: l inherits the (averaged)
 * error of 4z, ~1e-6, and dy/dl ≈ 2l ≈ 20 → ~2e-5; atol 1e-3 + rtol 1e-5 (~2e-3) keeps the
 * rows' spread (±0.4) and the bias's effect (~0.02) detectable. Estimates: the lead
 * measures the worst errors on the H200 and adjusts. */
#include "cuarena.h"
#include "l2-gemm.cuh"

CUA_L2_REFERENCE(l2_022)
