/* L1/024-logsoftmax reference: y[b,:] = log_softmax(x[b,:]) over the last dim,
 * x, y [B,D] f32, computed stably: y = (x − m) − log Σ exp(x − m), m = row max.
 * cua_solve is the nvcc baseline: one block per row, three passes over the row
 * (max, sum of exp, write), block reductions by warp shuffles (rowreduce.cuh);
 * cua_oracle runs the same passes in double (exp() and log() in double) and
 * writes f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-024.so tasks/L1/024-logsoftmax/reference.cu
 * Napkin math (timed B=4096, D=393216): 8.05 GFLOP, 12.9 GB moved at the floor (3 ms at 4.3 TB/s).
 * Tolerance atol 2e-05, rtol 1e-06 (task.json; the reasons are in its description and
 * tools/l1-tasks.py). */
#include "cuarena.h"
#include "elementwise.cuh"
#include "rowreduce.cuh"

template <typename Acc, typename Out>
__global__ void log_softmax_kernel(const float *__restrict__ x, Out *__restrict__ y, int64_t B,
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
			s += cua_exp((Acc)xr[j] - m);
		s = cua_block_sum(s);
		const Acc log_s = cua_log(s);   /* s >= 1: the max term contributes exp(0) */
		for (int64_t j = threadIdx.x; j < D; j += blockDim.x)
			yr[j] = (Out)(((Acc)xr[j] - m) - log_s);
	}
}

template <typename Acc, typename Out>
static int log_softmax(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                       cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 1, out, n_out, 1));
	const struct cua_tensor *x = &in[0];
	struct cua_tensor *y = &out[0];
	CUA_CHECK(cua_check_tensor(x, CUA_F32, 2));
	CUA_CHECK(cua_check_tensor(y, cua_dtype_of<Out>::value, 2));
	CUA_CHECK(cua_check_same_shape(x, y));

	const int64_t B = x->shape[0], D = x->shape[1];
	log_softmax_kernel<Acc, Out><<<cua_blocks_rows(B), CUA_ROW_THREADS, 0, stream>>>(
		(const float *)x->data, (Out *)y->data, B, D);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return log_softmax<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return log_softmax<double, double>(in, n_in, out, n_out, stream);
}
