/* baselines/cudnn/conv-transpose2d-grouped.cu — cuDNN baseline
 * for L1/080-conv-transpose2d-grouped: y = conv_transpose2d(x, w, groups=4),
 * f32, as cudnnConvolutionBackwardData with CUDNN_FMA_MATH (strict fp32); see
 * conv-transpose-common.cuh for the mapping and the algorithm choice.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o conv-transpose2d-grouped.so baselines/cudnn/conv-transpose2d-grouped.cu -lcudnn
 * Napkin math (timed N=16, C=256, F=256 in 4 groups of 64→64, 128×128 -> 130×130):
 * 2·N·C·in·(F/G)·K = 77.3 GFLOP of products (576 terms per output at most, 576 on
 * average); 4·(x + w + y) = 546 MB (0.13 ms at 4.26 TB/s).
 * cuDNN (estimate, unmeasured): 10–35 TFLOP/s (grouped dgrad, 64 channels per group) -> 2.2–7.7 ms. */
#include "conv-transpose-common.cuh"

/* task.json's hyper-parameters: spatial dims, kernel, stride, padding,
 * output padding, dilation (per dimension, outermost first), groups. */
static const struct convt_hp hp = {2, {3, 3}, {1, 1}, {0, 0}, {0, 0}, {1, 1}, 4};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return convt_cudnn(&hp, in, n_in, out, n_out, stream);
}
