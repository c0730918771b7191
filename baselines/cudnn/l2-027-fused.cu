/* baselines/cudnn/l2-027-fused.cu — cuDNN fused baseline for L2/027-conv3d-hardswish-groupnorm-mean.
 * Conv + bias in one cudnnConvolutionBiasActivationForward call on 5-D descriptors (strict
 * fp32; identity activation, which cuDNN runs only with IMPLICIT_PRECOMP_GEMM), then the
 * rest of chain l2d_t027 as naive kernels (l2-conv3d-common.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o b.so baselines/cudnn/l2-027-fused.cu -lcudnn
 * Napkin math (timed): 71.3 GFLOP, 201 MB fused; unmeasured. */
#include "l2-conv3d-common.cuh"

L2D_CUDNN_FUSED(l2d_t027)
