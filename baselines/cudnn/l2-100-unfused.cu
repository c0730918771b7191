/* baselines/cudnn/l2-100-unfused.cu — cuDNN baseline for L2/100-convtranspose3d-clamp-min-divide.
 * As PyTorch eager runs it: the convolution by cudnnConvolutionBackwardData in strict fp32
 * (CUDNN_FMA_MATH, algorithm by Find), the conv bias and every epilogue operator as its own naive
 * kernel (l2-conv3d-common.cuh; chain l2d_t100 of tasks/common/epilogue-conv3d.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o b.so baselines/cudnn/l2-100-unfused.cu -lcudnn
 * Napkin math (timed): 393.1 GFLOP, 3702 MB fused; unmeasured. */
#include "l2-conv3d-common.cuh"

L2D_CUDNN_UNFUSED(l2d_t100)
