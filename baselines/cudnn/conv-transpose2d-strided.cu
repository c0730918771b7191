/* baselines/cudnn/conv-transpose2d-strided.cu — cuDNN baseline
 * for X/007-conv-transpose2d-strided: y = conv_transpose2d(x, w, stride=2, padding=1),
 * f32, as cudnnConvolutionBackwardData with CUDNN_FMA_MATH (strict fp32); see
 * conv-transpose-common.cuh for the mapping and the algorithm choice.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o conv-transpose2d-strided.so baselines/cudnn/conv-transpose2d-strided.cu -lcudnn
 * Napkin math (timed N=32, C=256, F=128, 64×64 -> 128×128):
 * 2·N·C·in·(F/G)·K = 137.4 GFLOP of products (1024 terms per output at most, 1024 on
 * average); 4·(x + w + y) = 405 MB (0.10 ms at 4.26 TB/s).
 * cuDNN (estimate, unmeasured): 20–45 TFLOP/s (cuDNN's strided dgrad kernels) -> 3.1–6.9 ms. */
#include "conv-transpose-common.cuh"

/* task.json's hyper-parameters: spatial dims, kernel, stride, padding,
 * output padding, dilation (per dimension, outermost first), groups. */
static const struct convt_hp hp = {2, {4, 4}, {2, 2}, {1, 1}, {0, 0}, {1, 1}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return convt_cudnn(&hp, in, n_in, out, n_out, stream);
}
