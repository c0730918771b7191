/* L2/095 library-fused baseline: one cuBLASLt matmul (strict fp32) with the Linear's bias in
 * its epilogue, then the reference's naive kernels for the rest (tasks/common/l2-gemm.cuh). */
#include "l2-gemm-common.cuh"

L2_GEMM_BASELINE(l2_095, blaslt_linear)
