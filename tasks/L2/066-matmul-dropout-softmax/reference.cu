/* L2/066 reference (66_Matmul_Dropout_Softmax): Linear, dropout (p = 0.2, declared
 * keep-mask), Softmax.
 * The chain (tasks/common/l2-gemm.cuh, l2_066): see task.json's description.
 * cua_solve is the nvcc baseline: the unfused chain, the naive GEMM (one warp per
 * output, W's rows contiguous in k) then one naive kernel per operator as eager
 * PyTorch runs them, intermediates in stream-ordered scratch; cua_oracle runs the
 * same chain in double (gemm.cuh's tiled fp64 GEMM) and writes f64.
 * Baselines: cublas/l2-066-unfused (cuBLAS SGEMM, strict fp32, + these kernels),
 * cublas/l2-066-fused (cuBLASLt matmul with the bias in its epilogue
 * (CUBLASLT_EPILOGUE_BIAS), the rest of the chain as naive kernels).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o matmul-dropout-softmax.so tasks/L2/066-matmul-dropout-softmax/reference.cu
 * Napkin math (timed M=128, N=16384, K=16384): 2·M·N·K = 68.7 GFLOP;
 * 1093 MB at the floor (each input read once, the output written once). cuBLAS
 * strict fp32 at ~51 TFLOP/s: ~1.35 ms for the GEMM; eager's epilogue passes
 * over the M·N intermediate add ~0.03 ms of HBM traffic, which a fused kernel
 * saves. The fp64 oracle's GEMM at ~15–25 TFLOP/s: ~3 ms.
 * Tolerance (atol 1e-9, rtol 1e-4): softmax values are ~6e-5 each, so the tolerance is
 * relative (rtol 1e-4, as L1's softmax): d's error (≲ 2e-5 absolute) is its relative error
 * in y. Estimates: the lead measures the worst errors on the H200 and adjusts. */
#include "cuarena.h"
#include "l2-gemm.cuh"

CUA_L2_REFERENCE(l2_066)
