/* L1/043-max-pooling-3d reference: 3-D max pooling (max_pool3d(x, 3, stride=2, padding=1,
 * dilation=3)), x [N,C,D,H,W] f32 -> y [N,C,OD,OH,OW], O· = (· − 5)/2 + 1: the maximum of
 * x[n,c,2p − 1 + 3a, 2q − 1 + 3b, 2r − 1 + 3e] over a, b, e < 3 inside the input (padding
 * never wins), floor mode.
 * cua_solve is the nvcc baseline: poolnd.cuh's 3-D max kernel, one thread per output,
 * consecutive threads on consecutive ow; cua_oracle writes the same (exact) maxima as f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-043.so tasks/L1/043-max-pooling-3d/reference.cu
 * Napkin math (timed N=16, C=32, D=H=W=128 -> 62³): 4·N·C·(128³ + 62³) = 4.79 GB; ~1.1 ms
 * at 4.3 TB/s. 27 compares per output, the taps 3 elements apart. */
#include "cuarena.h"
#include "poolnd.cuh"

#define POOL_K 3     /* task.json params */
#define POOL_S 2
#define POOL_P 1
#define POOL_DIL 3

template <typename Acc, typename Out>
static int maxpool(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                   cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 1, out, n_out, 1));
	const struct cua_tensor *x = &in[0];
	struct cua_tensor *y = &out[0];
	CUA_CHECK(cua_check_tensor(x, CUA_F32, 5));
	CUA_CHECK(cua_check_tensor(y, cua_dtype_of<Out>::value, 5));
	CUA_CHECK(cua_check_dim(y, 0, x->shape[0]));
	CUA_CHECK(cua_check_dim(y, 1, x->shape[1]));
	struct cua_pool3d_desc d;
	d.N = x->shape[0];
	d.C = x->shape[1];
	d.D = x->shape[2];
	d.H = x->shape[3];
	d.W = x->shape[4];
	d.OD = y->shape[2];
	d.OH = y->shape[3];
	d.OW = y->shape[4];
	d.KD = d.KH = d.KW = POOL_K;
	d.SD = d.SH = d.SW = POOL_S;
	d.PD = d.PH = d.PW = POOL_P;
	d.DD = d.DH = d.DW = POOL_DIL;
	d.count_include_pad = false;
	CUA_CHECK(cua_pool3d_validate(d));
	cua_maxpool3d<float, Acc, Out>((const float *)x->data, (Out *)y->data, d, stream);
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
