/* softmax-common.cuh — cuDNN row softmax shared by baselines/cudnn/softmax.cu
 * and log-softmax.cu: y = softmax (or log_softmax) of each row of x [B,D] f32
 * over the last dim, as one cudnnSoftmaxForward(algo, MODE_INSTANCE) on a
 * packed [B,D,1,1] tensor (instance mode reduces over C·H·W = D per n = b;
 * rows-common.cuh holds the checks, handle and tensor descriptor).
 *
 * A baseline names its cudnnSoftmaxAlgorithm_t and calls softmax_forward().
 * Every status is checked; failures return non-zero (a cudnnStatus_t, a
 * cudaError_t, or -1 count / -2 dtype, rank or data / -4 shape), never abort. */
#ifndef BASELINES_CUDNN_SOFTMAX_COMMON_CUH
#define BASELINES_CUDNN_SOFTMAX_COMMON_CUH

#include "rows-common.cuh"

/* The whole baseline of a row-softmax task: in = {x}, out = {y}. */
static inline int softmax_forward(cudnnSoftmaxAlgorithm_t algo, const struct cua_tensor *in,
                                  int n_in, struct cua_tensor *out, int n_out,
                                  cudaStream_t stream)
{
	int64_t B, D;
	int rc = rows_check(in, n_in, out, n_out, &B, &D);
	if (rc != 0)
		return rc;
	if (rows_handle == NULL && (rc = rows_setup()) != 0)
		return rc;
	if ((rc = rows_bind(B, D, stream)) != 0)
		return rc;
	const float one = 1.0f, zero = 0.0f;
	cudnnStatus_t st = cudnnSoftmaxForward(rows_handle, algo, CUDNN_SOFTMAX_MODE_INSTANCE, &one,
	                                       rows_desc, in[0].data, &zero, rows_desc,
	                                       out[0].data);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	return (int)cudaGetLastError();
}

#endif /* BASELINES_CUDNN_SOFTMAX_COMMON_CUH */
