/* test-compare.c — the element-wise correctness rule (harness/judge/compare.h), the same
 * code the device checker in runner.cu runs, and a host model of its guard-band
 * damage count. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "common.h"
#include "judge/compare.h"

/* How the candidate value of a case is made. */
enum cand_kind {
	CAND_VALUE = 0,     /* c, converted to the output's width */
	CAND_POISON = 1,    /* the poison pattern of the width */
	CAND_BITS32 = 2,    /* the float with bit pattern `bits` */
};

/* Criterion copies parameters into its worker process: no pointers here. */
struct cmp_case {
	char what[80];
	int width;              /* 32: cua_judge_f32, 64: cua_judge_f64 */
	enum cand_kind kind;
	double c;               /* candidate (exactly representable at `width`) */
	uint32_t bits;
	double r;               /* fp64 oracle */
	double atol, rtol;
	int want;               /* enum cua_elem_class */
};

/* Bounds chosen so that atol + rtol*|r| and c - r are exact in binary:
 * atol = 2^-10, rtol = 2^-8, r = 20 → bound = 0.0791015625, so
 * c = 20.0791015625 = 0x1.4144p+4 sits exactly on it and 19.9208984375 =
 * 0x1.3ebcp+4 exactly on the lower side. */
#define AT 0x1p-10
#define RT 0x1p-8

