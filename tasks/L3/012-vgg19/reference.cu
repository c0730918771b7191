/* L3/012-vgg19 reference: VGG-19 (KernelBench L3/12), the network of
 * tasks/common/net-classic.cuh, layer by layer with its weights taken from `params`
 * in the order of the layout table. cua_solve (the nvcc baseline) runs it on
 * net.cuh's naive fp32 kernels (one thread per output; GEMMs of gemm.cuh); cua_oracle
 * runs the same network in fp64 (tiled fp64 implicit-GEMM convolutions of
 * conv-oracle.cuh, tiled fp64 GEMMs of gemm.cuh) from the same fp32 inputs.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o ref.so tasks/L3/012-vgg19/reference.cu
 * Napkin math (timed B = 10, H = 224, W = 224): B * 39264124928 * H * W / 50176 = 392.6 GFLOP
 * (convolutions and linears); at least 4 * (B*3*H*W + 143667240 + B*1000) bytes
 * moved (x, params and y once). */
#include "cuarena.h"
#include "net-classic.cuh"

/* output channels of each 3x3 conv; 0 = max pool 2/2 */
static const int cfg[21] = {64, 64, 0, 128, 128, 0, 256, 256, 256, 256, 0, 512, 512, 512, 512,
                            0, 512, 512, 512, 512, 0};

template <class B>
static int forward(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out)
{
	return cua_net_vgg(b, in, n_in, out, n_out, cfg, 21, 1000);
}

CUA_NET_ENTRY_POINTS(forward)
