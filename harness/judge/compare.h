/* compare.h — the element-wise correctness rule, shared by the device checker
 * (kernels.cuh) and the CPU tests, so the tests exercise the code that judges. */
#ifndef CUA_COMPARE_H
#define CUA_COMPARE_H

#include <stdint.h>
#include <string.h>
#include <math.h>

#ifdef __CUDACC__
#define CUA_CMP_HD __host__ __device__ __forceinline__
#else
#define CUA_CMP_HD static inline
#endif

/* The pattern written over outputs and guard bands before every call: a quiet
 * NaN with a payload no arithmetic produces, so an element still holding it was
 * never written. */
#define CUA_POISON32 0x7fc0dea5u
#define CUA_POISON64 0x7ff8dea5dea5dea5ull

enum cua_elem_class {
	CUA_ELEM_OK = 0,
	CUA_ELEM_BAD = 1,        /* finite but outside tolerance, or wrong inf */
	CUA_ELEM_NAN = 2,        /* candidate produced NaN where the oracle did not */
	CUA_ELEM_UNWRITTEN = 3,  /* still the poison pattern */
};

/* Judges one float32 output element against the fp64 oracle:
 * ok iff |c - r| <= atol + rtol * |r|; a NaN oracle wants a NaN, an infinite
 * oracle the same infinity. */
CUA_CMP_HD int cua_judge_f32(float c, double r, double atol, double rtol)
{
	uint32_t bits;
	memcpy(&bits, &c, sizeof(bits));
	if (bits == CUA_POISON32)
		return CUA_ELEM_UNWRITTEN;
	if (r != r)
		return c != c ? CUA_ELEM_OK : CUA_ELEM_BAD;
	if (c != c)
		return CUA_ELEM_NAN;
	if (isinf(r) || isinf(c))
		return ((double)c == r) ? CUA_ELEM_OK : CUA_ELEM_BAD;
	double d = fabs((double)c - r);
	return d <= atol + rtol * fabs(r) ? CUA_ELEM_OK : CUA_ELEM_BAD;
}

/* Same rule for a double output. */
CUA_CMP_HD int cua_judge_f64(double c, double r, double atol, double rtol)
{
	uint64_t bits;
	memcpy(&bits, &c, sizeof(bits));
	if (bits == CUA_POISON64)
		return CUA_ELEM_UNWRITTEN;
	if (r != r)
		return c != c ? CUA_ELEM_OK : CUA_ELEM_BAD;
	if (c != c)
		return CUA_ELEM_NAN;
	if (isinf(r) || isinf(c))
		return c == r ? CUA_ELEM_OK : CUA_ELEM_BAD;
	return fabs(c - r) <= atol + rtol * fabs(r) ? CUA_ELEM_OK : CUA_ELEM_BAD;
}

/* Relative error used in reports: |c - r| / max(|r|, 1e-300). */
CUA_CMP_HD double cua_rel_err(double c, double r)
{
	double ar = fabs(r);
	return fabs(c - r) / (ar > 1e-300 ? ar : 1e-300);
}

#endif /* CUA_COMPARE_H */
