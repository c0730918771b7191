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
 * keeps strict fp32 math, is not skip_algo (-1: none) and fits in ws_size bytes;
 * -1 when none does. Works for the forward and the backward-data perf structs
 * alike. */
template <typename Perf>
static inline int cudnn_pick_strict(const Perf *perf, int n_perf, size_t ws_size, int skip_algo)
{
	for (int i = 0; i < n_perf; i++)
		if (perf[i].status == CUDNN_STATUS_SUCCESS && !cudnn_is_tensor_op(perf[i].mathType) &&
		    (int)perf[i].algo != skip_algo && perf[i].memory <= ws_size)
			return i;
	return -1;
}

/* The algorithm a strict-fp32 baseline must not use for a filter of extents
 * k[0..n): cuDNN's non-fused Winograd for filters larger than 3 is not
 * fp32-accurate. On the H200 (cuDNN 9.14, tools/cudnn-find.cu at the shape of
 * X/008 (then L1/088): 5x5 transposed convolution, 3200 products per output) it was Find's
 * fastest offer under CUDNN_FMA_MATH and missed an fp64 sum by up to 1.07 with
 * 12.9 M of 26.8 M outputs out of the task's tolerance, where implicit GEMM and
 * FFT tiling stayed within 3.6e-5. 3x3 Winograd passed every selftest and stays. */
static inline bool cudnn_filter_over_3(const int *k, int n)
{
	for (int i = 0; i < n; i++)
		if (k[i] > 3)
			return true;
	return false;
}
static inline int cudnn_skip_fwd(const int *k, int n)
{
	return cudnn_filter_over_3(k, n) ? (int)CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED : -1;
}
static inline int cudnn_skip_bwd_data(const int *k, int n)
{
	return cudnn_filter_over_3(k, n) ? (int)CUDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED
	                                 : -1;
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
