/* test-rng.c — the counter-based input generator (harness/rng.h), the same code
 * the GPU runs to make every task's inputs. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "rng.h"

#define DRAWS 1000000

static uint64_t bits_of(double v)
{
	uint64_t b;
	memcpy(&b, &v, sizeof(b));
	return b;
}

/* ---- pinned values -------------------------------------------------------------
 * These were computed once with this generator and hard-coded. They must never
 * change: every task's inputs are a function of (seed, tensor, index), so a
 * change to the generator silently changes every input of every task and makes
 * saved results (and their failing elements) impossible to reproduce. If this
 * test fails, the generator changed: revert it, or bump the results format and
 * say so loudly. */

struct pin {
	uint64_t seed;
	uint32_t tensor;
	uint64_t index;
	uint64_t bits0, bits1;     /* cua_rng_bits lanes 0 and 1 */
	double uniform;            /* uniform(-1, 1) */
	double normal;             /* normal(0, 1) */
	double integer;            /* int(0, 9) */
};

static const struct pin pins[] = {
	{1, 0, 0, 0x82ae42607f066897ull, 0xb422a27769bfd0a8ull,
	 0x1.5721303f8334p-6, -0x1.5f662a88b3d81p-2, 9},
	{2, 0, 0, 0x1799dd7ec1e4ef2bull, 0x40e06705f843250aull,
	 -0x1.a1988a04f86c6p-1, -0x1.360ae41794227p-7, 1},
	{1, 1, 0, 0xf1777770b490cac1ull, 0x1845813dabe77eeeull,
	 0x1.c5ddddc2d2432p-1, 0x1.fb92bc8c6e28p+0, 5},
	{3, 2, 123456789, 0x19c6e130ea140244ull, 0x7dd838029496bd1bull,
	 -0x1.98e47b3c57bp-1, -0x1.d71c56cb2b62p-2, 0},
	{0x7fffffffffffffffull, 7, (1ull << 40) + 3, 0x8d25b1bbe8c09197ull,
	 0x00149aaf1d9655a5ull, 0x1.a4b6377d1812p-4, 0x1.44201a07cb99cp+0, 7},
};

Test(rng, mix64_is_the_splitmix64_finaliser)
{
	/* splitmix64's first output for state 0 (Vigna's reference). */
	cr_expect_eq(cua_mix64(0), 0xe220a8397b1dcdafull, "%#llx",
	             (unsigned long long)cua_mix64(0));
}

Test(rng, pinned_values_never_change)
{
	for (size_t i = 0; i < CUA_ARRAY_LEN(pins); i++) {
		const struct pin *p = &pins[i];
		uint64_t b0 = cua_rng_bits(p->seed, p->tensor, p->index, 0);
		uint64_t b1 = cua_rng_bits(p->seed, p->tensor, p->index, 1);
		cr_expect_eq(b0, p->bits0, "pin %zu lane 0: %#llx", i, (unsigned long long)b0);
		cr_expect_eq(b1, p->bits1, "pin %zu lane 1: %#llx", i, (unsigned long long)b1);
		double u = cua_rng_value(CUA_RNG_UNIFORM, -1, 1, p->seed, p->tensor, p->index);
		double n = cua_rng_value(CUA_RNG_NORMAL, 0, 1, p->seed, p->tensor, p->index);
		double k = cua_rng_value(CUA_RNG_INT, 0, 9, p->seed, p->tensor, p->index);
		cr_expect_eq(bits_of(u), bits_of(p->uniform), "pin %zu uniform %a", i, u);
		/* log and cos may differ in the last bit between libms; nothing more. */
		cr_expect(fabs(n - p->normal) <= 4 * DBL_EPSILON * fabs(p->normal),
		          "pin %zu normal %a, want %a", i, n, p->normal);
		cr_expect_eq(k, p->integer, "pin %zu int %g", i, k);
	}
}

/* ---- determinism and independence ---------------------------------------------- */

