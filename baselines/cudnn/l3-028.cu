/* baselines/cudnn/l3-028.cu — library baseline for L3/028-vision-transformer: Vision Transformer.
 * The task's forward (tasks/common/net-vit.cuh) on the library backend (net-lib.cuh,
 * net-lib-seq.cuh, net-lib-vit.cuh): cuBLAS GEMMs for every linear, the attention scores and P·V as cublasSgemmBatched (net-lib-seq.cuh), net-seq.cuh's softmax and LayerNorm kernels, net-vit.cuh's patch rows, cls/position and GELU kernels. Strict fp32 throughout (no TF32).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o b.so baselines/cudnn/l3-028.cu -lcudnn -lcublas
 * Unmeasured. */
#include "net-lib-vit.cuh"

template <class B>
static int forward(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out)
{
	return cua_net_vit_task(b, 224, 16, 512, 6, 8, 2048, 10, in, n_in, out, n_out);
}

CUA_NET_LIB_ENTRY_POINT(forward)
