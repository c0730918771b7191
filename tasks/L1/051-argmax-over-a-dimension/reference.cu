/* L1/051-argmax-over-a-dimension reference: y[b,n] = the first m with the largest x[b,m,n]
 * (torch.argmax(x, dim=1)), x [B,M,N] f32, y [B,N] i64.
 * cua_solve is the nvcc baseline: reduce.cuh's one thread per output (b,n)
 * scanning m in order with a strict comparison (ties keep the lowest m),
 * consecutive threads on consecutive n so every load is coalesced. The output
 * is an integer, so cua_oracle is the same computation (compared exactly).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-051.so tasks/L1/051-argmax-over-a-dimension/reference.cu
 * Napkin math (timed B=128, M=4096, N=4095): 2.15 GFLOP, 8.59 GB moved at the floor (2 ms at 4.3 TB/s).
 * Tolerance atol 0, rtol 0 (task.json; the reasons are in its description and
 * tools/l1-tasks.py). */
#include "cuarena.h"
#include "reduce.cuh"

static int argmax_dim(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                      cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 1, out, n_out, 1));
	const struct cua_tensor *x = &in[0];
	struct cua_tensor *y = &out[0];
	CUA_CHECK(cua_check_tensor(x, CUA_F32, 3));
	CUA_CHECK(cua_check_tensor(y, CUA_I64, 2));
	const int64_t B = x->shape[0], M = x->shape[1], N = x->shape[2];
	CUA_CHECK(cua_check_dim(y, 0, B));
	CUA_CHECK(cua_check_dim(y, 1, N));

	cua_argreduce_mid<float>((const float *)x->data, (int64_t *)y->data, B, M, N, cua_greater_op(),
	                         stream);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return argmax_dim(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return argmax_dim(in, n_in, out, n_out, stream);
}
