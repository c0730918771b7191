/* baselines/cudnn/l3-039.cu — cuDNN baseline for L3/039-gru: GRU, 6 layers: the output sequence.
 * The task's forward (tasks/common/net-seq.cuh cua_net_rnn_task) on the library backend: the
 * whole recurrent stack in one cudnnRNNForward, strict fp32 (CUDNN_FMA_MATH), weights packed
 * from params into cuDNN's weight space on every call (baselines/cudnn/net-lib-seq.cuh), the
 * rest as net.cuh/net-lib.cuh run it.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o b.so baselines/cudnn/l3-039.cu -lcudnn -lcublas
 * Unmeasured. */
#include "net-lib-seq.cuh"

static const struct seq_rnn_task cfg = {SEQ_CELL_GRU, 6, false, false, false, 128, 256, SEQ_OUT_SEQ, 0};

template <class B>
static int forward(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out)
{
	return cua_net_rnn_task<SEQ_CELL_GRU>(b, cfg, in, n_in, out, n_out);
}

CUA_NET_LIB_ENTRY_POINT(forward)
