/* test-metrics.c — scores (harness/results/metrics.c) against answers computed by hand
 * from the fixture runs in tests/data/results/ (see make-fixtures.py).
 *
 * basic (alpha v1, 5 L1 tasks; best of trajectory vs nvcc):
 *   sgemm 1.5x (library: cuBLAS 0.5x, %SOL 40), vector-add 1.02x (no library
 *   baseline: 1.02x, %SOL 80), relu 2.0x (cuDNN 1.8x, %SOL 90), softmax fails,
 *   999-missing never ran.
 *   pass 3/5; faster vs nvcc 3/5, by 5 % (> 1/0.95) 2/5; vs library 2/5, 1/5;
 *   fast_p vs nvcc 0.6 0.6 0.6 0.6 0.2 0.0 (1.5 is not > 1.5, 2.0 not > 2);
 *   fast_p vs library 0.6 0.4 0.4 0.4 0.2 0.0 (0.5 is not > 0.5);
 *   geomean vs nvcc (1.5*1.02*2)^(1/3) = 3.06^(1/3); failure-inclusive 3.06^(1/5);
 *   vs library 0.918^(1/3) and 0.918^(1/5); median %SOL 80.
 * basic, final turn: sgemm 1.2x (%SOL 32), vector-add fails, relu 2.0x:
 *   pass 2/5, geomean 2.4^(1/2), median %SOL (32 + 90) / 2 = 61. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "results/metrics.h"
#include "cuarena-test.h"

static struct cua_results *load(const char *name)
{
	char path[4096], err[CUA_ERR_LEN] = "";
	struct cua_results *run = NULL;
	snprintf(path, sizeof(path), "%s/tests/data/results/%s", root(), name);
	cr_assert_eq(cua_results_load(path, &run, err, sizeof(err)), CUA_OK, "%s", err);
	return run;
}

#define EPS 1e-12
#define NVCC 0
#define LIB 1

/* ---- the Overall weighting rule --------------------------------------------------- */

Test(metrics, overall_geomean_weights_level_log_geomeans_by_task_count)
{
	/* CUDA Agent Table 1, vs torch.compile and vs eager. */
	double compile[] = {1.87, 2.80, 1.52}, eager[] = {2.48, 3.27, 1.80};
	int counts[] = {100, 100, 50};
	double c = cua_weighted_geomean(3, compile, counts);
	double e = cua_weighted_geomean(3, eager, counts);
	cr_expect(fabs(c - 2.108) < 5e-4, "Overall vs compile is 2.11x, got %.4f", c);
	cr_expect(fabs(e - 2.598) < 5e-4, "Overall vs eager is 2.60x, got %.4f", e);
	/* not the plain mean of the geomeans (2.063), nor their unweighted geomean (1.991) */
	cr_expect(fabs(c - 2.0633) > 0.01 && fabs(c - 1.991) > 0.01);
}

Test(metrics, a_level_without_a_geomean_is_left_out_of_the_weights)
{
	double g[] = {2.0, NAN, 8.0};
	int n[] = {10, 10, 10};
	cr_expect_float_eq(cua_weighted_geomean(3, g, n), 4.0, EPS);
	double none[] = {NAN, NAN};
	cr_expect(isnan(cua_weighted_geomean(2, none, n)));
	int zero[] = {0, 5};
	double two[] = {100.0, 3.0};
	cr_expect_float_eq(cua_weighted_geomean(2, two, zero), 3.0, EPS);
}

