/* baselines/cudnn/l3-033.cu — library baseline for L3/033-vanilla-rnn: Vanilla RNN cell, one step.
 * The task's forward (tasks/common/net-seq.cuh) on the library backend (net-lib.cuh,
 * net-lib-seq.cuh): cuBLAS SGEMM for both linears (strict fp32), the concat and tanh as their own kernels. Strict fp32 throughout (no TF32). cuDNN's fused attention is not
 * used: it has no fp32 mode (net-lib-seq.cuh).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o b.so baselines/cudnn/l3-033.cu -lcudnn -lcublas
 * Unmeasured. */
#include "net-lib-seq.cuh"

template <class B>
static int forward(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out)
{
	return cua_net_rnn_cell_task(b, 16384, 16384, 8192, in, n_in, out, n_out);
}

CUA_NET_LIB_ENTRY_POINT(forward)
