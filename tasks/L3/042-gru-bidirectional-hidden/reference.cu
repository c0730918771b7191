/* L3/042 reference: Bidirectional GRU, 6 layers: final hidden state h_n (see task.json's description).
 * The network is tasks/common/net-seq.cuh's cua_net_rnn_task over a backend: cua_solve runs
 * it on the naive float kernels (the nvcc baseline: one GEMM for each layer's input
 * projection, then one launch per time step, a warp per (batch, unit) forming the gate dot
 * products), cua_oracle the same in double (gemm.cuh's tiled fp64 GEMM for the
 * projections). The library baseline baselines/cudnn/l3-042.cu is the same forward over
 * cuDNN's RNN (cudnnRNNForward).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o r.so tasks/L3/042-gru-bidirectional-hidden/reference.cu */
#include "cuarena.h"
#include "net-seq.cuh"

static const struct seq_rnn_task cfg = {SEQ_CELL_GRU, 6, true, false, true, 128, 256, SEQ_OUT_HN, 0};

template <class B>
static int forward(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out)
{
	return cua_net_rnn_task<SEQ_CELL_GRU>(b, cfg, in, n_in, out, n_out);
}

CUA_NET_ENTRY_POINTS(forward)
