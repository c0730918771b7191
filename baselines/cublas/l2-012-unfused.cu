/* L2/012 library-unfused baseline: cuBLAS SGEMM in strict fp32 for the Linear, then the
 * reference's naive kernels for the rest (tasks/common/l2-gemm.cuh, l2_012), as eager PyTorch. */
#include "l2-gemm-common.cuh"

L2_GEMM_BASELINE(l2_012, blas_linear)
