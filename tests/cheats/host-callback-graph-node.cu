// task: relu
// expect: sandbox_violation
// expect-message: system-call filter
// Host code on one of CUDA's own threads (held-out wave 2: passed the static
// check and ran): a graph whose host node is added with the generic
// cudaGraphAddNode (the named host-callback APIs are refused by the static
// check), its function opening a socket by a raw system call while the GPU works.
// CUDA's threads run under the kernel's process's filter like any other (it is
// installed on every thread, TSYNC, and inherited by the ones made later): the
// call ends the process.
#include "cuarena.h"
#include "elf-walk.h"

__global__ void relu_kernel(const float *x, float *y, int64_t n)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		y[i] = fmaxf(x[i], 0.f);
}

static void CUDART_CB host_fn(void *)
{
	ew_sys(SYS_socket, 2 /* AF_INET */, 1 /* SOCK_STREAM */, 0);
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	int64_t n = cua_numel(&in[0]);
	relu_kernel<<<132 * 8, 256, 0, stream>>>((const float *)in[0].data,
	                                         (float *)out[0].data, n);
	cudaGraph_t g;
	cudaGraphExec_t x;
	cudaGraphNode_t node;
	if (cudaGraphCreate(&g, 0) != cudaSuccess)
		return 1;
	struct cudaGraphNodeParams p = {};
	p.type = cudaGraphNodeTypeHost;
	p.host.fn = host_fn;
	if (cudaGraphAddNode(&node, g, NULL, NULL, 0, &p) != cudaSuccess ||
	    cudaGraphInstantiate(&x, g, 0) != cudaSuccess || cudaGraphLaunch(x, stream) != cudaSuccess)
		return 1;
	return cudaStreamSynchronize(stream) == cudaSuccess ? 0 : 1;
}
