/* baselines/cudnn/conv-transpose3d-grouped.cu — cuDNN baseline
 * for L1/085-conv-transpose3d-grouped: y = conv_transpose3d(x, w, groups=4),
 * f32, as cudnnConvolutionBackwardData with CUDNN_FMA_MATH (strict fp32); see
 * conv-transpose-common.cuh for the mapping and the algorithm choice.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o conv-transpose3d-grouped.so baselines/cudnn/conv-transpose3d-grouped.cu -lcudnn
 * Napkin math (timed N=8, C=128, F=128 in 4 groups of 32→32, 32×32×32 -> 34×34×34):
 * 2·N·C·in·(F/G)·K = 58.0 GFLOP of products (864 terms per output at most, 864 on
 * average); 4·(x + w + y) = 296 MB (0.07 ms at 4.26 TB/s).
 * cuDNN (estimate, unmeasured): 4–25 TFLOP/s (grouped 3-D dgrad, 32 channels per group) -> 2.3–14 ms. */
#include "conv-transpose-common.cuh"

/* task.json's hyper-parameters: spatial dims, kernel, stride, padding,
 * output padding, dilation (per dimension, outermost first), groups. */
static const struct convt_hp hp = {3, {3, 3, 3}, {1, 1, 1}, {0, 0, 0}, {0, 0, 0}, {1, 1, 1}, 4};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return convt_cudnn(&hp, in, n_in, out, n_out, stream);
}
