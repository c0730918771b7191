/* L1/055-argmin-dim reference: y[b,n] = the first m with the smallest x[b,m,n]
 * (torch.argmin(x, dim=1)), x [B,M,N] f32, y [B,N] i64.
 * cua_solve is the nvcc baseline: reduce.cuh's one thread per output (b,n)
 * scanning m in order with a strict comparison (ties keep the lowest m),
 * consecutive threads on consecutive n so every load is coalesced. The output
 * is an integer, so cua_oracle is the same computation (compared exactly).
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o argmin-dim.so tasks/L1/055-argmin-dim/reference.cu
 * Napkin math (timed B=64, M=N=4096): 4·B·M·N + 8·B·N = 4.30 GB, B·M·N
 * compares; ~1.0 ms at 4.26 TB/s. Only B·N = 262144 threads: one wave,
 * latency-bound.
 * Ties: 4096 normal(0, 1) floats; the two most extreme values of a column are ~0.3
 * apart and floats near 3.5 are 2.4e-7 apart, so a tie for the extreme has
 * probability ~1e-6 per output (~0.3 per timed call); the first-occurrence
 * rule settles it. */
#include "cuarena.h"
#include "reduce.cuh"

static int argmin_dim(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
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

	cua_argreduce_mid<float>((const float *)x->data, (int64_t *)y->data, B, M, N, cua_less_op(),
	                         stream);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return argmin_dim(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return argmin_dim(in, n_in, out, n_out, stream);
}
