/* test-compare-runs.c — run against run (cua_compare_timing/task in
 * harness/results/metrics.c and `cuarena compare`): planted regressions, noise-only
 * changes, correctness flips, the clock guard, exit status for nightly CI. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <string.h>

#include "results/metrics.h"
#include "cuarena-test.h"

/* ---- the timing rule on hand-made distributions ------------------------------------- */

static struct cua_rec timed(double median, double q1, double q3, double mhz, int n)
{
	struct cua_rec r;
	memset(&r, 0, sizeof(r));
	r.verdict = CUA_VERDICT_OK;
	r.timed = true;
	r.ms.n = n;
	r.ms.median = median;
	r.ms.q1 = q1;
	r.ms.q3 = q3;
	r.sm_mhz = mhz;
	return r;
}

struct timing_case {
	char name[64];
	double o[3], n[3];    /* median, q1, q3 */
	double o_mhz, n_mhz;
	int samples;
	enum cua_change want;
};

static struct timing_case timing_cases[] = {
	{"20 % slower, apart", {1, .99, 1.01}, {1.2, 1.19, 1.21}, 1980, 1980, 50, CUA_CHANGE_SLOWER},
	{"20 % faster, apart", {1, .99, 1.01}, {.8, .79, .81}, 1980, 1980, 50, CUA_CHANGE_FASTER},
	{"1 % slower, overlapping", {1, .99, 1.01}, {1.01, 1, 1.02}, 1980, 1980, 50,
	 CUA_CHANGE_SAME},
	{"identical", {1, .99, 1.01}, {1, .99, 1.01}, 1980, 1980, 50, CUA_CHANGE_SAME},
	{"8 % slower but overlapping", {1, .9, 1.1}, {1.08, .97, 1.2}, 1980, 1980, 50,
	 CUA_CHANGE_AMBIGUOUS},
	{"3 % slower but apart", {1, .998, 1.002}, {1.03, 1.028, 1.032}, 1980, 1980, 50,
	 CUA_CHANGE_AMBIGUOUS},
	{"20 % slower at a 17 % lower clock", {1, .99, 1.01}, {1.2, 1.19, 1.21}, 1980, 1650, 50,
	 CUA_CHANGE_AMBIGUOUS},
	{"20 % slower, clocks unknown", {1, .99, 1.01}, {1.2, 1.19, 1.21}, NAN, NAN, 50,
	 CUA_CHANGE_SLOWER},
	{"20 % slower from 5 samples", {1, .99, 1.01}, {1.2, 1.19, 1.21}, 1980, 1980, 5,
	 CUA_CHANGE_AMBIGUOUS},
	{"no quartiles, 20 % slower", {1, NAN, NAN}, {1.2, NAN, NAN}, 1980, 1980, 50,
	 CUA_CHANGE_SLOWER},
	{"no quartiles, 2 % slower", {1, NAN, NAN}, {1.02, NAN, NAN}, 1980, 1980, 50,
	 CUA_CHANGE_AMBIGUOUS},
	{"exactly at the threshold", {1, .99, 1.01}, {1.05, 1.04, 1.06}, 1980, 1980, 50,
	 CUA_CHANGE_AMBIGUOUS},
};

ParameterizedTestParameters(compare_runs, the_timing_rule_reads_the_distributions)
{
	return cr_make_param_array(struct timing_case, timing_cases, CUA_ARRAY_LEN(timing_cases));
}

ParameterizedTest(struct timing_case *c, compare_runs, the_timing_rule_reads_the_distributions)
{
	struct cua_rec o = timed(c->o[0], c->o[1], c->o[2], c->o_mhz, c->samples);
	struct cua_rec n = timed(c->n[0], c->n[1], c->n[2], c->n_mhz, c->samples);
	double ratio;
	const char *why;
	enum cua_change got = cua_compare_timing(&o, &n, 0.05, &ratio, &why);
	cr_expect_eq(got, c->want, "%s: %s, want %s (%s)", c->name, cua_change_name(got),
	             cua_change_name(c->want), why);
	cr_expect_float_eq(ratio, c->n[0] / c->o[0], 1e-12, "%s", c->name);
	cr_expect_eq(why[0] != '\0', got == CUA_CHANGE_AMBIGUOUS, "%s: a reason iff AMBIGUOUS",
	             c->name);
}

