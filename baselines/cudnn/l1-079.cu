/* baselines/cudnn/l1-079.cu — cuDNN baseline for L1/079-conv-transposed-1d-asymmetric-input-square-kernel-padded-strided-dilated:
 * y = conv_transpose1d(x, w, stride=2, padding=1, dilation=2), f32, no bias, as
 * cudnnConvolutionBackwardData with CUDNN_FMA_MATH (strict fp32); see
 * conv-transpose-common.cuh for the mapping and the algorithm choice.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o l1-079.so baselines/cudnn/l1-079.cu -lcudnn
 * Napkin math (timed N=16, C=32, F=64, L=131072): 25.8 GFLOP of products; 1.34 GB moved at the floor
 * (0.31 ms at 4.3 TB/s; 0.38 ms at the 67 TFLOP/s FFMA peak). */
#include "conv-transpose-common.cuh"

/* task.json's hyper-parameters: spatial dims, kernel, stride, padding,
 * output padding, dilation (per dimension, outermost first), groups. */
static const struct convt_hp hp = {1, {3}, {2}, {1}, {0}, {2}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return convt_cudnn(&hp, in, n_in, out, n_out, stream);
}
