/* baselines/cudnn/max-dim.cu — cuDNN baseline for L1/049-max-reduction-over-a-dimension:
 * y[b,n] = max_m x[b,m,n], the maximum over dim 1 of x [B,M,N] f32 into
 * y [B,N] f32, as cudnnReduceTensor(CUDNN_REDUCE_TENSOR_MAX) on x viewed as
 * [B,M,N,1] into y viewed as [B,1,N,1], fp32 compute, no indices.
 * Exact; NaN would propagate, as in torch (the task's inputs are finite).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -o max-dim.so baselines/cudnn/max-dim.cu -lcudnn
 * Napkin math (timed B=64, M=N=4096): 4·B·M·N + 4·B·N = 4.30 GB, ~1.0 ms at
 * 4.26 TB/s. */
#include "reduce-common.cuh"

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return reduce_dim1(CUDNN_REDUCE_TENSOR_MAX, in, n_in, out, n_out, stream);
}
