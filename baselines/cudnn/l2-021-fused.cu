/* baselines/cudnn/l2-021-fused.cu — cuDNN fused baseline for L2/021-conv2d-add-scale-sigmoid-groupnorm.
 * Conv + bias in one cudnnConvolutionBiasActivationForward call (strict fp32; identity
 * activation, so IMPLICIT_PRECOMP_GEMM, the one algorithm cuDNN allows with it), then the rest of
 * chain l2c_t021 as naive kernels (l2-conv-common.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o b.so baselines/cudnn/l2-021-fused.cu -lcudnn
 * Napkin math (timed): 40.7 GFLOP, 1325 MB fused; unmeasured. */
#include "l2-conv-common.cuh"

L2C_CUDNN_FUSED(l2c_t021)
