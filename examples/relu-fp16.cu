// task: relu
// expect: wrong_output
// relu-fp16.cu — fails the precision policy: ReLU computed in half precision. Each element
// is converted to fp16, the max is taken in fp16 (__hmax), and the result converted back.
// ReLU looks exact, but the round trip to fp16 keeps 11 bits of mantissa: every positive
// value moves by up to 2^-11 relative (about 5e-4), far outside the task's fp32-strict
// tolerance (atol = rtol = 1e-6), and values above 65504 would become inf.
//
// What catches it: the judge, by value, on the GPU. Its comparison with the fp64 oracle fails
// on the first check case: wrong_output at shape odd. (An error that fitted the tolerance
// would fail precision by accuracy instead: it carries the pattern of inputs rounded to 10
// mantissa bits, harness/judge/accuracy.h.) The SASS scan does not stop it: in a strict task
// it only explains a failure (naming tensor-core and packed-half HADD2/HMUL2/HFMA2
// instructions, and then the verdict is forbidden_instruction), and this kernel compiles to
// F2FP.F16.F32.PACK (to fp16), HMNMX2 (the max) and HADD2.F32 with a zero operand (the exact
// widening back, an idiom the scan lets through). So `--compile-only` passes it, and the
// verdict on the GPU is wrong_output: precision is decided by value, whatever instructions ran.
//
//   build/cuarena eval relu examples/relu-fp16.cu                 # on the GPU: wrong_output
//   build/cuarena eval relu examples/relu-fp16.cu --compile-only  # passes: not the guard
#include "cuarena.h"
#include <cuda_fp16.h>

#define THREADS 256

__global__ void relu_half_kernel(const float *__restrict__ x, float *__restrict__ y, int64_t n)
{
	const int64_t stride = (int64_t)gridDim.x * blockDim.x;
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
		__half h = __float2half(x[i]);           // fp32 -> fp16: rounds to 11 bits
		h = __hmax(h, __float2half(0.f));        // the math, in fp16
		y[i] = __half2float(h);                  // back to fp32: the rounding stays
	}
}

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	const int64_t n = cua_numel(&in[0]);
	int64_t blocks = (n + THREADS - 1) / THREADS;
	blocks = blocks < 1 ? 1 : blocks > 4096 ? 4096 : blocks;
	relu_half_kernel<<<(unsigned)blocks, THREADS, 0, stream>>>((const float *)in[0].data,
	                                                           (float *)out[0].data, n);
	return (int)cudaGetLastError();
}
