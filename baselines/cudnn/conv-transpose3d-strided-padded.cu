/* baselines/cudnn/conv-transpose3d-strided-padded.cu — cuDNN baseline
 * for L1/084-conv-transpose3d-strided-padded: y = conv_transpose3d(x, w, stride=2, padding=1),
 * f32, as cudnnConvolutionBackwardData with CUDNN_FMA_MATH (strict fp32); see
 * conv-transpose-common.cuh for the mapping and the algorithm choice.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o conv-transpose3d-strided-padded.so baselines/cudnn/conv-transpose3d-strided-padded.cu -lcudnn
 * Napkin math (timed N=8, C=64, F=64, 32×32×32 -> 63×63×63):
 * 2·N·C·in·(F/G)·K = 58.0 GFLOP of products (512 terms per output at most, 216 on
 * average); 4·(x + w + y) = 580 MB (0.14 ms at 4.26 TB/s).
 * cuDNN (estimate, unmeasured): 5–30 TFLOP/s (cuDNN's 3-D strided fp32 dgrad) -> 1.9–12 ms. */
#include "conv-transpose-common.cuh"

/* task.json's hyper-parameters: spatial dims, kernel, stride, padding,
 * output padding, dilation (per dimension, outermost first), groups. */
static const struct convt_hp hp = {3, {3, 3, 3}, {2, 2, 2}, {1, 1, 1}, {0, 0, 0}, {1, 1, 1}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return convt_cudnn(&hp, in, n_in, out, n_out, stream);
}
