// task: vector-add
// expect: ok
// Thrust with a stream execution policy: thrust::transform on thrust::cuda::par.on(stream),
// the one-liner a C++ programmer reaches for. Everything it launches is ordered on `stream`.
#include "cuarena.h"
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/transform.h>

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	const float *a = (const float *)in[0].data, *b = (const float *)in[1].data;
	float *c = (float *)out[0].data;
	int64_t n = cua_numel(&in[0]);
	thrust::transform(thrust::cuda::par.on(stream), a, a + n, b, c, thrust::plus<float>());
	return cudaGetLastError() != cudaSuccess;
}