ParameterizedTestParameters(compare, judges_each_edge_of_the_allclose_rule)
{
	static struct cmp_case cases[] = {
		/* exactly on the boundary passes, one ulp beyond fails */
		{"f64 exactly at r + atol + rtol*|r|", 64, CAND_VALUE, 0x1.4144p+4, 0, 20, AT, RT, CUA_ELEM_OK},
		{"f64 one ulp above the bound", 64, CAND_VALUE, 0x1.4144000000001p+4, 0, 20, AT, RT, CUA_ELEM_BAD},
		{"f64 exactly at r - bound", 64, CAND_VALUE, 0x1.3ebcp+4, 0, 20, AT, RT, CUA_ELEM_OK},
		{"f64 one ulp below r - bound", 64, CAND_VALUE, 0x1.3ebbfffffffffp+4, 0, 20, AT, RT, CUA_ELEM_BAD},
		{"f32 exactly at r + bound", 32, CAND_VALUE, 0x1.4144p+4, 0, 20, AT, RT, CUA_ELEM_OK},
		{"f32 one ulp above the bound", 32, CAND_VALUE, 0x1.414402p+4, 0, 20, AT, RT, CUA_ELEM_BAD},
		{"f32 exactly at r - bound", 32, CAND_VALUE, 0x1.3ebcp+4, 0, 20, AT, RT, CUA_ELEM_OK},
		{"f32 one ulp below r - bound", 32, CAND_VALUE, 0x1.3ebbfep+4, 0, 20, AT, RT, CUA_ELEM_BAD},
		{"f64 negative oracle uses |r|", 64, CAND_VALUE, -0x1.3ebcp+4, 0, -20, AT, RT, CUA_ELEM_OK},
		{"f64 negative oracle one ulp out", 64, CAND_VALUE, -0x1.3ebbfffffffffp+4, 0, -20, AT, RT, CUA_ELEM_BAD},

		/* atol alone: r = 0, so rtol contributes nothing however large */
		{"f64 atol only, at atol", 64, CAND_VALUE, 0x1p-16, 0, 0, 0x1p-16, 0.5, CUA_ELEM_OK},
		{"f64 atol only, one ulp over", 64, CAND_VALUE, 0x1.0000000000001p-16, 0, 0, 0x1p-16, 0.5, CUA_ELEM_BAD},
		{"f32 atol only, at -atol", 32, CAND_VALUE, -0x1p-16, 0, 0, 0x1p-16, 0.5, CUA_ELEM_OK},
		{"f32 atol only, one ulp over", 32, CAND_VALUE, 0x1.000002p-16, 0, 0, 0x1p-16, 0.5, CUA_ELEM_BAD},
		{"f64 zero tolerance wants exact zero", 64, CAND_VALUE, 0x1p-1074, 0, 0, 0, 1, CUA_ELEM_BAD},
		{"f32 zero tolerance, exact zero", 32, CAND_VALUE, 0, 0, 0, 0, 1, CUA_ELEM_OK},

		/* rtol alone: bound = rtol * |r| = 2^-10 * 1024 = 1 */
		{"f64 rtol only, at rtol*|r|", 64, CAND_VALUE, 1025, 0, 1024, 0, 0x1p-10, CUA_ELEM_OK},
		{"f64 rtol only, one ulp over", 64, CAND_VALUE, 0x1.0040000000001p+10, 0, 1024, 0, 0x1p-10, CUA_ELEM_BAD},
		{"f32 rtol only, at rtol*|r|", 32, CAND_VALUE, 1023, 0, 1024, 0, 0x1p-10, CUA_ELEM_OK},
		{"f32 rtol only, one ulp over", 32, CAND_VALUE, 0x1.004002p+10, 0, 1024, 0, 0x1p-10, CUA_ELEM_BAD},

		/* a NaN oracle wants a NaN */
		{"f32 NaN oracle, NaN candidate", 32, CAND_VALUE, NAN, 0, NAN, 1, 1, CUA_ELEM_OK},
		{"f64 NaN oracle, NaN candidate", 64, CAND_VALUE, NAN, 0, NAN, 1, 1, CUA_ELEM_OK},
		{"f32 NaN oracle, number candidate", 32, CAND_VALUE, 1, 0, NAN, 1e30, 1e30, CUA_ELEM_BAD},
		{"f64 NaN oracle, number candidate", 64, CAND_VALUE, 0, 0, NAN, 1e30, 1e30, CUA_ELEM_BAD},
		{"f64 NaN oracle, inf candidate", 64, CAND_VALUE, INFINITY, 0, NAN, 1, 1, CUA_ELEM_BAD},

		/* a NaN candidate against a number is its own class, whatever the tolerance */
		{"f32 NaN candidate, finite oracle", 32, CAND_VALUE, NAN, 0, 1, 1e30, 1e30, CUA_ELEM_NAN},
		{"f64 NaN candidate, finite oracle", 64, CAND_VALUE, NAN, 0, 1, 1e30, 1e30, CUA_ELEM_NAN},
		{"f64 NaN candidate, inf oracle", 64, CAND_VALUE, NAN, 0, INFINITY, 1, 1, CUA_ELEM_NAN},
		{"f32 negative NaN candidate", 32, CAND_BITS32, 0, 0xffc00000u, 3, 1, 1, CUA_ELEM_NAN},
		{"f32 NaN one bit off the poison", 32, CAND_BITS32, 0, CUA_POISON32 ^ 1u, 3, 1, 1, CUA_ELEM_NAN},

		/* infinities must match exactly, even under an infinite tolerance */
		{"f32 +inf vs +inf", 32, CAND_VALUE, INFINITY, 0, INFINITY, 0, 0, CUA_ELEM_OK},
		{"f64 +inf vs +inf", 64, CAND_VALUE, INFINITY, 0, INFINITY, 0, 0, CUA_ELEM_OK},
		{"f64 -inf vs -inf", 64, CAND_VALUE, -INFINITY, 0, -INFINITY, 0, 0, CUA_ELEM_OK},
		{"f32 +inf vs -inf", 32, CAND_VALUE, INFINITY, 0, -INFINITY, 1e30, 1e30, CUA_ELEM_BAD},
		{"f64 +inf vs -inf", 64, CAND_VALUE, INFINITY, 0, -INFINITY, 1e30, 1e30, CUA_ELEM_BAD},
		{"f32 finite vs +inf", 32, CAND_VALUE, FLT_MAX, 0, INFINITY, INFINITY, 1, CUA_ELEM_BAD},
		{"f64 finite vs -inf", 64, CAND_VALUE, -DBL_MAX, 0, -INFINITY, INFINITY, 1, CUA_ELEM_BAD},
		{"f32 +inf vs finite", 32, CAND_VALUE, INFINITY, 0, 1e30, INFINITY, 1, CUA_ELEM_BAD},
		{"f64 -inf vs finite", 64, CAND_VALUE, -INFINITY, 0, 0, INFINITY, INFINITY, CUA_ELEM_BAD},
		{"f32 overflow to inf vs an oracle above FLT_MAX", 32, CAND_VALUE, INFINITY, 0, 1e39, 1, 1, CUA_ELEM_BAD},

		/* the poison is a NaN, but it means "never written" */
		{"f32 poison vs finite oracle", 32, CAND_POISON, 0, 0, 1, 1e30, 1e30, CUA_ELEM_UNWRITTEN},
		{"f64 poison vs finite oracle", 64, CAND_POISON, 0, 0, 1, 1e30, 1e30, CUA_ELEM_UNWRITTEN},
		{"f32 poison vs NaN oracle", 32, CAND_POISON, 0, 0, NAN, 0, 0, CUA_ELEM_UNWRITTEN},
		{"f64 poison vs NaN oracle", 64, CAND_POISON, 0, 0, NAN, 0, 0, CUA_ELEM_UNWRITTEN},
		{"f32 poison vs inf oracle", 32, CAND_POISON, 0, 0, INFINITY, 0, 0, CUA_ELEM_UNWRITTEN},
		{"f32 ordinary quiet NaN is not the poison", 32, CAND_VALUE, NAN, 0, 1, 0, 0, CUA_ELEM_NAN},
		{"f64 ordinary quiet NaN is not the poison", 64, CAND_VALUE, NAN, 0, 1, 0, 0, CUA_ELEM_NAN},

		/* signed zeros are equal */
		{"f32 -0.0 vs 0.0", 32, CAND_VALUE, -0.0, 0, 0.0, 0, 0, CUA_ELEM_OK},
		{"f64 -0.0 vs 0.0", 64, CAND_VALUE, -0.0, 0, 0.0, 0, 0, CUA_ELEM_OK},
		{"f64 0.0 vs -0.0", 64, CAND_VALUE, 0.0, 0, -0.0, 0, 0, CUA_ELEM_OK},

		/* What the strict fp32 tolerance is for: TF32 keeps 10 mantissa bits,
		 * a relative error up to ~5e-4; on 20 that is 0.01 > 1e-3 + 1e-4*20. */
		{"f32 TF32-like error 5e-4 on 20 fails (1e-3, 1e-4)", 32, CAND_VALUE, (double)(float)(20 * (1 + 5e-4)), 0, 20, 1e-3, 1e-4, CUA_ELEM_BAD},
		{"f32 fp32 rounding of 20.123456789 passes (1e-3, 1e-4)", 32, CAND_VALUE, (double)(float)20.123456789, 0, 20.123456789, 1e-3, 1e-4, CUA_ELEM_OK},
		{"f32 fp32 rounding of 20.123456789 passes (1e-6, 1e-6)", 32, CAND_VALUE, (double)(float)20.123456789, 0, 20.123456789, 1e-6, 1e-6, CUA_ELEM_OK},
	};
	return cr_make_param_array(struct cmp_case, cases, CUA_ARRAY_LEN(cases));
}

