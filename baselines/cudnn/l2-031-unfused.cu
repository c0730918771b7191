/* baselines/cudnn/l2-031-unfused.cu — cuDNN baseline for L2/031-conv2d-min-add-multiply.
 * As PyTorch eager runs it: the convolution by cudnnConvolutionForward in strict fp32
 * (CUDNN_FMA_MATH, algorithm by Find), the conv bias and every epilogue operator as its own naive
 * kernel (l2-conv-common.cuh; chain l2c_t031 of tasks/common/epilogue-conv.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o b.so baselines/cudnn/l2-031-unfused.cu -lcudnn
 * Napkin math (timed): 300.4 GFLOP, 1578 MB fused; unmeasured. */
#include "l2-conv-common.cuh"

L2C_CUDNN_UNFUSED(l2c_t031)
