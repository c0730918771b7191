/* activation-common.cuh — cuDNN elementwise activation shared by the
 * activation baselines (baselines/cudnn/{relu,sigmoid,tanh,elu,swish}.cu):
 * y = f(x) over x, y [B,D] f32 as one cudnnActivationForward on a packed
 * [B,D,1,1] tensor, NaN propagated (rows-common.cuh holds the checks, handle
 * and tensor descriptor).
 *
 * A baseline states its mode and coefficient in a struct activation_spec and
 * calls activation_forward(). Every status is checked; failures return
 * non-zero (a cudnnStatus_t, a cudaError_t, or -1 count / -2 dtype, rank or
 * data / -4 shape), never abort. */
#ifndef BASELINES_CUDNN_ACTIVATION_COMMON_CUH
#define BASELINES_CUDNN_ACTIVATION_COMMON_CUH

#include "rows-common.cuh"

/* What cudnnSetActivationDescriptor (and, for SWISH, ...SwishBeta) is given. */
struct activation_spec {
	cudnnActivationMode_t mode;
	double coef;          /* ELU's alpha, CLIPPED_RELU's ceiling; else unused */
	double swish_beta;    /* > 0: cudnnSetActivationDescriptorSwishBeta(beta); 0: not called */
};

/* Created with the handle (rows-common.cuh), kept for the life of the process. */
static cudnnActivationDescriptor_t act_desc;

/* rows_setup() plus act_desc set per sp; on failure all three are destroyed
 * (those made) and NULLed, and the cudnnStatus_t returned. */
static inline int act_setup(const struct activation_spec *sp)
{
	int rc = rows_setup();
	if (rc != 0)
		return rc;
	cudnnStatus_t st = cudnnCreateActivationDescriptor(&act_desc);
	if (st != CUDNN_STATUS_SUCCESS)
		goto fail;
	st = cudnnSetActivationDescriptor(act_desc, sp->mode, CUDNN_PROPAGATE_NAN, sp->coef);
	if (st != CUDNN_STATUS_SUCCESS)
		goto fail;
	if (sp->swish_beta > 0) {
		st = cudnnSetActivationDescriptorSwishBeta(act_desc, sp->swish_beta);
		if (st != CUDNN_STATUS_SUCCESS)
			goto fail;
	}
	return 0;
fail:
	if (act_desc)
		cudnnDestroyActivationDescriptor(act_desc);
	act_desc = NULL;
	rows_teardown();
	return (int)st;
}

/* The whole baseline of an activation task: in = {x}, out = {y}. */
static inline int activation_forward(const struct activation_spec *sp,
                                     const struct cua_tensor *in, int n_in,
                                     struct cua_tensor *out, int n_out, cudaStream_t stream)
{
	int64_t B, D;
	int rc = rows_check(in, n_in, out, n_out, &B, &D);
	if (rc != 0)
		return rc;
	if (rows_handle == NULL && (rc = act_setup(sp)) != 0)
		return rc;
	if ((rc = rows_bind(B, D, stream)) != 0)
		return rc;
	const float one = 1.0f, zero = 0.0f;
	cudnnStatus_t st = cudnnActivationForward(rows_handle, act_desc, &one, rows_desc,
	                                          in[0].data, &zero, rows_desc, out[0].data);
	if (st != CUDNN_STATUS_SUCCESS)
		return (int)st;
	return (int)cudaGetLastError();
}

#endif /* BASELINES_CUDNN_ACTIVATION_COMMON_CUH */
