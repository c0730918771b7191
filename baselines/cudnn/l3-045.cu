/* baselines/cudnn/l3-045.cu — library baseline for L3/045-unet-softmax: U-Net with softmax.
 * The task's forward (tasks/common/net-vit.cuh) on the library backend (net-lib.cuh,
 * net-lib-seq.cuh, net-lib-vit.cuh): cuDNN convolutions (the algorithm chosen by measurement), BatchNorm (batch statistics), softmax and max pooling, ConvTranspose2d as cuDNN's backward-data convolution (conv-transpose-common.cuh), net.cuh's concat. Strict fp32 throughout (no TF32).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o b.so baselines/cudnn/l3-045.cu -lcudnn -lcublas
 * Unmeasured. */
#include "net-lib-vit.cuh"

template <class B>
static int forward(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out)
{
	return cua_net_unet_task(b, 8, 4, 64, in, n_in, out, n_out);
}

CUA_NET_LIB_ENTRY_POINT(forward)
