/* L3/013-densenet121-transition-layer reference: DenseNet-121 transition layer (32 → 64)
 * (KernelBench L3/13 DenseNet121TransitionLayer), the network of
 * tasks/common/net-cnn.cuh, layer by layer with its weights taken from `params` in the
 * order of the layout table. cua_solve (the nvcc baseline) runs it on net.cuh's naive
 * fp32 kernels (one thread per output; GEMMs of gemm.cuh); cua_oracle runs the same
 * network in fp64 (tiled fp64 implicit-GEMM convolutions of conv-oracle.cuh, one thread
 * per output for depthwise convolutions, tiled fp64 GEMMs of gemm.cuh) from the same
 * fp32 inputs.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o ref.so tasks/L3/013-densenet121-transition-layer/reference.cu
 * Napkin math (timed B = 128, H = 256, W = 256): B * 268435456 * H * W / 65536 = 34.4 GFLOP
 * (convolutions and linears); at least 4 * (B*32*H*W + 2176 + B*64*H/2*W/2) bytes
 * moved (x, params and y once). */
#include "cuarena.h"
#include "net-cnn.cuh"

template <class B>
static int forward(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out)
{
	return cua_cnn_densenet_transition(b, in, n_in, out, n_out, 32, 64);
}

CUA_NET_ENTRY_POINTS(forward)
