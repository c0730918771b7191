/* baselines/cudnn/l1-075.cu — cuDNN baseline for L1/075-conv-transposed-2d-asymmetric-input-asymmetric-kernel-strided-grouped-padded-dilated:
 * y = conv_transpose2d(x, w, stride=(2, 3), padding=(1, 2), groups=4, dilation=(2, 1)), f32, no bias, as
 * cudnnConvolutionBackwardData with CUDNN_FMA_MATH (strict fp32); see
 * conv-transpose-common.cuh for the mapping and the algorithm choice.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o l1-075.so baselines/cudnn/l1-075.cu -lcudnn
 * Napkin math (timed N=16, C=32, F=64, H=128, W=256): 8.05 GFLOP of products; 873 MB moved at the floor
 * (0.2 ms at 4.3 TB/s; 0.12 ms at the 67 TFLOP/s FFMA peak). */
#include "conv-transpose-common.cuh"

/* task.json's hyper-parameters: spatial dims, kernel, stride, padding,
 * output padding, dilation (per dimension, outermost first), groups. */
static const struct convt_hp hp = {2, {3, 5}, {2, 3}, {1, 2}, {0, 0}, {2, 1}, 4};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return convt_cudnn(&hp, in, n_in, out, n_out, stream);
}
