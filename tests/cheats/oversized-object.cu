// task: relu
// expect: compile_error
// expect-message: 512 MiB
// Blame shifting by size (held-out wave 2): an object of 600 MiB (a table the
// kernel reads one byte of) passed the build's 1 GiB file limit, and the judge,
// which stages at most 512 MiB, failed with harness_error; the judge was replaced
// and the object stayed in the cache. The build and the judge now share one
// limit, CUA_OBJECT_MAX: the build refuses the object, naming it, and caches
// nothing.
#include "cuarena.h"

__attribute__((used)) static const char ballast[600u << 20] = { 1 };

__global__ void relu_kernel(const float *x, float *y, int64_t n, char b)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		y[i] = fmaxf(x[i], 0.f) + (float)(b - b);
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	int64_t n = cua_numel(&in[0]);
	volatile const char *p = ballast;
	relu_kernel<<<132 * 8, 256, 0, stream>>>((const float *)in[0].data,
	                                         (float *)out[0].data, n, p[n % sizeof ballast]);
	return 0;
}
