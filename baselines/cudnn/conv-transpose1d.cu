/* baselines/cudnn/conv-transpose1d.cu — cuDNN baseline
 * for L1/073-conv-transpose1d: y = conv_transpose1d(x, w),
 * f32, as cudnnConvolutionBackwardData with CUDNN_FMA_MATH (strict fp32); see
 * conv-transpose-common.cuh for the mapping and the algorithm choice.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o conv-transpose1d.so baselines/cudnn/conv-transpose1d.cu -lcudnn
 * Napkin math (timed N=16, C=256, F=256, 8192 -> 8194):
 * 2·N·C·in·(F/G)·K = 51.5 GFLOP of products (768 terms per output at most, 768 on
 * average); 4·(x + w + y) = 269 MB (0.06 ms at 4.26 TB/s).
 * cuDNN (estimate, unmeasured): 15–40 TFLOP/s (implicit GEMM over a height-1 image) -> 1.3–3.4 ms. */
#include "conv-transpose-common.cuh"

/* task.json's hyper-parameters: spatial dims, kernel, stride, padding,
 * output padding, dilation (per dimension, outermost first), groups. */
static const struct convt_hp hp = {1, {3}, {1}, {0}, {0}, {1}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return convt_cudnn(&hp, in, n_in, out, n_out, stream);
}
