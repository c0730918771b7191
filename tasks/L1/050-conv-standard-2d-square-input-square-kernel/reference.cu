/* L1/050-conv-standard-2d-square-input-square-kernel reference: y = conv2d(x, w, b, stride=4, padding=2),
 * f32, bias b [F]: x [N,C,H,W], w [F,C,K,K], b [F], y [N,F,(H+2*P-K)/S+1,(W+2*P-K)/S+1].
 * cua_solve is the nvcc baseline: direct convolution (convnd.cuh), one thread per output, fp32 accumulation in
 * (c, taps) order, then the bias added; cua_oracle runs it
 * in double, writing f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o l1-050.so tasks/L1/050-conv-standard-2d-square-input-square-kernel/reference.cu
 * Napkin math (timed N=256, C=3, F=96, H=224, W=224): 54 GFLOP; 452 MB moved at the floor
 * (0.11 ms at 4.3 TB/s). This kernel at ~1 TFLOP/s: ~54 ms; the oracle about the same.
 * Tolerance atol 4e-05, rtol 0.0001: 1e-4 of the output scale (tools/l1-tasks.py), ~100× the fp32
 * rounding of these sums. */
#include "cuarena.h"
#include "convnd.cuh"

/* nsp, k, stride, padding, dilation (slowest dim first), groups (0 = depthwise) */
static const struct cua_conv_hparams conv = {2, {11, 11}, {4, 4}, {2, 2}, {1, 1}, 1};

/* y[n,f,…] += b[f] over the OV output positions of each (n, f). */
template <typename Out>
__global__ void add_bias_kernel(Out *__restrict__ y, const float *__restrict__ b, int64_t n,
                                int64_t F, int64_t OV)
{
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		y[i] += (Out)b[(i / OV) % F];
}

/* in = {x, w, b} (f32), out = {y} (Out): the convolution, then the bias. */
template <typename Acc, typename Out>
static int conv_bias(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                     cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 3, out, n_out, 1));
	const struct cua_tensor *b = &in[2];
	struct cua_convnd_desc d;
	CUA_CHECK(cua_convnd_setup<Out>(&in[0], &in[1], &out[0], &conv, &d));
	CUA_CHECK(cua_check_tensor(b, CUA_F32, 1));
	CUA_CHECK(cua_check_dim(b, 0, d.F));
	cua_convnd_naive<float, float, Acc, Out>((const float *)in[0].data,
	                                         (const float *)in[1].data, (Out *)out[0].data, d,
	                                         stream);
	const int64_t OV = d.out[0] * d.out[1] * d.out[2], n = d.N * d.F * OV;
	add_bias_kernel<Out><<<cua_blocks_1d(n, CUA_CONV_THREADS), CUA_CONV_THREADS, 0, stream>>>(
		(Out *)out[0].data, (const float *)b->data, n, d.F, OV);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return conv_bias<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return conv_bias<double, double>(in, n_in, out, n_out, stream);
}
