/* X/002-vector-add reference: c = a + b, a, b, c [N] f32.
 * cua_solve is the nvcc baseline (grid-stride, one coalesced load per input and
 * one store per element); cua_oracle adds in double and writes f64.
 * Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
 *        -cudart shared -Iinclude -Itasks/common -o vector-add.so tasks/X/002-vector-add/reference.cu
 * Napkin math (timed N=2^29): 12·N = 6.44 GB moved, N flops; ~1.5 ms at 4.3 TB/s. */
#include "cuarena.h"
#include "elementwise.cuh"

struct add_op {
	template <typename T> __device__ T operator()(T a, T b) const { return a + b; }
};

template <typename Acc, typename Out>
static int vector_add(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
                      cudaStream_t stream)
{
	CUA_CHECK(cua_check_counts(in, n_in, 2, out, n_out, 1));
	const struct cua_tensor *a = &in[0], *b = &in[1];
	struct cua_tensor *c = &out[0];
	CUA_CHECK(cua_check_tensor(a, CUA_F32, 1));
	CUA_CHECK(cua_check_tensor(b, CUA_F32, 1));
	CUA_CHECK(cua_check_tensor(c, cua_dtype_of<Out>::value, 1));
	CUA_CHECK(cua_check_same_shape(a, b));
	CUA_CHECK(cua_check_same_shape(a, c));

	cua_launch_binary<Acc>(cua_numel(a), add_op(), (const float *)a->data,
	                       (const float *)b->data, (Out *)c->data, stream);
	return (int)cudaGetLastError();
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	return vector_add<float, float>(in, n_in, out, n_out, stream);
}

extern "C" int cua_oracle(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                          int n_out, cudaStream_t stream)
{
	return vector_add<double, double>(in, n_in, out, n_out, stream);
}
