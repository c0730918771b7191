/* baselines/cudnn/conv-transpose2d-asymmetric-input.cu — cuDNN baseline
 * for L1/081-conv-transpose2d-asymmetric-input: y = conv_transpose2d(x, w),
 * f32, as cudnnConvolutionBackwardData with CUDNN_FMA_MATH (strict fp32); see
 * conv-transpose-common.cuh for the mapping and the algorithm choice.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o conv-transpose2d-asymmetric-input.so baselines/cudnn/conv-transpose2d-asymmetric-input.cu -lcudnn
 * Napkin math (timed N=16, C=128, F=128, 64×512 -> 66×514):
 * 2·N·C·in·(F/G)·K = 154.6 GFLOP of products (1152 terms per output at most, 1152 on
 * average); 4·(x + w + y) = 547 MB (0.13 ms at 4.26 TB/s).
 * cuDNN (estimate, unmeasured): 30–70 TFLOP/s (as L1/075) -> 2.2–5.2 ms. */
#include "conv-transpose-common.cuh"

/* task.json's hyper-parameters: spatial dims, kernel, stride, padding,
 * output padding, dilation (per dimension, outermost first), groups. */
static const struct convt_hp hp = {2, {3, 3}, {1, 1}, {0, 0}, {0, 0}, {1, 1}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return convt_cudnn(&hp, in, n_in, out, n_out, stream);
}
