/* L3/006-googlenet-inception-module reference: GoogLeNet Inception module (480 → 512)
 * (KernelBench L3/6 GoogleNetInceptionModule), the network of
 * tasks/common/net-cnn.cuh, layer by layer with its weights taken from `params` in the
 * order of the layout table. cua_solve (the nvcc baseline) runs it on net.cuh's naive
 * fp32 kernels (one thread per output; GEMMs of gemm.cuh); cua_oracle runs the same
 * network in fp64 (tiled fp64 implicit-GEMM convolutions of conv-oracle.cuh, one thread
 * per output for depthwise convolutions, tiled fp64 GEMMs of gemm.cuh) from the same
 * fp32 inputs.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o ref.so tasks/L3/006-googlenet-inception-module/reference.cu
 * Napkin math (timed B = 10, H = 224, W = 224): B * 37687394304 * H * W / 50176 = 376.9 GFLOP
 * (convolutions and linears); at least 4 * (B*480*H*W + 376320 + B*512*H*W) bytes
 * moved (x, params and y once). */
#include "cuarena.h"
#include "net-cnn.cuh"

static const struct cua_cnn_incep m = {192, 96, 208, 16, 48, 64};

template <class B>
static int forward(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out)
{
	return cua_cnn_inception_module(b, in, n_in, out, n_out, 480, m);
}

CUA_NET_ENTRY_POINTS(forward)
