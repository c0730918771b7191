/* L3/026-shufflenet reference: ShuffleNet (groups 3)
 * (KernelBench L3/26 ShuffleNet), the network of
 * tasks/common/net-cnn.cuh, layer by layer with its weights taken from `params` in the
 * order of the layout table. cua_solve (the nvcc baseline) runs it on net.cuh's naive
 * fp32 kernels (one thread per output; GEMMs of gemm.cuh); cua_oracle runs the same
 * network in fp64 (tiled fp64 implicit-GEMM convolutions of conv-oracle.cuh, one thread
 * per output for depthwise convolutions, tiled fp64 GEMMs of gemm.cuh) from the same
 * fp32 inputs.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o ref.so tasks/L3/026-shufflenet/reference.cu
 * Napkin math (timed B = 10, H = 224, W = 224): B * 14359483904 * H * W / 50176 = 143.6 GFLOP
 * (convolutions and linears); at least 4 * (B*3*H*W + 3340008 + B*1000) bytes
 * moved (x, params and y once). */
#include "cuarena.h"
#include "net-cnn.cuh"

template <class B>
static int forward(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out)
{
	return cua_cnn_shufflenet(b, in, n_in, out, n_out, 1000);
}

CUA_NET_ENTRY_POINTS(forward)
