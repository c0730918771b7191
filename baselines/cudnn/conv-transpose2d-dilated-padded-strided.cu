/* baselines/cudnn/conv-transpose2d-dilated-padded-strided.cu — cuDNN baseline
 * for L1/079-conv-transpose2d-dilated-padded-strided: y = conv_transpose2d(x, w, stride=2, padding=2, dilation=3),
 * f32, as cudnnConvolutionBackwardData with CUDNN_FMA_MATH (strict fp32); see
 * conv-transpose-common.cuh for the mapping and the algorithm choice.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o conv-transpose2d-dilated-padded-strided.so baselines/cudnn/conv-transpose2d-dilated-padded-strided.cu -lcudnn
 * Napkin math (timed N=16, C=128, F=128, 96×96 -> 193×193):
 * 2·N·C·in·(F/G)·K = 43.5 GFLOP of products (512 terms per output at most, 288 on
 * average); 4·(x + w + y) = 381 MB (0.09 ms at 4.26 TB/s).
 * cuDNN (estimate, unmeasured): 3–25 TFLOP/s (dilation limits cuDNN to its generic dgrad kernels) -> 1.7–14 ms. */
#include "conv-transpose-common.cuh"

/* task.json's hyper-parameters: spatial dims, kernel, stride, padding,
 * output padding, dilation (per dimension, outermost first), groups. */
static const struct convt_hp hp = {2, {3, 3}, {2, 2}, {2, 2}, {0, 0}, {3, 3}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return convt_cudnn(&hp, in, n_in, out, n_out, stream);
}
