/* L1/047-sum-reduction-over-a-dimension reference: y[b,0,n] = Σ_m x[b,m,n] (torch.sum(x, dim=1,
 * keepdim=True)), x [B,M,N] f32, y [B,1,N] f32.
 * cua_solve is the nvcc baseline: one thread per output (b,n) summing m in
 * order, consecutive threads on consecutive n so every load is coalesced;
 * cua_oracle runs the same loop in double and writes f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-047.so tasks/L1/047-sum-reduction-over-a-dimension/reference.cu
 * Napkin math (timed B=128, M=4096, N=4095): 2.15 GFLOP, 8.59 GB moved at the floor (2 ms at 4.3 TB/s).
 * Tolerance atol 0.002, rtol 0.0001 (task.json; the reasons are in its description and
 * tools/l1-tasks.py). */
#include "cuarena.h"
#include "reduce.cuh"

template <typename Acc, typename Out>
static int sum_dim(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                   cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 1, out, n_out, 1));
	const struct cua_tensor *x = &in[0];
	struct cua_tensor *y = &out[0];
	CUA_CHECK(cua_check_tensor(x, CUA_F32, 3));
	CUA_CHECK(cua_check_tensor(y, cua_dtype_of<Out>::value, 3));   /* keepdim: [B,1,N] */
	const int64_t B = x->shape[0], M = x->shape[1], N = x->shape[2];
	CUA_CHECK(cua_check_dim(y, 0, B));
	CUA_CHECK(cua_check_dim(y, 1, 1));
	CUA_CHECK(cua_check_dim(y, 2, N));

	cua_reduce_mid<float, Acc, Out>((const float *)x->data, (Out *)y->data, B, M, N,
	                                cua_sum_op(), Acc(0), stream);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return sum_dim<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return sum_dim<double, double>(in, n_in, out, n_out, stream);
}
