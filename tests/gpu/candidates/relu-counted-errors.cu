// task: relu
// expect: wrong_output
// expect-message: left elements unwritten in output 'y' (shape odd, public seed): 37 wrong, 7 NaN, 5 unwritten of 37037; first at [0, 999]
// Wrong in a known pattern on the odd shape (37 x 1001 = 37037 elements): every
// index i = 999 mod 1000 is off by 1 (37 of them), i = 4321 mod 5000 is NaN (7),
// i = 6543 mod 7000 is never written (5); the first bad one is 999. The
// comparison kernel reduces its counts per warp and then across the grid: the
// report must still count every element and name the first, exactly.
#include "cuarena.h"

__global__ void relu_counted_kernel(const float *x, float *y, int64_t n)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x) {
		if (i % 7000 == 6543)
			continue;
		float v = fmaxf(x[i], 0.f);
		if (i % 1000 == 999)
			v += 1.f;
		else if (i % 5000 == 4321)
			v = __int_as_float(0x7fc00000);
		y[i] = v;
	}
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	int64_t n = cua_numel(&in[0]);
	relu_counted_kernel<<<1024, 256, 0, stream>>>((const float *)in[0].data,
	                                              (float *)out[0].data, n);
	return (int)cudaGetLastError();
}
