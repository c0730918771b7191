/* baselines/cudnn/l1-073.cu — cuDNN baseline for L1/073-conv-transposed-3d-asymmetric-input-square-kernel-strided-padded-grouped:
 * y = conv_transpose3d(x, w, stride=2, padding=1; groups 1: KernelBench's model, see task.json), f32, no bias, as
 * cudnnConvolutionBackwardData with CUDNN_FMA_MATH (strict fp32); see
 * conv-transpose-common.cuh for the mapping and the algorithm choice.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o l1-073.so baselines/cudnn/l1-073.cu -lcudnn
 * Napkin math (timed N=4, C=32, F=32, D=32, H=64, W=128): 58.0 GFLOP of products; 1.18 GB moved at the floor
 * (0.27 ms at 4.3 TB/s; 0.87 ms at the 67 TFLOP/s FFMA peak). */
#include "conv-transpose-common.cuh"

/* task.json's hyper-parameters: spatial dims, kernel, stride, padding,
 * output padding, dilation (per dimension, outermost first), groups. */
static const struct convt_hp hp = {3, {3, 3, 3}, {2, 2, 2}, {1, 1, 1}, {0, 0, 0}, {1, 1, 1}, 1};

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return convt_cudnn(&hp, in, n_in, out, n_out, stream);
}
