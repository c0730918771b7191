/* L3/003-deep-narrow-mlp reference: Deep narrow MLP: 8192 → 16 × 1024 → 8192 (KernelBench L3/3), the network of
 * tasks/common/net-classic.cuh, layer by layer with its weights taken from `params`
 * in the order of the layout table. cua_solve (the nvcc baseline) runs it on
 * net.cuh's naive fp32 kernels (one thread per output; GEMMs of gemm.cuh); cua_oracle
 * runs the same network in fp64 (tiled fp64 implicit-GEMM convolutions of
 * conv-oracle.cuh, tiled fp64 GEMMs of gemm.cuh) from the same fp32 inputs.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o ref.so tasks/L3/003-deep-narrow-mlp/reference.cu
 * Napkin math (timed B = 1024): B * 65011712 = 66.6 GFLOP
 * (convolutions and linears); at least 4 * (B*8192 + 32530432 + B*8192) bytes
 * moved (x, params and y once). */
#include "cuarena.h"
#include "net-classic.cuh"

static const int64_t widths[] = {1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024,
                                 1024, 1024, 1024, 1024, 1024, 1024, 8192};

template <class B>
static int forward(B &b, const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out)
{
	return cua_net_mlp(b, in, n_in, out, n_out, 8192, widths, 17);
}

CUA_NET_ENTRY_POINTS(forward)
