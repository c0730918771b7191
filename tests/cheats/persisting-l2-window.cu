// task: relu
// expect: forbidden_symbol
// expect-message: persisting
// Sets a persisting-L2 access policy window on the input, so it survives the L2
// flush (the llm.c "3.5 TB/s on a 0.86 TB/s card" trick).
#include "cuarena.h"

__global__ void relu_kernel(const float *x, float *y, int64_t n)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		y[i] = fmaxf(x[i], 0.f);
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	cudaStreamAttrValue v = {};
	v.accessPolicyWindow.base_ptr = in[0].data;
	v.accessPolicyWindow.num_bytes = 32 << 20;
	v.accessPolicyWindow.hitRatio = 1.0f;
	v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
	v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
	cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 32 << 20);
	cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &v);
	relu_kernel<<<4096, 256, 0, stream>>>((const float *)in[0].data, (float *)out[0].data,
	                                      cua_numel(&in[0]));
	return (int)cudaGetLastError();
}