Test(metrics, the_weighting_holds_through_a_fixture_run)
{
	/* weighted: 4/4/2 tasks (100:100:50), correct geomeans exactly 1.87/2.80/1.52
	 * vs torch-compile and 2.48/3.27/1.80 vs torch-eager, failures included. */
	struct cua_results *run = load("weighted");
	struct cua_score_opts o;
	struct cua_scores s;
	cua_score_opts_init(&o);
	cr_assert(cua_score_opts_baselines(&o, "torch-eager,torch-compile", NULL, 0));
	o.resamples = 0;
	cua_scores_compute(run, &o, &s);
	cr_assert_eq(s.n_levels, 3);
	static const double gm_compile[] = {1.87, 2.80, 1.52}, gm_eager[] = {2.48, 3.27, 1.80};
	static const int n[] = {4, 4, 2}, ok[] = {2, 4, 1};
	for (int l = 0; l < 3; l++) {
		const struct cua_group *g = cua_scores_level(&s, l + 1);
		cr_assert_not_null(g);
		cr_expect_eq(g->n, n[l]);
		cr_expect_eq(g->n_correct, ok[l]);
		cr_expect_float_eq(g->v.geomean[1], gm_compile[l], 1e-9, "L%d", l + 1);
		cr_expect_float_eq(g->v.geomean[0], gm_eager[l], 1e-9, "L%d", l + 1);
	}
	cr_expect_eq(s.overall.n, 10);
	cr_expect_float_eq(s.overall.v.pass, 0.7, EPS);
	cr_expect(fabs(s.overall.v.geomean[1] - 2.108) < 5e-4, "got %.4f", s.overall.v.geomean[1]);
	cr_expect(fabs(s.overall.v.geomean[0] - 2.598) < 5e-4, "got %.4f", s.overall.v.geomean[0]);
	/* failure-inclusive: the 7 correct logs over all 10 tasks */
	double logs = 2 * log(1.87) + 4 * log(2.80) + log(1.52);
	cr_expect_float_eq(s.overall.v.geomean_all[1], exp(logs / 10), 1e-9);
	cua_scores_clear(&s);
	cua_results_free(run);
}

Test(metrics, the_extra_set_is_scored_but_counts_in_no_level_and_not_in_overall)
{
	/* extra-set: weighted's ten level tasks plus X/001 (100x), X/002 (50x) and
	 * X/003 (fails), level 0 on their lines; weighted's L1/004-d is a 91-character
	 * id. Every group must be weighted's. */
	struct cua_results *run = load("extra-set");
	struct cua_score_opts o;
	struct cua_scores s;
	cua_score_opts_init(&o);
	cr_assert(cua_score_opts_baselines(&o, "torch-eager,torch-compile", NULL, 0));
	o.resamples = 0;
	cua_scores_compute(run, &o, &s);
	cr_expect_eq(s.n_tasks, 13, "the 91-character id is one task, not one per line");
	cr_assert_eq(s.n_levels, 3, "no group for the extra set");
	static const double gm_compile[] = {1.87, 2.80, 1.52};
	static const int n[] = {4, 4, 2}, ok[] = {2, 4, 1};
	for (int l = 0; l < 3; l++) {
		const struct cua_group *g = cua_scores_level(&s, l + 1);
		cr_assert_not_null(g);
		cr_expect_eq(g->n, n[l], "L%d", l + 1);
		cr_expect_eq(g->n_correct, ok[l], "L%d", l + 1);
		cr_expect_float_eq(g->v.geomean[1], gm_compile[l], 1e-9, "L%d", l + 1);
	}
	cr_expect_null(cua_scores_level(&s, 0));
	cr_expect_eq(s.overall.n, 10);
	cr_expect_float_eq(s.overall.v.pass, 0.7, EPS);
	cr_expect(fabs(s.overall.v.geomean[1] - 2.108) < 5e-4, "got %.4f", s.overall.v.geomean[1]);
	int extra = 0;
	for (int i = 0; i < s.n_tasks; i++) {
		if (strncmp(s.tasks[i].id, "X/", 2))
			continue;
		extra++;
		cr_expect_eq(s.tasks[i].level, 0, "%s", s.tasks[i].id);
		cr_expect_eq(s.tasks[i].correct, strcmp(s.tasks[i].id, "X/003-c") != 0, "%s",
		             s.tasks[i].id);
	}
	cr_expect_eq(extra, 3, "the extra set's tasks are scored one by one");
	cr_expect_not_null(cua_results_find(run, "L1/075-conv-transposed-2d-asymmetric-input-"
	                                         "asymmetric-kernel-strided-grouped-padded-dilated"));
	cua_scores_clear(&s);
	cua_results_free(run);
}

/* ---- every metric on the basic run --------------------------------------------------- */