/* Regression: the first generator mixed seed and index symmetrically and put the
 * lane next to the seed, so element s of seed i equalled element i of seed s,
 * lane 1 of seed s equalled lane 0 of seed s^1, and x[k] was the same value for
 * every seed k. */
Test(rng, seed_index_and_lane_cannot_trade_places)
{
	int swaps = 0, lanes = 0, diagonal = 0;
	for (uint64_t s = 1; s < 200; s++)
		for (uint64_t i = 0; i < 200; i++) {
			if (s == i)
				continue;
			swaps += cua_rng_bits(s, 0, i, 0) == cua_rng_bits(i, 0, s, 0);
			lanes += cua_rng_bits(s, 0, i, 1) == cua_rng_bits(s ^ 1, 0, i, 0);
		}
	for (uint64_t s = 1; s < 1000; s++)
		diagonal += cua_rng_bits(s, 0, s, 0) == cua_rng_bits(s + 1, 0, s + 1, 0);
	cr_expect_eq(swaps, 0);
	cr_expect_eq(lanes, 0);
	cr_expect_eq(diagonal, 0);
}

Test(rng, the_same_coordinates_give_the_same_bits)
{
	for (uint64_t i = 0; i < 1000; i++) {
		uint64_t seed = 0x5eed0000ull + i * 7919;
		uint32_t t = (uint32_t)(i % 8);
		uint64_t idx = i * i * 1000003ull;
		cr_assert_eq(cua_rng_bits(seed, t, idx, 0), cua_rng_bits(seed, t, idx, 0));
		for (int dist = CUA_RNG_UNIFORM; dist <= CUA_RNG_BERNOULLI; dist++) {
			double a = dist == CUA_RNG_BERNOULLI ? 0.5 : -3;
			double v1 = cua_rng_value(dist, a, 5, seed, t, idx);
			double v2 = cua_rng_value(dist, a, 5, seed, t, idx);
			cr_assert_eq(bits_of(v1), bits_of(v2), "dist %d index %llu", dist,
			             (unsigned long long)idx);
		}
	}
}

Test(rng, bits_differ_across_seeds_tensors_indices_and_lanes)
{
	int same_seed = 0, same_tensor = 0, same_index = 0, same_lane = 0;
	for (uint64_t i = 0; i < 100000; i++) {
		uint64_t b = cua_rng_bits(1, 0, i, 0);
		same_seed += b == cua_rng_bits(2, 0, i, 0);
		same_seed += b == cua_rng_bits(1ull << 40, 0, i, 0);
		same_tensor += b == cua_rng_bits(1, 1, i, 0);
		same_tensor += cua_rng_bits(1, 3, i, 0) == cua_rng_bits(1, 4, i, 0);
		same_index += b == cua_rng_bits(1, 0, i + 1, 0);
		same_index += b == cua_rng_bits(1, 0, i + (1ull << 32), 0);
		same_lane += b == cua_rng_bits(1, 0, i, 1);
	}
	cr_expect_eq(same_seed, 0);
	cr_expect_eq(same_tensor, 0);
	cr_expect_eq(same_index, 0);
	cr_expect_eq(same_lane, 0);
}

Test(rng, the_secret_seed_changes_every_value)
{
	/* Two nearby 63-bit seeds, as the secret and re-check seeds are drawn. */
	int same = 0;
	for (uint64_t i = 0; i < 10000; i++)
		same += cua_rng_value(CUA_RNG_UNIFORM, -1, 1, 0x123456789abcdefull, 0, i) ==
		        cua_rng_value(CUA_RNG_UNIFORM, -1, 1, 0x123456789abcdeeull, 0, i);
	cr_expect_eq(same, 0);
}

/* ---- distributions ----------------------------------------------------------- */

