// task: relu
// expect: ok
// expect-speedup-max: nvcc 1.1
// Result reuse keyed by a sample of the input's content: 8 elements are hashed and a
// hit replays the saved output. Every timed call gets fresh inputs from a secret seed,
// so the cache never hits: the kernel is correct and gains nothing.
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
	static unsigned long long keys[8];
	static float *saved[8];
	static int64_t sizes[8];
	static int n_saved;
	int64_t n = cua_numel(&in[0]);
	float probe[8] = {0};
	cudaMemcpy(probe, in[0].data, (n < 8 ? n : 8) * sizeof(float), cudaMemcpyDeviceToHost);
	unsigned long long key = 1469598103934665603ull;
	for (int k = 0; k < 8; k++)
		key = (key ^ (unsigned long long)__builtin_bit_cast(unsigned, probe[k])) * 1099511628211ull;
	for (int k = 0; k < n_saved; k++)
		if (keys[k] == key && sizes[k] == n)
			return (int)cudaMemcpyAsync(out[0].data, saved[k], n * sizeof(float),
			                            cudaMemcpyDeviceToDevice, stream);
	relu_kernel<<<4096, 256, 0, stream>>>((const float *)in[0].data, (float *)out[0].data, n);
	int slot = n_saved < 8 ? n_saved++ : 7;
	if (sizes[slot] != n) {
		cudaFree(saved[slot]);
		if (cudaMalloc((void **)&saved[slot], n * sizeof(float)) != cudaSuccess)
			return 1;
	}
	keys[slot] = key;
	sizes[slot] = n;
	cudaMemcpyAsync(saved[slot], out[0].data, n * sizeof(float), cudaMemcpyDeviceToDevice,
	                stream);
	return (int)cudaGetLastError();
}
