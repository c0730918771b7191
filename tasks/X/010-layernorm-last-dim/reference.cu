/* X/010-layernorm-last-dim reference: per row b of x [B,D] f32,
 *     mean = Σ x / D,  var = Σ (x - mean)² / D  (biased),
 *     y = (x - mean) / sqrt(var + eps) · gamma + beta,   eps = 1e-5,
 * gamma, beta [D] f32, y [B,D] f32.
 * cua_solve is the nvcc baseline: one block per row, three passes over the row
 * (mean, centred variance, write), block reductions by warp shuffles;
 * cua_oracle runs the same passes in double and writes f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o layernorm.so tasks/X/010-layernorm-last-dim/reference.cu
 * Napkin math (timed B=16384, D=32768): 8·B·D + 8·D = 4.29 GB at the floor:
 * ~1.0 ms at 4.3 TB/s; this kernel reads each row 3 times. 8·B·D flops. */
#include "cuarena.h"
#include "rowreduce.cuh"

#define LAYERNORM_EPS 1e-5   /* task.json params.eps */

static __device__ __forceinline__ float sqrt_acc(float v) { return sqrtf(v); }
static __device__ __forceinline__ double sqrt_acc(double v) { return sqrt(v); }

template <typename Acc, typename Out>
__global__ void layernorm_kernel(const float *__restrict__ x, const float *__restrict__ gamma,
                                 const float *__restrict__ beta, Out *__restrict__ y, int64_t B,
                                 int64_t D, Acc eps)
{
	for (int64_t r = blockIdx.x; r < B; r += gridDim.x) {
		const float *xr = x + r * D;
		Out *yr = y + r * D;
		Acc s = 0;
		for (int64_t j = threadIdx.x; j < D; j += blockDim.x)
			s += (Acc)xr[j];
		const Acc mean = cua_block_sum(s) / (Acc)D;
		Acc q = 0;
		for (int64_t j = threadIdx.x; j < D; j += blockDim.x) {
			Acc c = (Acc)xr[j] - mean;
			q += c * c;
		}
		const Acc var = cua_block_sum(q) / (Acc)D;
		const Acc rstd = Acc(1) / sqrt_acc(var + eps);
		for (int64_t j = threadIdx.x; j < D; j += blockDim.x)
			yr[j] = (Out)(((Acc)xr[j] - mean) * rstd * (Acc)gamma[j] + (Acc)beta[j]);
	}
}

template <typename Acc, typename Out>
static int layernorm(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                     cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 3, out, n_out, 1));
	const struct cua_tensor *x = &in[0], *gamma = &in[1], *beta = &in[2];
	struct cua_tensor *y = &out[0];
	CUA_CHECK(cua_check_tensor(x, CUA_F32, 2));
	CUA_CHECK(cua_check_tensor(gamma, CUA_F32, 1));
	CUA_CHECK(cua_check_tensor(beta, CUA_F32, 1));
	CUA_CHECK(cua_check_tensor(y, cua_dtype_of<Out>::value, 2));
	const int64_t B = x->shape[0], D = x->shape[1];
	CUA_CHECK(cua_check_dim(gamma, 0, D));
	CUA_CHECK(cua_check_dim(beta, 0, D));
	CUA_CHECK(cua_check_same_shape(x, y));

	layernorm_kernel<Acc, Out><<<cua_blocks_rows(B), CUA_ROW_THREADS, 0, stream>>>(
		(const float *)x->data, (const float *)gamma->data, (const float *)beta->data,
		(Out *)y->data, B, D, (Acc)LAYERNORM_EPS);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return layernorm<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return layernorm<double, double>(in, n_in, out, n_out, stream);
}