Test(rng, unit_maps_all_bits_into_zero_to_one_exclusive)
{
	cr_expect_eq(cua_rng_unit(0), 0.0);
	cr_expect_lt(cua_rng_unit(UINT64_MAX), 1.0);
	cr_expect_eq(cua_rng_unit(UINT64_MAX), 1.0 - 0x1p-53);
	cr_expect_eq(cua_rng_unit(1ull << 63), 0.5);
	cr_expect_eq(cua_rng_unit(2047), 0.0, "the low 11 bits are dropped");
}

Test(rng, uniform_lies_in_low_high_with_the_expected_mean_and_variance)
{
	const double lo = -2, hi = 3;
	double sum = 0, sum2 = 0, mn = INFINITY, mx = -INFINITY;
	for (uint64_t i = 0; i < DRAWS; i++) {
		double v = cua_rng_value(CUA_RNG_UNIFORM, lo, hi, 42, 0, i);
		cr_assert(v >= lo && v < hi, "draw %llu = %.17g", (unsigned long long)i, v);
		sum += v;
		sum2 += v * v;
		mn = fmin(mn, v);
		mx = fmax(mx, v);
	}
	double mean = sum / DRAWS, var = sum2 / DRAWS - mean * mean;
	double want_mean = (lo + hi) / 2, want_var = (hi - lo) * (hi - lo) / 12;
	double sigma_mean = sqrt(want_var / DRAWS);
	cr_expect(fabs(mean - want_mean) < 4 * sigma_mean, "mean %.6f, want %.6f ± %.6f",
	          mean, want_mean, 4 * sigma_mean);
	/* var of a sample variance of U(a,b): (b-a)^4/180/n → sd 0.0019 here */
	cr_expect(fabs(var - want_var) < 0.01, "variance %.6f, want %.6f", var, want_var);
	cr_expect_lt(mn, lo + 1e-4, "the low end is reached");
	cr_expect_gt(mx, hi - 1e-4, "the high end is approached");
}

Test(rng, normal_has_the_expected_mean_and_std_and_is_always_finite)
{
	const double mu = 0.25, sd = 0.5;
	double sum = 0, sum2 = 0, worst = 0;
	for (uint64_t i = 0; i < DRAWS; i++) {
		double v = cua_rng_value(CUA_RNG_NORMAL, mu, sd, 7, 3, i);
		cr_assert(isfinite(v), "draw %llu = %g", (unsigned long long)i, v);
		sum += v;
		sum2 += v * v;
		worst = fmax(worst, fabs(v - mu) / sd);
	}
	double mean = sum / DRAWS, std = sqrt(sum2 / DRAWS - mean * mean);
	cr_expect(fabs(mean - mu) < 4 * sd / sqrt(DRAWS), "mean %.6f, want %.6f", mean, mu);
	/* the sample std of n normals has sd ≈ σ/sqrt(2n) */
	cr_expect(fabs(std - sd) < 4 * sd / sqrt(2.0 * DRAWS), "std %.6f, want %.6f", std, sd);
	/* u1 >= 2^-53, so |z| <= sqrt(-2 ln 2^-53) = 8.57: no infinities possible */
	cr_expect_leq(worst, 8.58, "a draw %.2f sigma out", worst);
	cr_expect_gt(worst, 4.0, "tails are reached in 1e6 draws");
}

Test(rng, normal_is_finite_at_the_extreme_bits)
{
	/* u1 = 1 - unit(r0): the largest unit value gives the smallest u1 > 0. */
	double u1 = 1.0 - cua_rng_unit(UINT64_MAX);
	cr_expect_gt(u1, 0.0);
	cr_expect(isfinite(sqrt(-2.0 * log(u1))));
}