Test(metrics, every_metric_of_the_basic_run_matches_the_hand_computed_value)
{
	struct cua_results *run = load("basic");
	struct cua_score_opts o;
	struct cua_scores s;
	cua_score_opts_init(&o);
	o.resamples = 0;
	cua_scores_compute(run, &o, &s);
	cr_assert_eq(s.n_levels, 1);
	const struct cua_mvals *v = &s.overall.v;
	cr_expect_eq(s.overall.n, 5);
	cr_expect_eq(s.overall.n_correct, 3);
	cr_expect_float_eq(v->pass, 0.6, EPS);
	cr_expect_float_eq(v->faster[NVCC], 0.6, EPS);
	cr_expect_float_eq(v->faster_margin[NVCC], 0.4, EPS);
	cr_expect_float_eq(v->faster[LIB], 0.4, EPS);
	cr_expect_float_eq(v->faster_margin[LIB], 0.2, EPS);
	static const double fp_nvcc[] = {0.6, 0.6, 0.6, 0.6, 0.2, 0.0};
	static const double fp_lib[] = {0.6, 0.4, 0.4, 0.4, 0.2, 0.0};
	for (int k = 0; k < CUA_FAST_P_N; k++) {
		cr_expect_float_eq(v->fast_p[NVCC][k], fp_nvcc[k], EPS, "fast_%g vs nvcc",
		                   cua_fast_p[k]);
		cr_expect_float_eq(v->fast_p[LIB][k], fp_lib[k], EPS, "fast_%g vs library",
		                   cua_fast_p[k]);
	}
	cr_expect_float_eq(v->geomean[NVCC], cbrt(3.06), 1e-12);
	cr_expect_float_eq(v->geomean_all[NVCC], pow(3.06, 0.2), 1e-12);
	cr_expect_float_eq(v->geomean[LIB], cbrt(0.918), 1e-12);
	cr_expect_float_eq(v->geomean_all[LIB], pow(0.918, 0.2), 1e-12);
	cr_expect_float_eq(v->median_sol, 80.0, EPS);
	/* the level group of a one-level run equals Overall */
	cr_expect_eq(memcmp(&s.levels[0].v, v, sizeof(*v)), 0);
	/* per task */
	cr_expect_str_eq(s.tasks[0].id, "L1/001-sgemm");
	cr_expect_eq(s.tasks[0].turn, 2);
	cr_expect_float_eq(s.tasks[0].speedup[NVCC], 1.5, EPS);
	cr_expect(!s.tasks[3].correct && s.tasks[3].attempted, "softmax was tried and failed");
	cr_expect(!s.tasks[4].attempted && isnan(s.tasks[4].speedup[NVCC]),
	          "999-missing never ran and counts as a failure");
	cua_scores_clear(&s);
	cua_results_free(run);
}

Test(metrics, final_turn_scoring_takes_the_last_evaluation_even_when_it_failed)
{
	struct cua_results *run = load("basic");
	struct cua_score_opts o;
	struct cua_scores s;
	cua_score_opts_init(&o);
	o.resamples = 0;
	o.pick = CUA_PICK_FINAL;
	cua_scores_compute(run, &o, &s);
	cr_expect_float_eq(s.overall.v.pass, 0.4, EPS);
	cr_expect_float_eq(s.overall.v.geomean[NVCC], sqrt(2.4), 1e-12);
	cr_expect_float_eq(s.overall.v.median_sol, 61.0, EPS);
	cr_expect_eq(s.tasks[0].turn, 3);
	cr_expect(!s.tasks[1].correct, "vector-add's final turn was wrong");
	cua_scores_clear(&s);
	cua_results_free(run);
}

Test(metrics, the_margin_sets_the_speedup_a_faster_task_needs)
{
	cr_expect_float_eq(cua_margin_speedup(0.05), 1 / 0.95, EPS);
	cr_expect_float_eq(cua_margin_speedup(0), 1.0, EPS);
	struct cua_results *run = load("basic");
	struct cua_score_opts o;
	struct cua_scores s;
	cua_score_opts_init(&o);
	o.resamples = 0;
	o.margin = 0.40;   /* needs > 1.667x: only relu's 2.0x */
	cua_scores_compute(run, &o, &s);
	cr_expect_float_eq(s.overall.v.faster_margin[NVCC], 0.2, EPS);
	cr_expect_float_eq(s.overall.v.faster[NVCC], 0.6, EPS, "the strict rate is unchanged");
	cua_scores_clear(&s);
	cua_results_free(run);
}

