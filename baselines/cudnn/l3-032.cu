/* baselines/cudnn/l3-032.cu — library baseline for L3/032-convolutional-vision-transformer: Convolutional Vision Transformer.
 * The task's forward (tasks/common/net-vit.cuh) on the library backend (net-lib.cuh,
 * net-lib-seq.cuh, net-lib-vit.cuh): cuDNN for conv1 (the algorithm chosen by measurement), cuBLAS GEMMs for every linear, the attention scores and P·V as cublasSgemmBatched (net-lib-seq.cuh), net-seq.cuh's softmax and LayerNorm kernels. Strict fp32 throughout (no TF32).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o b.so baselines/cudnn/l3-032.cu -lcudnn -lcublas
 * Unmeasured. */
#include "net-lib-vit.cuh"

template <class B>
static int forward(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out)
{
	return cua_net_cvit_task(b, 32, 4, 128, 6, 4, 512, 1000, in, n_in, out, n_out);
}

CUA_NET_LIB_ENTRY_POINT(forward)
