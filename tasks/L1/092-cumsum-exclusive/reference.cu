/* L1/092-cumsum-exclusive reference: KernelBench v0.1's "exclusive" cumsum, computed as
 * its forward writes it, torch.cumsum(torch.cat((zeros[B,1], x), dim=1)[:-1], dim=1): the
 * [:-1] drops the last row, so x [B,L] f32 -> y [B−1, L+1] f32 with
 *     y[b,0] = 0, y[b,l] = Σ_{j<l} x[b,j] for 1 ≤ l ≤ L, b < B−1.
 * cua_solve is the nvcc baseline: scan.cuh's block scan, one block per row walking it in
 * tiles of 256 with a running carry, writing each inclusive sum one column to the right of
 * its element (y's rows are L+1 long); cua_oracle runs it in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-092.so tasks/L1/092-cumsum-exclusive/reference.cu
 * Napkin math (timed B=L=32768): 4·(B−1)·L + 4·(B−1)·(L+1) = 8.59 GB, ~2.0 ms at 4.3 TB/s;
 * this kernel is latency-bound (three __syncthreads per tile, scan.cuh), several ms.
 * Tolerance 1e-3 + 1e-5·|y|: the sums reach ≈ 16384 and carry one rounding per tile
 * (128 tiles), ~1e-4 absolute at the end of a row. */
#include "cuarena.h"
#include "scan.cuh"

template <typename Acc, typename Out>
__global__ void shifted_scan_kernel(const float *__restrict__ x, Out *__restrict__ y,
                                    int64_t rows, int64_t L)
{
	const cua_scan_sum op;
	for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
		const float *xr = x + r * L;
		Out *yr = y + r * (L + 1);
		if (threadIdx.x == 0)
			yr[0] = (Out)0;
		Acc carry = 0;
		for (int64_t base = 0; base < L; base += blockDim.x) {
			const int64_t k = base + threadIdx.x;
			const Acc v = k < L ? (Acc)xr[k] : Acc(0);
			Acc inc, exc, total;
			cua_block_scan(v, op, Acc(0), &inc, &exc, &total);
			if (k < L)
				yr[k + 1] = (Out)(carry + inc);
			carry += total;
		}
	}
}

template <typename Acc, typename Out>
static int cumsum_exclusive(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                            int n_out, cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 1, out, n_out, 1));
	const struct cua_tensor *x = &in[0];
	struct cua_tensor *y = &out[0];
	CUA_CHECK(cua_check_tensor(x, CUA_F32, 2));
	CUA_CHECK(cua_check_tensor(y, cua_dtype_of<Out>::value, 2));
	const int64_t B = x->shape[0], L = x->shape[1];
	if (B < 2)
		return CUA_CHECK_E_SHAPE;          /* y would have no rows */
	CUA_CHECK(cua_check_dim(y, 0, B - 1));
	CUA_CHECK(cua_check_dim(y, 1, L + 1));

	shifted_scan_kernel<Acc, Out><<<cua_blocks_1d(B - 1, 1), CUA_SCAN_THREADS, 0, stream>>>(
		(const float *)x->data, (Out *)y->data, B - 1, L);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return cumsum_exclusive<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return cumsum_exclusive<double, double>(in, n_in, out, n_out, stream);
}
