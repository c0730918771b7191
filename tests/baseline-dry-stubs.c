/* baseline-dry-stubs.c — the library calls of a baseline whose answer is only "success"
 * (setters, destroys, the compute calls), for tests/baseline-dry.c. This file sees none of
 * the libraries' headers: each stub reads at most its first argument (the handle of a
 * compute call, whose stream the shim checks) and returns 0, which is every library's
 * success status; the x86-64 and AArch64 calling conventions pass that argument and that
 * result the same whatever the rest of the real signature. A call no stub or shim function
 * answers fails the baseline's dlopen with its name. */
#include "baseline-dry.h"

#define PLAIN(name)           \
	int name(void);           \
	int name(void)            \
	{                         \
		return shim_plain(#name, -1); \
	}
#define COUNTED(name, kind)   \
	int name(void);           \
	int name(void)            \
	{                         \
		return shim_plain(#name, kind); \
	}
#define LIB(name)                    \
	int name(const void *h);         \
	int name(const void *h)          \
	{                                \
		return shim_lib(h, #name);   \
	}

/* setters and queries of made objects, and the error check */
PLAIN(cudaGetLastError)
PLAIN(cudnnSetConvolutionGroupCount)
PLAIN(cudnnSetConvolutionMathType)
PLAIN(cudnnSetActivationDescriptor)
PLAIN(cudnnSetActivationDescriptorSwishBeta)
PLAIN(cudnnSetDropoutDescriptor)
PLAIN(cudnnSetRNNDataDescriptor)
PLAIN(cudnnSetReduceTensorDescriptor)
PLAIN(cudnnDeriveBNTensorDescriptor)
PLAIN(cublasSetMathMode)
PLAIN(cublasSetPointerMode_v2)
PLAIN(cublasLtMatmulDescSetAttribute)
PLAIN(cublasLtMatmulPreferenceSetAttribute)

/* the host waits for the device */
COUNTED(cudaMemcpy, SHIM_SYNC)
COUNTED(cudaMemset, SHIM_SYNC)

/* what was made, destroyed */
COUNTED(cudaEventDestroy, SHIM_CREATE)
COUNTED(cudnnDestroy, SHIM_CREATE)
COUNTED(cudnnDestroyTensorDescriptor, SHIM_CREATE)
COUNTED(cudnnDestroyFilterDescriptor, SHIM_CREATE)
COUNTED(cudnnDestroyConvolutionDescriptor, SHIM_CREATE)
COUNTED(cudnnDestroyPoolingDescriptor, SHIM_CREATE)
COUNTED(cudnnDestroyActivationDescriptor, SHIM_CREATE)
COUNTED(cudnnDestroyReduceTensorDescriptor, SHIM_CREATE)
COUNTED(cublasDestroy_v2, SHIM_CREATE)
COUNTED(cublasLtMatmulDescDestroy, SHIM_CREATE)
COUNTED(cublasLtMatmulPreferenceDestroy, SHIM_CREATE)
COUNTED(cublasLtMatrixLayoutDestroy, SHIM_CREATE)

/* compute calls: the handle's stream must be the call's */
LIB(cudnnActivationForward)
LIB(cudnnBatchNormalizationForwardInference)
LIB(cudnnBatchNormalizationForwardTraining)
LIB(cudnnConvolutionBackwardData)
LIB(cudnnConvolutionBiasActivationForward)
LIB(cudnnConvolutionForward)
LIB(cudnnPoolingForward)
LIB(cudnnRNNForward)
LIB(cudnnReduceTensor)
LIB(cudnnSetTensor)
LIB(cudnnSoftmaxForward)
LIB(cublasSdgmm)
LIB(cublasSgeam)
LIB(cublasSgemm_v2)
LIB(cublasSgemmBatched)
LIB(cublasSgemmStridedBatched)
LIB(cublasSgemv_v2)
