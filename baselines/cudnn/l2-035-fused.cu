/* baselines/cudnn/l2-035-fused.cu — cuDNN fused baseline for L2/035-conv2d-subtract-hardswish-maxpool-mish.
 * Conv + bias in one cudnnConvolutionBiasActivationForward call (strict fp32; identity
 * activation, so IMPLICIT_PRECOMP_GEMM, the one algorithm cuDNN allows with it), then the rest of
 * chain l2c_t035 as naive kernels (l2-conv-common.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o b.so baselines/cudnn/l2-035-fused.cu -lcudnn
 * Napkin math (timed): 300.4 GFLOP, 797 MB fused; unmeasured. */
#include "l2-conv-common.cuh"

L2C_CUDNN_FUSED(l2c_t035)
