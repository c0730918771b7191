// task: gelu
// expect: ok
// Inline PTX (no tensor cores): loads through the non-coherent path (ld.global.nc) and
// streaming stores (st.global.cs) written as asm, the exact erf from the math library.
// Bytes: 1 read + 1 write of B*D floats.
#include "cuarena.h"

__device__ __forceinline__ float load_nc(const float *p)
{
	float v;
	asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(p));
	return v;
}

__device__ __forceinline__ void store_cs(float *p, float v)
{
	asm volatile("st.global.cs.f32 [%0], %1;" : : "l"(p), "f"(v) : "memory");
}

__global__ void gelu_ptx_kernel(const float *x, float *y, int64_t n)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x) {
		float v = load_nc(x + i);
		store_cs(y + i, 0.5f * v * (1.f + erff(v * 0.70710678118654752f)));
	}
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	int64_t n = cua_numel(&in[0]);
	int64_t blocks = (n + 255) / 256;
	gelu_ptx_kernel<<<(unsigned)(blocks < 8192 ? blocks : 8192), 256, 0, stream>>>(
		(const float *)in[0].data, (float *)out[0].data, n);
	return cudaGetLastError() != cudaSuccess;
}
