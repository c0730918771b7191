/* L1/036-rmsnorm reference: KernelBench's RMSNorm over dim 1 of x [B,F,D1,D2]
 * f32: rms[b,i,j] = sqrt(Σ_f x[b,f,i,j]² / F + eps), y = x / rms, eps = 1e-5.
 * cua_solve is the nvcc baseline: one thread per (b, i·D2 + j), consecutive
 * threads on consecutive j so every load over f is coalesced; two passes over
 * its F values (sum of squares, write). cua_oracle runs the same loops in
 * double and writes f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-036.so tasks/L1/036-rmsnorm/reference.cu
 * Napkin math (timed B=112, F=64, D1=512, D2=512): 7.52 GFLOP, 15 GB moved at the floor (3.5 ms at 4.3 TB/s).
 * Tolerance atol 1e-05, rtol 1e-05 (task.json; the reasons are in its description and
 * tools/l1-tasks.py). */
#include "cuarena.h"
#include "check.cuh"

#define RMSNORM_EPS 1e-5   /* task.json params.eps */
#define RMSNORM_THREADS 256

static __device__ __forceinline__ float sqrt_acc(float v) { return sqrtf(v); }
static __device__ __forceinline__ double sqrt_acc(double v) { return sqrt(v); }

/* x viewed as [B, F, inner], inner = D1·D2. */
template <typename Acc, typename Out>
__global__ void rmsnorm_kernel(const float *__restrict__ x, Out *__restrict__ y, int64_t B,
                               int64_t F, int64_t inner, Acc eps)
{
	const int64_t total = B * inner;
	for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < total;
	     t += (int64_t)gridDim.x * blockDim.x) {
		const int64_t b = t / inner, i = t % inner;
		const float *xp = x + b * F * inner + i;
		Out *yp = y + b * F * inner + i;
		Acc s = 0;
		for (int64_t f = 0; f < F; f++) {
			const Acc v = (Acc)xp[f * inner];
			s += v * v;
		}
		const Acc rms = sqrt_acc(s / (Acc)F + eps);
		for (int64_t f = 0; f < F; f++)
			yp[f * inner] = (Out)((Acc)xp[f * inner] / rms);
	}
}

template <typename Acc, typename Out>
static int rmsnorm(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                   cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 1, out, n_out, 1));
	const struct cua_tensor *x = &in[0];
	struct cua_tensor *y = &out[0];
	CUA_CHECK(cua_check_tensor(x, CUA_F32, 4));
	CUA_CHECK(cua_check_tensor(y, cua_dtype_of<Out>::value, 4));
	CUA_CHECK(cua_check_same_shape(x, y));

	const int64_t B = x->shape[0], F = x->shape[1], inner = x->shape[2] * x->shape[3];
	rmsnorm_kernel<Acc, Out><<<cua_blocks_1d(B * inner, RMSNORM_THREADS), RMSNORM_THREADS, 0,
	                           stream>>>((const float *)x->data, (Out *)y->data, B, F, inner,
	                                     (Acc)RMSNORM_EPS);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return rmsnorm<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return rmsnorm<double, double>(in, n_in, out, n_out, stream);
}
