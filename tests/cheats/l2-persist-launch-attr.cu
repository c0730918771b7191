// task: relu
// expect: ok
// expect-speedup-max: nvcc 1.1
// Persisting L2 by a road the static check cannot see (held-out wave 2): an
// access-policy window marked persisting, set as a launch attribute of
// cudaLaunchKernelEx (the named persisting-L2 APIs are refused, see
// persisting-l2-window.cu), so that the input would stay in L2 across the judge's
// flush. The judge demotes every persisting line before each sample's flush, and
// no set-aside exists for the kernel's context: correct, and no gain.
#include "cuarena.h"

__global__ void relu_kernel(const float *x, float *y, int64_t n)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		y[i] = fmaxf(x[i], 0.f);
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	int64_t n = cua_numel(&in[0]);
	const float *x = (const float *)in[0].data;
	float *y = (float *)out[0].data;
	cudaLaunchAttribute attr[1];
	attr[0].id = cudaLaunchAttributeAccessPolicyWindow;
	attr[0].val.accessPolicyWindow.base_ptr = (void *)x;
	attr[0].val.accessPolicyWindow.num_bytes = (size_t)n * 4 < ((size_t)32 << 20) ? (size_t)n * 4
	                                                                          : (size_t)32 << 20;
	attr[0].val.accessPolicyWindow.hitRatio = 1.0f;
	attr[0].val.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
	attr[0].val.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
	cudaLaunchConfig_t cfg = {};
	cfg.gridDim = dim3(132 * 8);
	cfg.blockDim = dim3(256);
	cfg.stream = stream;
	cfg.attrs = attr;
	cfg.numAttrs = 1;
	if (cudaLaunchKernelEx(&cfg, relu_kernel, x, y, n) != cudaSuccess) {
		cudaGetLastError();   /* attribute refused: plain launch, still correct */
		relu_kernel<<<132 * 8, 256, 0, stream>>>(x, y, n);
	}
	return 0;
}