/* ---- bootstrap intervals ----------------------------------------------------------- */

Test(metrics, bootstrap_intervals_are_deterministic_and_bracket_the_value)
{
	struct cua_results *run = load("weighted");
	struct cua_score_opts o;
	struct cua_scores a, b;
	cua_score_opts_init(&o);
	cr_assert(cua_score_opts_baselines(&o, "torch-eager,torch-compile", NULL, 0));
	cua_scores_compute(run, &o, &a);
	cua_scores_compute(run, &o, &b);
	cr_expect_eq(memcmp(&a.overall, &b.overall, sizeof(a.overall)), 0,
	             "the same seed gives the same intervals");
	const struct cua_group *g = &a.overall;
	cr_expect(g->lo.geomean[1] <= g->v.geomean[1] && g->v.geomean[1] <= g->hi.geomean[1],
	          "%g <= %g <= %g", g->lo.geomean[1], g->v.geomean[1], g->hi.geomean[1]);
	cr_expect(g->lo.pass <= 0.7 && 0.7 <= g->hi.pass);
	cr_expect(g->lo.pass >= 0 && g->hi.pass <= 1);
	cr_expect(g->hi.geomean[1] > g->lo.geomean[1], "the interval has width");
	/* L2's four eager speedups are all 3.27: every resample says 3.27 */
	const struct cua_group *l2 = cua_scores_level(&a, 2);
	cr_expect_float_eq(l2->lo.geomean[0], 3.27, 1e-9);
	cr_expect_float_eq(l2->hi.geomean[0], 3.27, 1e-9);
	/* a different seed moves the interval (the value stays) */
	o.seed = 7;
	struct cua_scores c;
	cua_scores_compute(run, &o, &c);
	cr_expect_float_eq(c.overall.v.geomean[1], a.overall.v.geomean[1], EPS);
	cr_expect(c.overall.lo.geomean[1] != a.overall.lo.geomean[1] ||
	          c.overall.hi.geomean[1] != a.overall.hi.geomean[1]);
	cua_scores_clear(&a);
	cua_scores_clear(&b);
	cua_scores_clear(&c);
	cua_results_free(run);
}

Test(metrics, without_resamples_the_intervals_are_undefined)
{
	struct cua_results *run = load("basic");
	struct cua_score_opts o;
	struct cua_scores s;
	cua_score_opts_init(&o);
	o.resamples = 0;
	cua_scores_compute(run, &o, &s);
	cr_expect(isnan(s.overall.lo.pass) && isnan(s.overall.hi.geomean[0]));
	cua_scores_clear(&s);
	cua_results_free(run);
}

/* ---- options ------------------------------------------------------------------------- */

Test(metrics, defaults_are_nvcc_and_library_best_of_trajectory_and_5_percent)
{
	struct cua_score_opts o;
	cua_score_opts_init(&o);
	cr_expect_eq(o.n_baselines, 2);
	cr_expect_str_eq(o.baselines[0], "nvcc");
	cr_expect_str_eq(o.baselines[1], "library");
	cr_expect_eq(o.pick, CUA_PICK_BEST);
	cr_expect_float_eq(o.margin, 0.05, EPS);
	cr_expect_eq(o.resamples, 2000);
}

Test(metrics, a_baseline_list_is_parsed_and_bad_lists_are_refused)
{
	struct cua_score_opts o;
	char err[CUA_ERR_LEN];
	cua_score_opts_init(&o);
	cr_expect(cua_score_opts_baselines(&o, "torch-eager,torch-compile,cublas/sgemm", err,
	                                   sizeof(err)));
	cr_expect_eq(o.n_baselines, 3);
	cr_expect_str_eq(o.baselines[2], "cublas/sgemm");
	static const char *const bad[] = {"", ",", "a,", ",a", "a,,b", "a,a", "a,b,c,d,e"};
	for (size_t i = 0; i < CUA_ARRAY_LEN(bad); i++) {
		cua_score_opts_init(&o);
		cr_expect(!cua_score_opts_baselines(&o, bad[i], err, sizeof(err)), "'%s'", bad[i]);
		cr_expect_eq(o.n_baselines, 2, "'%s' left the options alone", bad[i]);
	}
}
