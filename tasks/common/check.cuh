/* check.cuh — argument validation and launch-size helpers for references.
 * Header-only; included by the tasks' reference.cu files (tasks/common is on the
 * include path). A reference never trusts the tensors it is given: every count,
 * dtype, rank and extent is checked and a mismatch returns a non-zero code
 * (negative, so it cannot be mistaken for a cudaError_t), never a crash. */
#ifndef CUA_COMMON_CHECK_CUH
#define CUA_COMMON_CHECK_CUH

#include <stdint.h>
#include <cuda_runtime.h>
#include "cuarena.h"

/* Codes returned by references when their arguments are wrong. */
enum cua_check_error {
	CUA_CHECK_E_COUNT = -1,   /* wrong n_in / n_out, or a NULL array */
	CUA_CHECK_E_DTYPE = -2,
	CUA_CHECK_E_NDIM = -3,
	CUA_CHECK_E_SHAPE = -4,   /* an extent < 1, an inconsistent extent, overflow */
	CUA_CHECK_E_NULL = -5,    /* a tensor without data */
	CUA_CHECK_E_PARAM = -6,   /* a hyper-parameter makes the op undefined */
};

/* Returns from the enclosing function when a check fails. */
#define CUA_CHECK(expr)                                                        \
	do {                                                                       \
		int cua_check_rc_ = (expr);                                            \
		if (cua_check_rc_ != 0)                                                \
			return cua_check_rc_;                                              \
	} while (0)

/* dtype enum of a C++ element type: cua_dtype_of<float>::value == CUA_F32. */
template <typename T> struct cua_dtype_of;
template <> struct cua_dtype_of<float> { static constexpr enum cua_dtype value = CUA_F32; };
template <> struct cua_dtype_of<double> { static constexpr enum cua_dtype value = CUA_F64; };
template <> struct cua_dtype_of<int32_t> { static constexpr enum cua_dtype value = CUA_I32; };
template <> struct cua_dtype_of<int64_t> { static constexpr enum cua_dtype value = CUA_I64; };

/* Exactly n_in inputs and n_out outputs, and the arrays exist. */
static inline int cua_check_counts(const struct cua_tensor *in, int n_in, int want_in,
                                   const struct cua_tensor *out, int n_out, int want_out)
{
	if (in == NULL || out == NULL || n_in != want_in || n_out != want_out)
		return CUA_CHECK_E_COUNT;
	return 0;
}

/* t has dtype dt, rank ndim, every extent >= 1, a data pointer, and fewer than
 * 2^62 elements (so byte offsets of 8-byte elements fit in int64_t). */
static inline int cua_check_tensor(const struct cua_tensor *t, enum cua_dtype dt, int ndim)
{
	if (t->dtype != dt)
		return CUA_CHECK_E_DTYPE;
	if (t->ndim != ndim)
		return CUA_CHECK_E_NDIM;
	int64_t n = 1;
	for (int i = 0; i < ndim; i++) {
		if (t->shape[i] < 1 || t->shape[i] > (INT64_C(1) << 62) / n)
			return CUA_CHECK_E_SHAPE;
		n *= t->shape[i];
	}
	if (t->data == NULL)
		return CUA_CHECK_E_NULL;
	return 0;
}

/* Extent i of t equals want. */
static inline int cua_check_dim(const struct cua_tensor *t, int i, int64_t want)
{
	return t->shape[i] == want ? 0 : CUA_CHECK_E_SHAPE;
}

/* a and b have the same rank and extents. */
static inline int cua_check_same_shape(const struct cua_tensor *a, const struct cua_tensor *b)
{
	if (a->ndim != b->ndim)
		return CUA_CHECK_E_NDIM;
	for (int i = 0; i < a->ndim; i++)
		if (a->shape[i] != b->shape[i])
			return CUA_CHECK_E_SHAPE;
	return 0;
}

/* Blocks for a 1-D grid-stride loop over n items: one item per thread up to a
 * cap (the loop covers the rest), so grids never exceed the hardware limit. */
#define CUA_MAX_BLOCKS_1D (INT64_C(1) << 20)

static inline unsigned int cua_blocks_1d(int64_t n, int threads)
{
	int64_t b = (n + threads - 1) / threads;
	if (b > CUA_MAX_BLOCKS_1D)
		b = CUA_MAX_BLOCKS_1D;
	if (b < 1)
		b = 1;
	return (unsigned int)b;
}

/* Blocks along grid y or z (hardware limit 65535); kernels loop past it. */
static inline unsigned int cua_blocks_yz(int64_t n, int threads)
{
	int64_t b = (n + threads - 1) / threads;
	if (b > 65535)
		b = 65535;
	if (b < 1)
		b = 1;
	return (unsigned int)b;
}

#endif /* CUA_COMMON_CHECK_CUH */
