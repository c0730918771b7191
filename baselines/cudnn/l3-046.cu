/* baselines/cudnn/l3-046.cu — library baseline for L3/046-netvlad-ghost-clusters: NetVLAD with ghost clusters.
 * The task's forward (tasks/common/net-vit.cuh) on the library backend (net-lib.cuh,
 * net-lib-vit.cuh): cuBLAS GEMMs (x·clusters; the per-batch xᵀ·assignment as cublasSgemmStridedBatched), cuDNN BatchNorm (batch statistics) and softmax, net-vit.cuh's kernels for the residual and F.normalize. Strict fp32 throughout (no TF32).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o b.so baselines/cudnn/l3-046.cu -lcudnn -lcublas
 * Unmeasured. */
#include "net-lib-vit.cuh"

template <class B>
static int forward(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out)
{
	return cua_net_netvlad_task(b, 32, 16, 512, in, n_in, out, n_out);
}

CUA_NET_LIB_ENTRY_POINT(forward)
