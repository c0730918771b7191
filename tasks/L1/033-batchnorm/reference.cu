/* L1/033-batchnorm reference: BatchNorm2d as KernelBench runs it (training mode: batch
 * statistics; weight 1, bias 0), x, y [N,C,H,W] f32, eps 1e-5:
 *     mean[c] = Σ_{n,h,w} x[n,c,h,w] / (N·H·W), var[c] = Σ (x − mean[c])² / (N·H·W),
 *     y = (x − mean[c]) / sqrt(var[c] + eps).
 * cua_solve is the nvcc baseline: one block per channel, three passes over its N slices of
 * H·W elements (mean, centred variance, write); each thread sums its share of one slice in
 * a chunk before adding it to its total, so its rounding chain is ~H·W/blockDim + N adds,
 * not N·H·W/blockDim; cua_oracle runs it in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-033.so tasks/L1/033-batchnorm/reference.cu
 * Napkin math (timed N=C=64, H=W=512: 1.07 G elements): 8 bytes per element at the floor,
 * 8.6 GB, ~2.0 ms at 4.3 TB/s (a fast kernel reads x twice: the statistics, then the
 * write; ~3 ms); this one reads it three times with C = 64 blocks, ~5–10 ms.
 * Tolerance atol = rtol = 1e-4: the mean of 16.8 M values in U[0, 1) errs by ~1e-7
 * (rounding chains of ~330 adds), y ≤ 1.8 by a few 1e-7. */
#include "cuarena.h"
#include "norm.cuh"

#define BATCHNORM_EPS 1e-5   /* task.json params.eps */
#define BATCHNORM_THREADS 1024

/* Σ f(x) over channel c's N slices of HW elements, this thread's share, each slice's
 * part summed on its own first. */
template <typename Acc, typename F>
__device__ Acc channel_sum(const float *__restrict__ x, int64_t c, int64_t N, int64_t C,
                           int64_t HW, F f)
{
	Acc total = 0;
	for (int64_t n = 0; n < N; n++) {
		const float *slice = x + (n * C + c) * HW;
		Acc part = 0;
		for (int64_t k = threadIdx.x; k < HW; k += blockDim.x)
			part += f((Acc)slice[k]);
		total += part;
	}
	return total;
}

template <typename Acc, typename Out>
__global__ void batchnorm_kernel(const float *__restrict__ x, Out *__restrict__ y, int64_t N,
                                 int64_t C, int64_t HW, Acc eps)
{
	const Acc count = (Acc)(N * HW);
	for (int64_t c = blockIdx.x; c < C; c += gridDim.x) {
		const Acc mean = cua_block_sum(channel_sum<Acc>(x, c, N, C, HW, cua_term_id())) / count;
		cua_term_centred_sq<Acc> csq;
		csq.mean = mean;
		const Acc var = cua_block_sum(channel_sum<Acc>(x, c, N, C, HW, csq)) / count;
		const Acc rstd = Acc(1) / cua_sqrt(var + eps);
		for (int64_t n = 0; n < N; n++) {
			const int64_t base = (n * C + c) * HW;
			for (int64_t k = threadIdx.x; k < HW; k += blockDim.x)
				y[base + k] = (Out)(((Acc)x[base + k] - mean) * rstd);
		}
	}
}

template <typename Acc, typename Out>
static int batchnorm(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                     cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 1, out, n_out, 1));
	const struct cua_tensor *x = &in[0];
	struct cua_tensor *y = &out[0];
	CUA_CHECK(cua_check_tensor(x, CUA_F32, 4));
	CUA_CHECK(cua_check_tensor(y, cua_dtype_of<Out>::value, 4));
	CUA_CHECK(cua_check_same_shape(x, y));
	const int64_t N = x->shape[0], C = x->shape[1], HW = x->shape[2] * x->shape[3];

	batchnorm_kernel<Acc, Out><<<cua_blocks_rows(C), BATCHNORM_THREADS, 0, stream>>>(
		(const float *)x->data, (Out *)y->data, N, C, HW, (Acc)BATCHNORM_EPS);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return batchnorm<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return batchnorm<double, double>(in, n_in, out, n_out, stream);
}
