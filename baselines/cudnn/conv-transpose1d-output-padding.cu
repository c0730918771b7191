/* baselines/cudnn/conv-transpose1d-output-padding.cu — cuDNN baseline
 * for L1/087-conv-transpose1d-output-padding: y = conv_transpose1d(x, w, stride=2, padding=1, output_padding=1),
 * f32, as cudnnConvolutionBackwardData with CUDNN_FMA_MATH (strict fp32); see
 * conv-transpose-common.cuh for the mapping and the algorithm choice.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o conv-transpose1d-output-padding.so baselines/cudnn/conv-transpose1d-output-padding.cu -lcudnn
 * Napkin math (timed N=8, C=512, F=256, 8192 -> 16384):
 * 2·N·C·in·(F/G)·K = 51.5 GFLOP of products (1024 terms per output at most, 768 on
 * average); 4·(x + w + y) = 270 MB (0.06 ms at 4.26 TB/s).
 * cuDNN (estimate, unmeasured): 10–35 TFLOP/s (strided dgrad over a height-1 image) -> 1.5–5.2 ms. */
#include "conv-transpose-common.cuh"

/* task.json's hyper-parameters: spatial dims, kernel, stride, padding,
 * output padding, dilation (per dimension, outermost first), groups. */
static const struct convt_hp hp = {1, {3}, {2}, {1}, {1}, {1}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return convt_cudnn(&hp, in, n_in, out, n_out, stream);
}
