/* L1/041-max-pooling-1d reference: 1-D max pooling (max_pool1d(x, 8, stride=1, padding=4,
 * dilation=3)), x [N,C,L] f32 -> y [N,C,L − 13]: y[n,c,p] = the maximum of x[n,c,p − 4 + 3·a]
 * over a < 8 inside 0 ≤ · < L (padding never wins), floor mode.
 * cua_solve is the nvcc baseline: pool2d.cuh's max kernel on x viewed as [N,C,1,L] with a
 * 1×8 window of dilation 3 — one thread per output, consecutive threads on consecutive
 * outputs; cua_oracle writes the same (exact) maxima as f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-041.so tasks/L1/041-max-pooling-1d/reference.cu
 * Napkin math (timed N=64, C=192, L=65536 -> 65523): 4·N·C·(L + OL) = 6.44 GB; ~1.5 ms at
 * 4.3 TB/s. 8 compares per output. */
#include "cuarena.h"
#include "pool2d.cuh"

#define POOL_K 8     /* task.json params */
#define POOL_S 1
#define POOL_P 4
#define POOL_DIL 3

template <typename Acc, typename Out>
static int maxpool(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                   cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 1, out, n_out, 1));
	const struct cua_tensor *x = &in[0];
	struct cua_tensor *y = &out[0];
	CUA_CHECK(cua_check_tensor(x, CUA_F32, 3));
	CUA_CHECK(cua_check_tensor(y, cua_dtype_of<Out>::value, 3));
	CUA_CHECK(cua_check_dim(y, 0, x->shape[0]));
	CUA_CHECK(cua_check_dim(y, 1, x->shape[1]));
	struct cua_pool2d_desc d;
	d.N = x->shape[0];
	d.C = x->shape[1];
	d.H = 1;
	d.W = x->shape[2];
	d.OH = 1;
	d.OW = y->shape[2];
	d.KH = 1;
	d.KW = POOL_K;
	d.SH = 1;
	d.SW = POOL_S;
	d.PH = 0;
	d.PW = POOL_P;
	d.DH = 1;
	d.DW = POOL_DIL;
	d.count_include_pad = false;
	CUA_CHECK(cua_pool2d_validate(d));
	cua_maxpool2d<float, Acc, Out>((const float *)x->data, (Out *)y->data, d, stream);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return maxpool<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return maxpool<double, double>(in, n_in, out, n_out, stream);
}