Test(rng, int_draws_cover_low_to_high_inclusive_and_nothing_else)
{
	const int lo = -3, hi = 4, span = hi - lo + 1;
	long count[8] = {0};
	for (uint64_t i = 0; i < DRAWS; i++) {
		double v = cua_rng_value(CUA_RNG_INT, lo, hi, 11, 2, i);
		cr_assert(v == floor(v), "draw %llu = %g is not an integer",
		          (unsigned long long)i, v);
		cr_assert(v >= lo && v <= hi, "draw %llu = %g outside [%d, %d]",
		          (unsigned long long)i, v, lo, hi);
		count[(int)v - lo]++;
	}
	double p = 1.0 / span, sigma = sqrt(DRAWS * p * (1 - p));
	for (int k = 0; k < span; k++)
		cr_expect(fabs(count[k] - DRAWS * p) < 4 * sigma, "%d drawn %ld times, want %.0f",
		          lo + k, count[k], DRAWS * p);
}

Test(rng, int_with_low_equal_high_is_constant)
{
	for (uint64_t i = 0; i < 1000; i++)
		cr_assert_eq(cua_rng_value(CUA_RNG_INT, 5, 5, 1, 0, i), 5.0);
}

Test(rng, int_handles_a_wide_range_exactly)
{
	/* label-style ranges up to 2^31 stay exact integers inside the bounds */
	const double lo = -2147483648.0, hi = 2147483647.0;
	for (uint64_t i = 0; i < 10000; i++) {
		double v = cua_rng_value(CUA_RNG_INT, lo, hi, 5, 1, i);
		cr_assert(v == floor(v) && v >= lo && v <= hi, "%.17g", v);
	}
}

Test(rng, bernoulli_rate_is_close_to_p)
{
	const double p = 0.25;
	long ones = 0;
	for (uint64_t i = 0; i < DRAWS; i++) {
		double v = cua_rng_value(CUA_RNG_BERNOULLI, p, 0, 13, 4, i);
		cr_assert(v == 0.0 || v == 1.0, "draw %g", v);
		ones += v == 1.0;
	}
	double sigma = sqrt(DRAWS * p * (1 - p));
	cr_expect(fabs(ones - DRAWS * p) < 4 * sigma, "%ld ones, want %.0f ± %.0f", ones,
	          DRAWS * p, 4 * sigma);
}

Test(rng, bernoulli_zero_and_one_are_certain)
{
	for (uint64_t i = 0; i < 10000; i++) {
		cr_assert_eq(cua_rng_value(CUA_RNG_BERNOULLI, 0.0, 0, 9, 0, i), 0.0);
		cr_assert_eq(cua_rng_value(CUA_RNG_BERNOULLI, 1.0, 0, 9, 0, i), 1.0);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

Test(rng, a_block_is_never_all_zero_and_never_repeats)
{
	enum { N = 100000 };
	uint64_t *v = malloc(N * sizeof(*v));
	cr_assert_not_null(v);
	int zeros = 0, runs = 0;
	for (uint64_t i = 0; i < N; i++) {
		v[i] = bits_of(cua_rng_value(CUA_RNG_UNIFORM, -1, 1, 1, 0, i));
		zeros += v[i] == bits_of(0.0);
		if (i && v[i] == v[i - 1])
			runs++;
	}
	cr_expect_lt(zeros, N, "all values are zero");
	cr_expect_eq(runs, 0, "%d values repeat their neighbour", runs);
	/* no period either: every value of the block is distinct */
	qsort(v, N, sizeof(*v), cmp_u64);
	int dups = 0;
	for (int i = 1; i < N; i++)
		dups += v[i] == v[i - 1];
	cr_expect_eq(dups, 0, "%d repeated values in %d draws", dups, N);
	free(v);
}

Test(rng, const_gives_its_value_for_every_seed_and_index)
{
	for (uint64_t seed = 1; seed < 4; seed++)
		for (uint64_t i = 0; i < 100; i++) {
			cr_assert_eq(cua_rng_value(CUA_RNG_CONST, 1.0, 0, seed, 16, i), 1.0);
			cr_assert_eq(cua_rng_value(CUA_RNG_CONST, -0.25, 0, seed, 17, i), -0.25);
		}
	cr_assert_eq(CUA_RNG_CONST, 4, "rng.h mirrors enum cua_dist (task.h: CUA_DIST_CONST = 4)");
}