Test(compare_runs, an_untimed_side_is_ambiguous)
{
	struct cua_rec o = timed(1, .99, 1.01, 1980, 50), n = o;
	double ratio;
	const char *why;
	n.timed = false;
	cr_expect_eq(cua_compare_timing(&o, &n, 0.05, &ratio, &why), CUA_CHANGE_AMBIGUOUS);
	cr_expect(isnan(ratio));
	cr_expect_str_eq(why, "no timing");
}

Test(compare_runs, only_slower_and_pass_to_fail_are_regressions)
{
	for (int c = 0; c < CUA_CHANGE_COUNT; c++)
		cr_expect_eq(cua_change_is_regression((enum cua_change)c),
		             c == CUA_CHANGE_SLOWER || c == CUA_CHANGE_BROKE, "%s",
		             cua_change_name((enum cua_change)c));
	cr_expect_str_eq(cua_change_name(CUA_CHANGE_BROKE), "PASS->FAIL");
	cr_expect_str_eq(cua_change_name(CUA_CHANGE_COUNT), "?");
}

/* ---- whole runs ----------------------------------------------------------------------- */

static struct cua_results *load(const char *name)
{
	char path[4096], err[CUA_ERR_LEN] = "";
	struct cua_results *run = NULL;
	snprintf(path, sizeof(path), "%s/tests/data/results/%s", root(), name);
	cr_assert_eq(cua_results_load(path, &run, err, sizeof(err)), CUA_OK, "%s", err);
	return run;
}

Test(compare_runs, planted_changes_are_each_found)
{
	static const struct {
		const char *task;
		enum cua_change want;
	} want[] = {
		{"L1/001-sgemm", CUA_CHANGE_SLOWER},        /* 1.0 -> 1.2 ms, apart */
		{"L1/020-vector-add", CUA_CHANGE_FASTER},   /* 2.0 -> 1.6 ms, apart */
		{"L1/021-relu", CUA_CHANGE_SAME},           /* 1.0 -> 1.01 ms, overlapping */
		{"L1/025-softmax", CUA_CHANGE_BROKE},       /* correct -> wrong_output */
		{"L1/027-swish", CUA_CHANGE_FIXED},         /* wrong_output -> correct */
		{"L1/028-gelu-erf", CUA_CHANGE_AMBIGUOUS},  /* +8 %, wide overlapping quartiles */
		{"L1/029-gelu-tanh", CUA_CHANGE_AMBIGUOUS}, /* +3 %, tight apart quartiles */
		{"L1/030-selu", CUA_CHANGE_AMBIGUOUS},      /* +20 % at 1650 vs 1980 MHz */
		{"L1/031-hard-sigmoid", CUA_CHANGE_FAILING},
		{"L1/032-softplus", CUA_CHANGE_NEW},
	};
	struct cua_results *o = load("compare-old"), *n = load("compare-new");
	for (size_t i = 0; i < CUA_ARRAY_LEN(want); i++) {
		double ratio;
		const char *why;
		enum cua_change got = cua_compare_task(cua_results_find(o, want[i].task),
		                                       cua_results_find(n, want[i].task), CUA_PICK_BEST,
		                                       0.05, &ratio, &why);
		cr_expect_eq(got, want[i].want, "%s: %s, want %s", want[i].task,
		             cua_change_name(got), cua_change_name(want[i].want));
	}
	double ratio;
	const char *why;
	cr_expect_eq(cua_compare_task(cua_results_find(n, "L1/032-softplus"), NULL, CUA_PICK_BEST,
	                              0.05, &ratio, &why),
	             CUA_CHANGE_GONE, "a task only the old run has is GONE");
	cua_results_free(o);
	cua_results_free(n);
}

