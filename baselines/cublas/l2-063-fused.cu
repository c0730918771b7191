/* L2/063 library-fused baseline: one cuBLASLt matmul (strict fp32) with the bias and the ReLU in
 * its epilogue, then the reference's naive kernels for the rest (tasks/common/l2-gemm.cuh). */
#include "l2-gemm-common.cuh"

L2_GEMM_BASELINE(l2_063, blaslt_linear)
