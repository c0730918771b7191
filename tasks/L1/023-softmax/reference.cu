/* L1/023-softmax reference: y[b,:] = softmax(x[b,:]) over the last dim,
 * x, y [B,D] f32, computed stably: y = exp(x - max) / Σ exp(x - max).
 * cua_solve is the nvcc baseline: one block per row, three passes over the row
 * (max, sum of exp, write), block reductions by warp shuffles; cua_oracle runs
 * the same passes in double (exp() in double) and writes f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-023.so tasks/L1/023-softmax/reference.cu
 * Napkin math (timed B=4096, D=393216): 8.05 GFLOP, 12.9 GB moved at the floor (3 ms at 4.3 TB/s).
 * Tolerance atol 1e-09, rtol 0.0001 (task.json; the reasons are in its description and
 * tools/l1-tasks.py). */
#include "cuarena.h"
#include "rowreduce.cuh"

static __device__ __forceinline__ float exp_acc(float v) { return expf(v); }
static __device__ __forceinline__ double exp_acc(double v) { return exp(v); }

template <typename Acc, typename Out>
__global__ void softmax_kernel(const float *__restrict__ x, Out *__restrict__ y, int64_t B,
                               int64_t D)
{
	for (int64_t r = blockIdx.x; r < B; r += gridDim.x) {
		const float *xr = x + r * D;
		Out *yr = y + r * D;
		Acc m = (Acc)-INFINITY;
		for (int64_t j = threadIdx.x; j < D; j += blockDim.x) {
			Acc v = (Acc)xr[j];
			m = v > m ? v : m;
		}
		m = cua_block_max(m);
		Acc s = 0;
		for (int64_t j = threadIdx.x; j < D; j += blockDim.x)
			s += exp_acc((Acc)xr[j] - m);
		s = cua_block_sum(s);
		for (int64_t j = threadIdx.x; j < D; j += blockDim.x)
			yr[j] = (Out)(exp_acc((Acc)xr[j] - m) / s);
	}
}

template <typename Acc, typename Out>
static int softmax(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                   cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 1, out, n_out, 1));
	const struct cua_tensor *x = &in[0];
	struct cua_tensor *y = &out[0];
	CUA_CHECK(cua_check_tensor(x, CUA_F32, 2));
	CUA_CHECK(cua_check_tensor(y, cua_dtype_of<Out>::value, 2));
	CUA_CHECK(cua_check_same_shape(x, y));

	const int64_t B = x->shape[0], D = x->shape[1];
	softmax_kernel<Acc, Out><<<cua_blocks_rows(B), CUA_ROW_THREADS, 0, stream>>>(
		(const float *)x->data, (Out *)y->data, B, D);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return softmax<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return softmax<double, double>(in, n_in, out, n_out, stream);
}