Test(compare_runs, measurement_noise_alone_is_never_slower_or_faster)
{
	/* 36 tasks measured twice from one distribution: 1 % to 30 % spread, 5 to
	 * 200 samples, 2x outliers (make-fixtures.py). */
	struct cua_results *a = load("noise-a"), *b = load("noise-b");
	int same = 0, ambiguous = 0;
	for (int i = 0; i < a->n_tasks; i++) {
		double ratio;
		const char *why;
		const char *id = a->tasks[i].id;
		enum cua_change c = cua_compare_task(&a->tasks[i], cua_results_find(b, id),
		                                     CUA_PICK_BEST, 0.05, &ratio, &why);
		cr_expect(c == CUA_CHANGE_SAME || c == CUA_CHANGE_AMBIGUOUS, "%s: %s (ratio %.3f)",
		          id, cua_change_name(c), ratio);
		same += c == CUA_CHANGE_SAME;
		ambiguous += c == CUA_CHANGE_AMBIGUOUS;
		/* and the other way round */
		c = cua_compare_task(cua_results_find(b, id), &a->tasks[i], CUA_PICK_BEST, 0.05, &ratio,
		                     &why);
		cr_expect(c == CUA_CHANGE_SAME || c == CUA_CHANGE_AMBIGUOUS, "%s reversed: %s", id,
		          cua_change_name(c));
	}
	cr_expect_eq(a->n_tasks, 36);
	cr_expect_geq(same, 24, "the low-noise tasks read SAME (%d did)", same);
	cr_expect_geq(ambiguous, 3, "the noisiest tasks read AMBIGUOUS (%d did)", ambiguous);
	cua_results_free(a);
	cua_results_free(b);
}

/* ---- the command, as a nightly job runs it --------------------------------------------- */

Test(compare_runs, the_command_exits_1_on_a_regression_and_says_which)
{
	int status;
	char *out = run_cuarena("compare tests/data/results/compare-old "
	                        "tests/data/results/compare-new", &status);
	cr_expect_eq(status, 1);
	cr_expect(strstr(out, "| L1/001-sgemm | 1 [0.99, 1.01] | 1.2 [1.19, 1.215] | 1.200 | "
	                      "**SLOWER** |") != NULL, "%s", out);
	cr_expect(strstr(out, "| L1/025-softmax | 1 [0.99, 1.01] | wrong_output | — | "
	                      "**PASS->FAIL** |") != NULL, "%s", out);
	cr_expect(strstr(out, "10 tasks: 1 same, 1 faster, 1 slower, 3 ambiguous, 1 pass->fail, "
	                      "1 fail->pass, 1 fail, 1 new; 2 regressions\n") != NULL, "%s", out);
	free(out);
}

Test(compare_runs, the_command_exits_0_on_noise_and_on_improvements)
{
	int status;
	free(run_cuarena("compare tests/data/results/noise-a tests/data/results/noise-b", &status));
	cr_expect_eq(status, 0, "noise only");
	/* new -> old: the regressions become improvements, and softplus is GONE */
	char *out = run_cuarena("compare tests/data/results/compare-new "
	                        "tests/data/results/compare-old --threshold 5", &status);
	cr_expect_eq(status, 1, "new -> old still has vector-add 1.6 -> 2.0 ms: SLOWER");
	cr_expect(strstr(out, "1 gone") != NULL, "%s", out);
	free(out);
	free(run_cuarena("compare tests/data/results/basic tests/data/results/basic", &status));
	cr_expect_eq(status, 0, "a run against itself");
}

Test(compare_runs, json_lists_every_task_with_its_status)
{
	int status;
	char *out = run_cuarena("compare tests/data/results/compare-old "
	                        "tests/data/results/compare-new --json", &status);
	cr_expect_eq(status, 1);
	cr_expect(strstr(out, "\"regressions\":\t2") != NULL, "%s", out);
	cr_expect(strstr(out, "\"status\":\t\"FAIL->PASS\"") != NULL, "%s", out);
	free(out);
}

struct misuse {
	char args[160];
	int status;
};

static struct misuse misuses[] = {
	{"compare", 2},
	{"compare tests/data/results/basic", 2},
	{"compare tests/data/results/basic tests/data/results/basic tests/data/results/basic", 2},
	{"compare tests/data/results/basic tests/data/results/basic --threshold 0", 2},
	{"compare tests/data/results/basic tests/data/results/basic --threshold x", 2},
	{"compare tests/data/results/basic tests/data/results/no-run-json", 2},
};

ParameterizedTestParameters(compare_runs, misuse_is_a_usage_error)
{
	return cr_make_param_array(struct misuse, misuses, CUA_ARRAY_LEN(misuses));
}

ParameterizedTest(struct misuse *m, compare_runs, misuse_is_a_usage_error)
{
	int status;
	free(run_cuarena(m->args, &status));
	cr_expect_eq(status, m->status, "cuarena %s: exit %d", m->args, status);
}
