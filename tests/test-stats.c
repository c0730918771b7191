/* test-stats.c — sample statistics and the timing stop rule (harness/judge/stats.c). */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <string.h>

#include "judge/stats.h"

#define EPS 1e-9

/* Criterion hands parameters to a separate worker process: strings are
 * arrays, since pointers into this one would not be valid there. */
/* Expected values worked out by hand (quartiles as numpy.percentile's
 * default "linear" method: position (n-1)*q between order statistics). */
struct stats_case {
	char what[24];
	int n;
	double x[8];
	double min, max, mean, stdev, q1, median, q3, rel_sem;
};

ParameterizedTestParameters(stats, match_hand_computed_values)
{
	static struct stats_case cases[] = {
		{"one sample", 1, {5},
		 5, 5, 5, 0, 5, 5, 5, 0},
		{"two samples", 2, {20, 10},
		 /* stdev = sqrt(50) = 7.0710678..; rel_sem = 7.07/sqrt(2)/15 = 1/3 */
		 10, 20, 15, 7.0710678118654755, 12.5, 15, 17.5, 1.0 / 3},
		{"four, sorted", 4, {1, 2, 3, 4},
		 /* var = (2.25+0.25+0.25+2.25)/3 = 5/3; positions 0.75, 1.5, 2.25 */
		 1, 4, 2.5, 1.2909944487358056, 1.75, 2.5, 3.25, 0.25819888974716110},
		{"four, shuffled", 4, {4, 1, 3, 2},
		 1, 4, 2.5, 1.2909944487358056, 1.75, 2.5, 3.25, 0.25819888974716110},
		{"five", 5, {3, 5, 1, 4, 2},
		 /* var = 10/4; positions 1, 2, 3 fall on samples */
		 1, 5, 3, 1.5811388300841898, 2, 3, 4, 0.23570226039551584},
		{"eight with ties", 8, {9, 2, 4, 4, 4, 5, 5, 7},
		 /* sum sq dev = 32, var = 32/7; positions 1.75, 3.5, 5.25 */
		 2, 9, 5, 2.1380899352993950, 4, 4.5, 5.5, 0.15118578920369088},
		{"constant", 3, {2, 2, 2},
		 2, 2, 2, 0, 2, 2, 2, 0},
	};
	return cr_make_param_array(struct stats_case, cases, CUA_ARRAY_LEN(cases));
}

ParameterizedTest(struct stats_case *c, stats, match_hand_computed_values)
{
	double copy[8];
	struct cua_stats s;
	memcpy(copy, c->x, sizeof(copy));
	cua_stats_compute(c->x, c->n, &s);
	cr_expect_eq(s.n, c->n, "%s: n", c->what);
	cr_expect_float_eq(s.min, c->min, EPS, "%s: min %g", c->what, s.min);
	cr_expect_float_eq(s.max, c->max, EPS, "%s: max %g", c->what, s.max);
	cr_expect_float_eq(s.mean, c->mean, EPS, "%s: mean %g", c->what, s.mean);
	cr_expect_float_eq(s.stdev, c->stdev, EPS, "%s: stdev %.17g", c->what, s.stdev);
	cr_expect_float_eq(s.q1, c->q1, EPS, "%s: q1 %g", c->what, s.q1);
	cr_expect_float_eq(s.median, c->median, EPS, "%s: median %g", c->what, s.median);
	cr_expect_float_eq(s.q3, c->q3, EPS, "%s: q3 %g", c->what, s.q3);
	cr_expect_float_eq(s.iqr, c->q3 - c->q1, EPS, "%s: iqr %g", c->what, s.iqr);
	cr_expect_float_eq(s.rel_sem, c->rel_sem, EPS, "%s: rel_sem %.17g", c->what, s.rel_sem);
	cr_expect_arr_eq(copy, c->x, sizeof(copy), "%s: the input is left unmodified", c->what);
}

Test(stats, handles_a_thousand_samples_in_any_order)
{
	double x[1000];
	struct cua_stats s;
	for (int i = 0; i < 1000; i++)
		x[i] = (double)((i * 617) % 1000);    /* a permutation of 0..999 */
	cua_stats_compute(x, 1000, &s);
	cr_assert_float_eq(s.min, 0, EPS);
	cr_assert_float_eq(s.max, 999, EPS);
	cr_assert_float_eq(s.median, 499.5, EPS);
	cr_assert_float_eq(s.q1, 249.75, EPS);
	cr_assert_float_eq(s.q3, 749.25, EPS);
	cr_assert_float_eq(s.mean, 499.5, EPS);
	/* variance of 0..n-1 with n-1: n(n+1)/12 */
	cr_assert_float_eq(s.stdev, sqrt(1000.0 * 1001 / 12), 1e-9);
}

