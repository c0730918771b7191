/* baselines/cudnn/l2-043-fused.cu — cuDNN fused baseline for L2/043-conv3d-max-logsumexp-relu.
 * Conv + bias in one cudnnConvolutionBiasActivationForward call on 5-D descriptors (strict
 * fp32; identity activation, which cuDNN runs only with IMPLICIT_PRECOMP_GEMM), then the
 * rest of chain l2d_t043 as naive kernels (l2-conv3d-common.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o b.so baselines/cudnn/l2-043-fused.cu -lcudnn
 * Napkin math (timed): 232.5 GFLOP, 270 MB fused; unmeasured. */
#include "l2-conv3d-common.cuh"

L2D_CUDNN_FUSED(l2d_t043)
