/* baselines/cudnn/l1-077.cu — cuDNN baseline for L1/077-conv-transposed-3d-square-input-square-kernel-padded-dilated-strided:
 * y = conv_transpose3d(x, w, stride=2, padding=1, dilation=2), f32, no bias, as
 * cudnnConvolutionBackwardData with CUDNN_FMA_MATH (strict fp32); see
 * conv-transpose-common.cuh for the mapping and the algorithm choice.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o l1-077.so baselines/cudnn/l1-077.cu -lcudnn
 * Napkin math (timed N=16, C=32, F=64, D=16, H=32, W=32): 29 GFLOP of products; 605 MB moved at the floor
 * (0.14 ms at 4.3 TB/s; 0.43 ms at the 67 TFLOP/s FFMA peak). */
#include "conv-transpose-common.cuh"

/* task.json's hyper-parameters: spatial dims, kernel, stride, padding,
 * output padding, dilation (per dimension, outermost first), groups. */
static const struct convt_hp hp = {3, {3, 3, 3}, {2, 2, 2}, {1, 1, 1}, {0, 0, 0}, {2, 2, 2}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return convt_cudnn(&hp, in, n_in, out, n_out, stream);
}
