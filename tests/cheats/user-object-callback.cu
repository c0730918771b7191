// task: relu
// expect: forbidden_symbol
// expect-message: host callbacks
// A user object whose destructor CUDA calls on its own thread (host code run
// behind the kernel's back; held-out wave 2 passed the static check with it).
// cudaUserObjectCreate is refused with the other host-callback APIs.
#include "cuarena.h"

__global__ void relu_kernel(const float *x, float *y, int64_t n)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		y[i] = fmaxf(x[i], 0.f);
}

static void CUDART_CB destroy(void *) {}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	cudaUserObject_t obj;
	if (cudaUserObjectCreate(&obj, NULL, destroy, 1, cudaUserObjectNoDestructorSync) !=
	    cudaSuccess)
		return 1;
	cudaUserObjectRelease(obj, 1);
	int64_t n = cua_numel(&in[0]);
	relu_kernel<<<132 * 8, 256, 0, stream>>>((const float *)in[0].data,
	                                         (float *)out[0].data, n);
	return 0;
}
