/* metrics.h — scores of a run: pass rate, faster rates, fast_p, geomean speedups
 * (correct-only and failure-inclusive), median %SOL, per level and Overall, with
 * bootstrap 95 % intervals. The definitions, with formulas: docs/SCORING.md. */
#ifndef CUA_METRICS_H
#define CUA_METRICS_H

#include "results/results.h"

#define CUA_SCORE_MAX_BASELINES 4
#define CUA_SCORE_MAX_LEVELS 9
#define CUA_FAST_P_N 6

/* p of fast_p: 0, 0.5, 0.8, 1, 1.5, 2 (KernelBench's set). */
extern const double cua_fast_p[CUA_FAST_P_N];

struct cua_score_opts {
	int n_baselines;                                   /* 1..CUA_SCORE_MAX_BASELINES */
	char baselines[CUA_SCORE_MAX_BASELINES][64];       /* speedup columns; may be
	                                                    * CUA_BASELINE_LIBRARY */
	char primary[64];         /* picks the best evaluation; "" = baselines[0] */
	enum cua_pick pick;
	double margin;            /* faster_margin: (t_base - t) / t_base > margin */
	int resamples;            /* bootstrap resamples; 0 = no intervals */
	uint64_t seed;            /* bootstrap seed (fixed: the intervals are deterministic) */
};

/* Defaults: baselines nvcc and library, primary nvcc, best-of-trajectory,
 * margin 5 %, 2000 resamples, seed 20261129. */
void cua_score_opts_init(struct cua_score_opts *o);

/* Parses "A,B" into o->baselines; false (err says why) on a bad list. */
bool cua_score_opts_baselines(struct cua_score_opts *o, const char *list, char *err,
                              size_t errlen);

/* How one task scored. */
struct cua_task_score {
	const char *id;           /* borrowed from the run */
	int level;
	bool attempted;           /* the run has at least one evaluation of it */
	bool correct;
	int turn;                 /* the scored evaluation's turn, 0 when none */
	const struct cua_rec *rec;/* the scored evaluation (borrowed), NULL when none */
	double speedup[CUA_SCORE_MAX_BASELINES]; /* NaN unless correct and timed */
	double pct_sol;           /* NaN unless correct and known */
};

/* Every metric of a group of tasks. Doubles only, so the bootstrap can walk
 * it as an array. Rates are fractions in [0, 1]; NaN = undefined (e.g. a
 * geomean over no correct task). */
struct cua_mvals {
	double pass;
	double faster[CUA_SCORE_MAX_BASELINES];          /* speedup > 1 */
	double faster_margin[CUA_SCORE_MAX_BASELINES];   /* speedup > 1 / (1 - margin) */
	double fast_p[CUA_SCORE_MAX_BASELINES][CUA_FAST_P_N];
	double geomean[CUA_SCORE_MAX_BASELINES];         /* over correct tasks */
	double geomean_all[CUA_SCORE_MAX_BASELINES];     /* a failed task counts 1.0 */
	double median_sol;                               /* %, over correct tasks */
};

struct cua_group {
	int level;                /* 0 = Overall */
	int n, n_correct;
	struct cua_mvals v;       /* the values */
	struct cua_mvals lo, hi;  /* bootstrap 95 % interval (NaN without resamples) */
};

struct cua_scores {
	struct cua_score_opts opts;
	int n_tasks;
	struct cua_task_score *tasks;           /* in the run's order (by id) */
	int n_levels;
	struct cua_group levels[CUA_SCORE_MAX_LEVELS];  /* ascending level */
	struct cua_group overall;               /* levels weighted by task count */
};

/* Scores every task the run mentions (listed or evaluated) and summarises.
 * Tasks of a level outside 1..CUA_SCORE_MAX_LEVELS-1 (the extra set X/, level
 * 0) are scored but counted in no level group and not in Overall, so a level's
 * figures are over that level's tasks alone. out is owned by the caller: free
 * with cua_scores_clear. */
