/* baselines/cudnn/l2-057-fused.cu — cuDNN fused baseline for L2/057-conv2d-relu-hardswish.
 * Conv + bias + ReLU in one cudnnConvolutionBiasActivationForward call (strict fp32; ReLU
 * activation, algorithm: the first of Find's strict results the fused call accepts), then the
 * rest of chain l2c_t057 as naive kernels (l2-conv-common.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o b.so baselines/cudnn/l2-057-fused.cu -lcudnn
 * Napkin math (timed): 19.4 GFLOP, 587 MB fused; unmeasured. */
#include "l2-conv-common.cuh"

L2C_CUDNN_FUSED(l2c_t057)
