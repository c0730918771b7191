/* baselines/cudnn/l2-007-fused.cu — cuDNN fused baseline for L2/007-conv3d-relu-leakyrelu-gelu-sigmoid-biasadd.
 * Conv + bias + ReLU in one cudnnConvolutionBiasActivationForward call on 5-D descriptors (strict
 * fp32; ReLU activation, algorithm: the first of Find's strict results the fused call accepts), then the
 * rest of chain l2d_t007 as naive kernels (l2-conv3d-common.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o b.so baselines/cudnn/l2-007-fused.cu -lcudnn
 * Napkin math (timed): 109.1 GFLOP, 1213 MB fused; unmeasured. */
#include "l2-conv3d-common.cuh"

L2D_CUDNN_FUSED(l2d_t007)
