/* baselines/cudnn/l1-081.cu — cuDNN baseline for L1/081-conv-transposed-2d-asymmetric-input-square-kernel-dilated-padded-strided:
 * y = conv_transpose2d(x, w, stride=5, padding=1, dilation=2), f32, no bias, as
 * cudnnConvolutionBackwardData with CUDNN_FMA_MATH (strict fp32); see
 * conv-transpose-common.cuh for the mapping and the algorithm choice.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o l1-081.so baselines/cudnn/l1-081.cu -lcudnn
 * Napkin math (timed N=16, C=32, F=64, H=64, W=128): 4.83 GFLOP of products; 848 MB moved at the floor
 * (0.2 ms at 4.3 TB/s; 0.072 ms at the 67 TFLOP/s FFMA peak). */
#include "conv-transpose-common.cuh"

/* task.json's hyper-parameters: spatial dims, kernel, stride, padding,
 * output padding, dilation (per dimension, outermost first), groups. */
static const struct convt_hp hp = {2, {3, 3}, {5, 5}, {1, 1}, {0, 0}, {2, 2}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return convt_cudnn(&hp, in, n_in, out, n_out, stream);
}
