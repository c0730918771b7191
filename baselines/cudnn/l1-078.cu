/* baselines/cudnn/l1-078.cu — cuDNN baseline for L1/078-conv-transposed-2d-asymmetric-input-asymmetric-kernel-padded:
 * y = conv_transpose2d(x, w, padding=(1, 3)), f32, no bias, as
 * cudnnConvolutionBackwardData with CUDNN_FMA_MATH (strict fp32); see
 * conv-transpose-common.cuh for the mapping and the algorithm choice.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o l1-078.so baselines/cudnn/l1-078.cu -lcudnn
 * Napkin math (timed N=8, C=32, F=32, H=512, W=1024): 180 GFLOP of products; 1.07 GB moved at the floor
 * (0.25 ms at 4.3 TB/s; 2.7 ms at the 67 TFLOP/s FFMA peak). */
#include "conv-transpose-common.cuh"

/* task.json's hyper-parameters: spatial dims, kernel, stride, padding,
 * output padding, dilation (per dimension, outermost first), groups. */
static const struct convt_hp hp = {2, {3, 7}, {1, 1}, {1, 3}, {0, 0}, {1, 1}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return convt_cudnn(&hp, in, n_in, out, n_out, stream);
}
