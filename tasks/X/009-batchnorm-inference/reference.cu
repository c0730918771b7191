/* X/009-batchnorm-inference reference: BatchNorm2d in inference mode, NCHW f32,
 *     y[n,c,h,w] = (x - running_mean[c]) / sqrt(running_var[c] + eps) · weight[c] + bias[c],
 * eps = 1e-5; x, y [N,C,H,W], the four parameter tensors [C].
 * cua_solve is the nvcc baseline: grid-stride, one thread per element,
 * c = (i / (H·W)) % C, the per-channel values re-read (cached) for every
 * element; cua_oracle runs the same kernel in double and writes f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o batchnorm.so tasks/X/009-batchnorm-inference/reference.cu
 * Napkin math (timed N=128, C=64, H=W=256: 536.9 M elements): 8·N·C·H·W + 16·C
 * = 4.29 GB at the floor, ~1.0 ms at 4.26 TB/s; 4 flops per element. The
 * reference moves the same bytes (its 64-bit divisions cost some of it); the
 * oracle writes 8-byte outputs, 6.4 GB, ~2 ms.
 * Tolerance (atol = rtol = 1e-5): the fp32 chain (subtract, divide by a
 * square root, multiply, add) errs by a few ulp of its largest intermediate,
 * |x − mean| · scale ≤ ~13 here, i.e. ≤ ~3e-6 absolute; ≥ 3× inside atol. */
#include "cuarena.h"
#include "check.cuh"

#define BATCHNORM_EPS 1e-5   /* task.json params.eps */
#define BATCHNORM_THREADS 256

static __device__ __forceinline__ float sqrt_acc(float v) { return sqrtf(v); }
static __device__ __forceinline__ double sqrt_acc(double v) { return sqrt(v); }

template <typename Acc, typename Out>
__global__ void batchnorm_kernel(const float *__restrict__ x, const float *__restrict__ mean,
                                 const float *__restrict__ var, const float *__restrict__ w,
                                 const float *__restrict__ b, Out *__restrict__ y, int64_t n,
                                 int64_t C, int64_t HW, Acc eps)
{
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x) {
		const int64_t c = (i / HW) % C;
		const Acc v = ((Acc)x[i] - (Acc)mean[c]) / sqrt_acc((Acc)var[c] + eps);
		y[i] = (Out)(v * (Acc)w[c] + (Acc)b[c]);
	}
}

template <typename Acc, typename Out>
static int batchnorm(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                     cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 5, out, n_out, 1));
	const struct cua_tensor *x = &in[0];
	struct cua_tensor *y = &out[0];
	CUA_CHECK(cua_check_tensor(x, CUA_F32, 4));
	CUA_CHECK(cua_check_tensor(y, cua_dtype_of<Out>::value, 4));
	CUA_CHECK(cua_check_same_shape(x, y));
	const int64_t C = x->shape[1], HW = x->shape[2] * x->shape[3];
	for (int k = 1; k < 5; k++) {
		CUA_CHECK(cua_check_tensor(&in[k], CUA_F32, 1));
		CUA_CHECK(cua_check_dim(&in[k], 0, C));
	}

	const int64_t n = cua_numel(x);
	batchnorm_kernel<Acc, Out><<<cua_blocks_1d(n, BATCHNORM_THREADS), BATCHNORM_THREADS, 0,
	                             stream>>>(
		(const float *)x->data, (const float *)in[1].data, (const float *)in[2].data,
		(const float *)in[3].data, (const float *)in[4].data, (Out *)y->data, n, C, HW,
		(Acc)BATCHNORM_EPS);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return batchnorm<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return batchnorm<double, double>(in, n_in, out, n_out, stream);
}
