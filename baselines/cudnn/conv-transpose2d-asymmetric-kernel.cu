/* baselines/cudnn/conv-transpose2d-asymmetric-kernel.cu — cuDNN baseline
 * for L1/076-conv-transpose2d-asymmetric-kernel: y = conv_transpose2d(x, w),
 * f32, as cudnnConvolutionBackwardData with CUDNN_FMA_MATH (strict fp32); see
 * conv-transpose-common.cuh for the mapping and the algorithm choice.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o conv-transpose2d-asymmetric-kernel.so baselines/cudnn/conv-transpose2d-asymmetric-kernel.cu -lcudnn
 * Napkin math (timed N=8, C=128, F=128, 128×128 -> 130×134):
 * 2·N·C·in·(F/G)·K = 90.2 GFLOP of products (2688 terms per output at most, 2688 on
 * average); 4·(x + w + y) = 140 MB (0.03 ms at 4.26 TB/s).
 * cuDNN (estimate, unmeasured): 25–60 TFLOP/s (implicit GEMM or FFT) -> 1.5–3.6 ms. */
#include "conv-transpose-common.cuh"

/* task.json's hyper-parameters: spatial dims, kernel, stride, padding,
 * output padding, dilation (per dimension, outermost first), groups. */
static const struct convt_hp hp = {2, {3, 7}, {1, 1}, {0, 0}, {0, 0}, {1, 1}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return convt_cudnn(&hp, in, n_in, out, n_out, stream);
}