void cua_scores_compute(const struct cua_results *run, const struct cua_score_opts *o,
                        struct cua_scores *out);
void cua_scores_clear(struct cua_scores *s);

/* The scores as JSON (rates as fractions, intervals as [lo, hi], NaN as null):
 * {run, run_id, agent, version, device, created, pick, primary, margin,
 *  groups: [{level: "Overall"|"L1"..., tasks, correct, pass, ...}], tasks: [...]}.
 * Caller frees with cJSON_Delete. */
struct cJSON *cua_scores_to_json(const struct cua_results *run, const struct cua_scores *s);

/* "Overall", "L1", ... or "L?" for level 0 of a level group. */
const char *cua_group_name(const struct cua_group *g, const struct cua_scores *s,
                           char *buf, size_t len);

/* The group of a level, NULL if the run has no task of it. */
const struct cua_group *cua_scores_level(const struct cua_scores *s, int level);

/* The Overall geomean rule (CUDA Agent): exp of the task-count-weighted mean of
 * the per-level log-geomeans; levels whose geomean is NaN are left out.
 * 1.87, 2.80, 1.52 over 100, 100, 50 gives 2.108. NaN when nothing is left. */
double cua_weighted_geomean(int n, const double *geomeans, const int *counts);

/* The speedup a "faster by margin m" needs: 1 / (1 - m). */
double cua_margin_speedup(double margin);

/* ---- run against run (`cuarena compare`) ------------------------------------- */

/* How one task changed from an OLD run to a NEW one. Values are appended. */
enum cua_change {
	CUA_CHANGE_SAME = 0,       /* medians within the threshold, quartile ranges overlap */
	CUA_CHANGE_FASTER = 1,     /* NEW's q3 < OLD's q1 and the median ratio < 1 - threshold */
	CUA_CHANGE_SLOWER = 2,     /* NEW's q1 > OLD's q3 and the median ratio > 1 + threshold */
	CUA_CHANGE_AMBIGUOUS = 3,  /* none of those: noise, a small real shift, or the clock */
	CUA_CHANGE_BROKE = 4,      /* correct before, not now: a regression */
	CUA_CHANGE_FIXED = 5,      /* not correct before, correct now */
	CUA_CHANGE_FAILING = 6,    /* correct in neither */
	CUA_CHANGE_NEW = 7,        /* only NEW mentions the task */
	CUA_CHANGE_GONE = 8,       /* only OLD mentions the task */
	CUA_CHANGE_COUNT
};

/* "SAME", "FASTER", "SLOWER", "AMBIGUOUS", "PASS->FAIL", "FAIL->PASS", "FAIL",
 * "NEW", "GONE". */
const char *cua_change_name(enum cua_change c);

/* SLOWER and PASS->FAIL are regressions (a nightly job fails on them). */
bool cua_change_is_regression(enum cua_change c);

/* Fewer timed samples than this on either side never give FASTER or SLOWER:
 * the quartiles of a handful of samples are themselves noise. */
#define CUA_COMPARE_MIN_SAMPLES 10

/* Classifies the timing of two correct evaluations of a task from their event
 * time distributions (median and quartiles; missing quartiles count as the
 * median). When both SM clocks are known, FASTER and SLOWER must also hold in
 * cycles (time x clock), else AMBIGUOUS; so must CUA_COMPARE_MIN_SAMPLES. threshold: 0.05 = 5 %. *ratio gets
 * new median / old median (NaN without timing); *why a short reason for
 * AMBIGUOUS ("" otherwise). */
enum cua_change cua_compare_timing(const struct cua_rec *old, const struct cua_rec *new,
                                   double threshold, double *ratio, const char **why);

/* The whole rule for one task: correctness first, then timing. Either may be
 * NULL (the run does not mention the task). */
enum cua_change cua_compare_task(const struct cua_results_task *old, const struct cua_results_task *new,
                                 enum cua_pick pick, double threshold, double *ratio,
                                 const char **why);

#endif /* CUA_METRICS_H */