ParameterizedTest(struct cmp_case *k, compare, judges_each_edge_of_the_allclose_rule)
{
	int got;
	if (k->width == 32) {
		float c = (float)k->c;
		uint32_t bits = k->kind == CAND_POISON ? CUA_POISON32 : k->bits;
		if (k->kind != CAND_VALUE)
			memcpy(&c, &bits, sizeof(c));
		else
			cr_assert(isnan(k->c) || (double)c == k->c,
			          "%s: candidate %a is not a float", k->what, k->c);
		got = cua_judge_f32(c, k->r, k->atol, k->rtol);
	} else {
		double c = k->c;
		cr_assert_neq(k->kind, CAND_BITS32, "%s: a 64-bit case with 32-bit bits", k->what);
		if (k->kind == CAND_POISON) {
			uint64_t bits = CUA_POISON64;
			memcpy(&c, &bits, sizeof(c));
		}
		got = cua_judge_f64(c, k->r, k->atol, k->rtol);
	}
	cr_expect_eq(got, k->want, "%s: class %d, want %d", k->what, got, k->want);
}

Test(compare, poison_patterns_are_quiet_nans_no_arithmetic_makes)
{
	float f;
	double d;
	uint32_t p32 = CUA_POISON32;
	uint64_t p64 = CUA_POISON64;
	memcpy(&f, &p32, sizeof(f));
	memcpy(&d, &p64, sizeof(d));
	cr_expect(isnan(f));
	cr_expect(isnan(d));
	/* The NaNs the hardware makes carry no payload: never the poison. */
	float qf = NAN;
	uint32_t qb, zb;
	volatile float zero = 0.0f;
	float made = zero / zero;
	memcpy(&qb, &qf, sizeof(qb));
	memcpy(&zb, &made, sizeof(zb));
	cr_expect_neq(qb, CUA_POISON32);
	cr_expect_neq(zb, CUA_POISON32);
	cr_expect_neq(zb & 0x7fffffffu, CUA_POISON32);
}

