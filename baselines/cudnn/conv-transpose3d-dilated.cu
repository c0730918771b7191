/* baselines/cudnn/conv-transpose3d-dilated.cu — cuDNN baseline
 * for L1/086-conv-transpose3d-dilated: y = conv_transpose3d(x, w, dilation=2),
 * f32, as cudnnConvolutionBackwardData with CUDNN_FMA_MATH (strict fp32); see
 * conv-transpose-common.cuh for the mapping and the algorithm choice.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o conv-transpose3d-dilated.so baselines/cudnn/conv-transpose3d-dilated.cu -lcudnn
 * Napkin math (timed N=8, C=64, F=64, 32×32×32 -> 36×36×36):
 * 2·N·C·in·(F/G)·K = 58.0 GFLOP of products (1728 terms per output at most, 1728 on
 * average); 4·(x + w + y) = 163 MB (0.04 ms at 4.26 TB/s).
 * cuDNN (estimate, unmeasured): 4–25 TFLOP/s (dilation limits cuDNN to its generic dgrad kernels) -> 2.3–14 ms. */
#include "conv-transpose-common.cuh"

/* task.json's hyper-parameters: spatial dims, kernel, stride, padding,
 * output padding, dilation (per dimension, outermost first), groups. */
static const struct convt_hp hp = {3, {3, 3, 3}, {1, 1, 1}, {0, 0, 0}, {0, 0, 0}, {2, 2, 2}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return convt_cudnn(&hp, in, n_in, out, n_out, stream);
}
