/* L2/084 reference (84_Gemm_BatchNorm_Scaling_Softmax): Linear (bias dropped), BatchNorm1d
 * with batch statistics, scale, Softmax.
 * The chain (tasks/common/l2-gemm.cuh, l2_084): see task.json's description.
 * cua_solve is the nvcc baseline: the unfused chain, the naive GEMM (one warp per
 * output, W's rows contiguous in k) then one naive kernel per operator as eager
 * PyTorch runs them, intermediates in stream-ordered scratch; cua_oracle runs the
 * same chain in double (gemm.cuh's tiled fp64 GEMM) and writes f64.
 * Baselines: cublas/l2-084-unfused (cuBLAS SGEMM, strict fp32, + these kernels).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o gemm-batchnorm-scaling-softmax.so tasks/L2/084-gemm-batchnorm-scaling-softmax/reference.cu
 * Napkin math (timed M=1024, N=8192, K=8192): 2·M·N·K = 137.4 GFLOP;
 * 336 MB at the floor (each input read once, the output written once). cuBLAS
 * strict fp32 at ~51 TFLOP/s: ~2.69 ms for the GEMM; eager's epilogue passes
 * over the M·N intermediate add ~0.22 ms of HBM traffic, which a fused kernel
 * saves. The fp64 oracle's GEMM at ~15–25 TFLOP/s: ~7 ms.
 * Tolerance (atol 1e-9, rtol 3e-4): softmax values are ~1e-4, so the tolerance is relative:
 * u's absolute error (BatchNorm divides z's ≲ 1.5e-5 by a column std ≈ 0.17,
 * ×bn_weight·scale ≤ 2.3) is y's relative error, ≲ 2e-4: rtol 3e-4. Estimates: the lead
 * measures the worst errors on the H200 and adjusts. */
#include "cuarena.h"
#include "l2-gemm.cuh"

CUA_L2_REFERENCE(l2_084)
