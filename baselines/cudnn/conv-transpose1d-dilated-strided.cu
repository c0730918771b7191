/* baselines/cudnn/conv-transpose1d-dilated-strided.cu — cuDNN baseline
 * for L1/074-conv-transpose1d-dilated-strided: y = conv_transpose1d(x, w, stride=3, padding=2, dilation=2),
 * f32, as cudnnConvolutionBackwardData with CUDNN_FMA_MATH (strict fp32); see
 * conv-transpose-common.cuh for the mapping and the algorithm choice.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o conv-transpose1d-dilated-strided.so baselines/cudnn/conv-transpose1d-dilated-strided.cu -lcudnn
 * Napkin math (timed N=16, C=256, F=256, 4096 -> 12290):
 * 2·N·C·in·(F/G)·K = 42.9 GFLOP of products (512 terms per output at most, 427 on
 * average); 4·(x + w + y) = 270 MB (0.06 ms at 4.26 TB/s).
 * cuDNN (estimate, unmeasured): 3–25 TFLOP/s (dilation limits cuDNN to its generic dgrad kernels) -> 1.7–14 ms. */
#include "conv-transpose-common.cuh"

/* task.json's hyper-parameters: spatial dims, kernel, stride, padding,
 * output padding, dilation (per dimension, outermost first), groups. */
static const struct convt_hp hp = {1, {5}, {3}, {2}, {0}, {2}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return convt_cudnn(&hp, in, n_in, out, n_out, stream);
}