Test(stop_rule, defaults_are_10_1000_half_a_percent_and_5_seconds)
{
	struct cua_stop_rule r;
	memset(&r, 0xff, sizeof(r));
	cua_stop_rule_init(&r);
	cr_assert_eq(r.min_samples, 10);
	cr_assert_eq(r.max_samples, 1000);
	cr_assert_float_eq(r.max_rel_sem, 0.005, 1e-15);
	cr_assert_float_eq(r.max_time_s, 5.0, 1e-15);
}

static const double constant[1000] = {[0 ... 999] = 1.0};

/* 1, 3, 1, 3, ...: mean 2, rel. SEM about 1/6 at n = 10: never precise enough. */
static void noisy(double *x, int n)
{
	for (int i = 0; i < n; i++)
		x[i] = i % 2 ? 3.0 : 1.0;
}

Test(stop_rule, never_stops_before_min_samples_even_when_precise_or_late)
{
	struct cua_stop_rule r;
	cua_stop_rule_init(&r);
	cr_assert(!cua_stop_now(&r, constant, 0, 0));
	cr_assert(!cua_stop_now(&r, constant, 9, 0), "rel. SEM is 0 but n = 9 < 10");
	cr_assert(!cua_stop_now(&r, constant, 9, 100.0), "over time but n = 9 < 10");
	cr_assert(cua_stop_now(&r, constant, 10, 0), "n = 10 and rel. SEM 0");
}

Test(stop_rule, stops_exactly_at_the_rel_sem_threshold)
{
	double x[10];
	struct cua_stats s;
	struct cua_stop_rule r;
	noisy(x, 10);
	cua_stats_compute(x, 10, &s);
	/* sqrt(10/9)/sqrt(10)/2 = 1/6 */
	cr_assert_float_eq(s.rel_sem, 1.0 / 6, 1e-12);
	cua_stop_rule_init(&r);
	r.max_rel_sem = s.rel_sem;
	cr_assert(cua_stop_now(&r, x, 10, 0), "rel. SEM equal to the threshold stops");
	r.max_rel_sem = nextafter(s.rel_sem, 0);
	cr_assert(!cua_stop_now(&r, x, 10, 0), "rel. SEM just above the threshold goes on");
	cua_stop_rule_init(&r);
	cr_assert(!cua_stop_now(&r, x, 10, 0), "1/6 is far above 0.005");
}

Test(stop_rule, stops_when_the_time_cap_is_reached)
{
	double x[20];
	struct cua_stop_rule r;
	noisy(x, 20);
	cua_stop_rule_init(&r);
	cr_assert(!cua_stop_now(&r, x, 20, 4.999));
	cr_assert(cua_stop_now(&r, x, 20, 5.0), "spent == max_time_s stops");
	cr_assert(cua_stop_now(&r, x, 20, 7.5));
}

Test(stop_rule, always_stops_at_max_samples)
{
	static double x[1000];
	struct cua_stop_rule r;
	noisy(x, 1000);
	cua_stop_rule_init(&r);
	cr_assert(!cua_stop_now(&r, x, 999, 0), "noisy, quick and under the cap");
	cr_assert(cua_stop_now(&r, x, 1000, 0));
	r.min_samples = 50;
	r.max_samples = 20;
	cr_assert(cua_stop_now(&r, x, 20, 0), "max_samples wins over min_samples");
}

Test(stop_rule, a_tighter_threshold_needs_more_samples)
{
	/* samples 1 and 3 alternating: rel. SEM = sqrt(n/(n-1))/sqrt(n)/2 = 1/(2 sqrt(n-1)) */
	static double x[1000];
	struct cua_stop_rule r;
	noisy(x, 1000);
	cua_stop_rule_init(&r);
	r.max_rel_sem = 0.05;                 /* needs n - 1 >= 100 */
	int n = 10;
	while (!cua_stop_now(&r, x, n, 0))
		n++;
	cr_assert_eq(n, 102, "stopped at n = %d", n); /* odd n skews the mean: 101 is not enough */
}
