/* algo-common.cuh — choosing a cuDNN convolution algorithm under strict fp32, shared
 * by the convolution baselines (conv-common.cuh, conv-transpose-common.cuh).
 * Header-only; each baseline object gets its own copy. */
#ifndef CUA_BASELINE_ALGO_COMMON_CUH
#define CUA_BASELINE_ALGO_COMMON_CUH

#include <cuda_runtime.h>
#include <cudnn.h>

/* True for math types that may use tensor cores (TF32/fp16): not strict fp32. */
static inline int cudnn_is_tensor_op(cudnnMathType_t m)
{
	return m == CUDNN_TENSOR_OP_MATH || m == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION;
}

/* Index of the fastest Find result (perf is sorted fastest first) that succeeded,
 * keeps strict fp32 math and fits in ws_size bytes; -1 when none does. Works for
 * the forward and the backward-data perf structs alike. */
template <typename Perf>
static inline int cudnn_pick_strict(const Perf *perf, int n_perf, size_t ws_size)
{
	for (int i = 0; i < n_perf; i++)
		if (perf[i].status == CUDNN_STATUS_SUCCESS && !cudnn_is_tensor_op(perf[i].mathType) &&
		    perf[i].memory <= ws_size)
			return i;
	return -1;
}

/* Shrinks a cached workspace to the `need` bytes the chosen algorithm uses (no-op
 * when it is not larger). Returns 0, or the cudaError_t of a failed allocation
 * (the workspace is then empty). */
static inline int cudnn_shrink_workspace(void **ws, size_t *ws_size, size_t need)
{
	if (need >= *ws_size)
		return 0;
	cudaFree(*ws);
	*ws = NULL;
	*ws_size = 0;
	if (need > 0) {
		cudaError_t ce = cudaMalloc(ws, need);
		if (ce != cudaSuccess) {
			*ws = NULL;
			return (int)ce;
		}
		*ws_size = need;
	}
	return 0;
}

#endif /* CUA_BASELINE_ALGO_COMMON_CUH */