Test(compare, relative_error_guards_against_a_zero_oracle)
{
	cr_expect_float_eq(cua_rel_err(1.5, 1.0), 0.5, 1e-15);
	cr_expect_float_eq(cua_rel_err(-3.0, -2.0), 0.5, 1e-15);
	cr_expect_eq(cua_rel_err(0.0, 0.0), 0.0);
	double big = cua_rel_err(1e-3, 0.0);
	cr_expect(isfinite(big) && big == 1e-3 / 1e-300, "rel_err vs 0 is %g", big);
}

/* ---- guard bands -------------------------------------------------------------- */

/* Host mirror of runner.cu's count_not32_kernel: words of p[0..n) that are not v. */
static unsigned long long count_not32(const uint32_t *p, int64_t n, uint32_t v)
{
	unsigned long long bad = 0;
	for (int64_t i = 0; i < n; i++)
		bad += p[i] != v;
	return bad;
}

/* Mirror of runner.cu's guard_damage: both bands around dw data words. */
static unsigned long long guard_damage(const uint32_t *base, int64_t gw, int64_t dw)
{
	return count_not32(base, gw, CUA_POISON32) +
	       count_not32(base + gw + dw, gw, CUA_POISON32);
}

/* A "kernel" that writes out[lo..hi) with 1.0f (indices relative to the data). */
static void write_range(float *out, int64_t lo, int64_t hi)
{
	for (int64_t i = lo; i < hi; i++)
		out[i] = 1.0f;
}

struct guarded {
	uint32_t *base;
	float *data;
	int64_t gw, dw;
};

static struct guarded guarded_new(int64_t gw, int64_t n)
{
	struct guarded g = {.gw = gw, .dw = n};
	g.base = malloc((size_t)(2 * gw + n) * sizeof(uint32_t));
	cr_assert_not_null(g.base);
	for (int64_t i = 0; i < 2 * gw + n; i++)
		g.base[i] = CUA_POISON32;
	g.data = (float *)(g.base + gw);
	return g;
}

Test(compare, an_in_bounds_kernel_leaves_the_guards_intact)
{
	struct guarded g = guarded_new(1024, 1001);
	cr_expect_eq(guard_damage(g.base, g.gw, g.dw), 0, "fresh buffer");
	write_range(g.data, 0, g.dw);
	cr_expect_eq(guard_damage(g.base, g.gw, g.dw), 0);
	free(g.base);
}

Test(compare, one_element_past_the_end_damages_exactly_one_guard_word)
{
	struct guarded g = guarded_new(1024, 1001);
	write_range(g.data, 0, g.dw + 1);
	cr_expect_eq(guard_damage(g.base, g.gw, g.dw), 1);
	free(g.base);
}

Test(compare, one_element_before_the_start_damages_exactly_one_guard_word)
{
	struct guarded g = guarded_new(1024, 1001);
	write_range(g.data, -1, g.dw);
	cr_expect_eq(guard_damage(g.base, g.gw, g.dw), 1);
	free(g.base);
}

Test(compare, unwritten_data_is_poison_and_judged_unwritten)
{
	struct guarded g = guarded_new(16, 8);
	write_range(g.data, 0, 7);          /* forgets the last element */
	int unwritten = 0;
	for (int64_t i = 0; i < g.dw; i++)
		unwritten += cua_judge_f32(g.data[i], 1.0, 0, 0) == CUA_ELEM_UNWRITTEN;
	cr_expect_eq(unwritten, 1);
	cr_expect_eq(cua_judge_f32(g.data[7], 1.0, 0, 0), CUA_ELEM_UNWRITTEN);
	cr_expect_eq(guard_damage(g.base, g.gw, g.dw), 0);
	free(g.base);
}
