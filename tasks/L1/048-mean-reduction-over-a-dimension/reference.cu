/* L1/048-mean-reduction-over-a-dimension reference: y[b,n] = (1/M)·Σ_m x[b,m,n], x [B,M,N] f32,
 * y [B,N] f32.
 * cua_solve is the nvcc baseline: reduce.cuh's one thread per output (b,n)
 * summing m in order, consecutive threads on consecutive n so every load is
 * coalesced, then the sum divided by M; cua_oracle runs the same loop in double
 * and writes f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-048.so tasks/L1/048-mean-reduction-over-a-dimension/reference.cu
 * Napkin math (timed B=128, M=4096, N=4095): 2.15 GFLOP, 8.59 GB moved at the floor (2 ms at 4.3 TB/s).
 * Tolerance atol 5e-07, rtol 0.0001 (task.json; the reasons are in its description and
 * tools/l1-tasks.py). */
#include "cuarena.h"
#include "reduce.cuh"

/* Divides the sum by the count. */
template <typename Acc> struct mean_post {
	Acc count;
	__device__ Acc operator()(Acc s) const { return s / count; }
};

template <typename Acc, typename Out>
static int mean_dim(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                    cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 1, out, n_out, 1));
	const struct cua_tensor *x = &in[0];
	struct cua_tensor *y = &out[0];
	CUA_CHECK(cua_check_tensor(x, CUA_F32, 3));
	CUA_CHECK(cua_check_tensor(y, cua_dtype_of<Out>::value, 2));
	const int64_t B = x->shape[0], M = x->shape[1], N = x->shape[2];
	CUA_CHECK(cua_check_dim(y, 0, B));
	CUA_CHECK(cua_check_dim(y, 1, N));

	mean_post<Acc> post;
	post.count = (Acc)M;
	cua_reduce_mid_post<float, Acc, Out>((const float *)x->data, (Out *)y->data, B, M, N,
	                                     cua_sum_op(), Acc(0), post, stream);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return mean_dim<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return mean_dim<double, double>(in, n_in, out, n_out, stream);
}
