/* test-algo-pick.cc — the strict-fp32 cuDNN algorithm choice shared by the
 * convolution baselines (baselines/cudnn/algo-common.cuh), on made-up Find
 * results: no GPU or cuDNN library needed, only its header. */
#include <criterion/criterion.h>

#include "algo-common.cuh"

static cudnnConvolutionBwdDataAlgoPerf_t bwd(cudnnConvolutionBwdDataAlgo_t a, cudnnMathType_t m,
                                             size_t mem)
{
	cudnnConvolutionBwdDataAlgoPerf_t p = {};
	p.algo = a;
	p.status = CUDNN_STATUS_SUCCESS;
	p.mathType = m;
	p.memory = mem;
	return p;
}

/* What Find offered on the H200 for L1/088 (5x5 transposed convolution), fastest
 * first: the non-fused Winograd missed the fp64 sum by up to 1.07. */
static void l088_offer(cudnnConvolutionBwdDataAlgoPerf_t *p)
{
	p[0] = bwd(CUDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED, CUDNN_FMA_MATH, 634077184);
	p[1] = bwd(CUDNN_CONVOLUTION_BWD_DATA_ALGO_FFT_TILING, CUDNN_FMA_MATH, 98041856);
	p[2] = bwd(CUDNN_CONVOLUTION_BWD_DATA_ALGO_0, CUDNN_FMA_MATH, 0);
	p[3] = bwd(CUDNN_CONVOLUTION_BWD_DATA_ALGO_1, CUDNN_FMA_MATH, 0);
}

static const int k3[2] = {3, 3}, k5[2] = {5, 5}, k37[2] = {3, 7};

Test(algo_pick, winograd_nonfused_is_skipped_for_filters_over_3)
{
	cudnnConvolutionBwdDataAlgoPerf_t p[4];
	l088_offer(p);
	int i = cudnn_pick_strict(p, 4, 1ull << 30, cudnn_skip_bwd_data(k5, 2));
	cr_assert_eq(i, 1, "picked %d", i);
	cr_assert_eq(p[i].algo, CUDNN_CONVOLUTION_BWD_DATA_ALGO_FFT_TILING);
}

Test(algo_pick, winograd_nonfused_stays_for_3x3)
{
	cudnnConvolutionBwdDataAlgoPerf_t p[4];
	l088_offer(p);
	cr_assert_eq(cudnn_pick_strict(p, 4, 1ull << 30, cudnn_skip_bwd_data(k3, 2)), 0);
	cr_assert_eq(cudnn_skip_fwd(k3, 2), -1);
	cr_assert_eq(cudnn_skip_fwd(k37, 2), (int)CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED);
}

Test(algo_pick, tensor_ops_failures_and_big_workspaces_are_skipped)
{
	cudnnConvolutionBwdDataAlgoPerf_t p[5];
	p[0] = bwd(CUDNN_CONVOLUTION_BWD_DATA_ALGO_1, CUDNN_TENSOR_OP_MATH, 0);
	p[1] = bwd(CUDNN_CONVOLUTION_BWD_DATA_ALGO_0, CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION, 0);
	p[2] = bwd(CUDNN_CONVOLUTION_BWD_DATA_ALGO_FFT, CUDNN_FMA_MATH, 0);
	p[2].status = CUDNN_STATUS_NOT_SUPPORTED;
	p[3] = bwd(CUDNN_CONVOLUTION_BWD_DATA_ALGO_FFT_TILING, CUDNN_FMA_MATH, 2048);
	p[4] = bwd(CUDNN_CONVOLUTION_BWD_DATA_ALGO_1, CUDNN_FMA_MATH, 0);
	cr_assert_eq(cudnn_pick_strict(p, 5, 1024, -1), 4);
	cr_assert_eq(cudnn_pick_strict(p, 5, 4096, -1), 3);
	cr_assert_eq(cudnn_pick_strict(p, 2, 4096, -1), -1, "only tensor-op offers: none");
}
