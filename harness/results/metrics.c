/* metrics.c — scores of a run (metrics.h); formulas in docs/SCORING.md. */
#include "results/metrics.h"

#include <math.h>
#include <string.h>
#include <cjson/cJSON.h>

const double cua_fast_p[CUA_FAST_P_N] = {0, 0.5, 0.8, 1.0, 1.5, 2.0};

#define NV ((int)(sizeof(struct cua_mvals) / sizeof(double)))
_Static_assert(sizeof(struct cua_mvals) % sizeof(double) == 0,
               "struct cua_mvals must hold doubles only");

void cua_score_opts_init(struct cua_score_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->n_baselines = 2;
	snprintf(o->baselines[0], sizeof(o->baselines[0]), "nvcc");
	snprintf(o->baselines[1], sizeof(o->baselines[1]), "%s", CUA_BASELINE_LIBRARY);
	o->pick = CUA_PICK_BEST;
	o->margin = 0.05;
	o->resamples = 2000;
	o->seed = 20261129;
}

bool cua_score_opts_baselines(struct cua_score_opts *o, const char *list, char *err,
                              size_t errlen)
{
	char names[CUA_SCORE_MAX_BASELINES][64];
	int n = 0;
	const char *p = list;

	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		if (len == 0 || len >= sizeof(names[0])) {
			cua_errf(err, errlen, "'%s': expected names separated by commas", list);
			return false;
		}
		if (n == CUA_SCORE_MAX_BASELINES) {
			cua_errf(err, errlen, "'%s': at most %d baselines", list,
			         CUA_SCORE_MAX_BASELINES);
			return false;
		}
		memcpy(names[n], p, len);
		names[n][len] = '\0';
		for (int k = 0; k < n; k++)
			if (!strcmp(names[k], names[n])) {
				cua_errf(err, errlen, "'%s': '%s' twice", list, names[n]);
				return false;
			}
		n++;
		if (!comma)
			break;
		p = comma + 1;
	}
	o->n_baselines = n;
	memcpy(o->baselines, names, sizeof(names));
	return true;
}

double cua_margin_speedup(double margin)
{
	return 1.0 / (1.0 - margin);
}

double cua_weighted_geomean(int n, const double *geomeans, const int *counts)
{
	double sum = 0, w = 0;
	for (int i = 0; i < n; i++) {
		if (!(geomeans[i] > 0) || !isfinite(geomeans[i]) || counts[i] <= 0)
			continue;
		sum += counts[i] * log(geomeans[i]);
		w += counts[i];
	}
	return w > 0 ? exp(sum / w) : NAN;
}

/* ---- sufficient statistics of one level ------------------------------------------ */

struct sums {
	int n, correct;
	int faster[CUA_SCORE_MAX_BASELINES], faster_m[CUA_SCORE_MAX_BASELINES];
	int fast_p[CUA_SCORE_MAX_BASELINES][CUA_FAST_P_N];
	int n_gm[CUA_SCORE_MAX_BASELINES];
	double log_gm[CUA_SCORE_MAX_BASELINES];   /* sum of log speedup, correct and known */
	double log_all[CUA_SCORE_MAX_BASELINES];  /* same; failures and unknowns add log 1 */
	int n_sol;
	double *sol;                              /* caller's buffer, one slot per task */
};

static void add_task(struct sums *s, const struct cua_task_score *t, int nb, double need_m)
{
	s->n++;
	if (!t->correct)
		return;
	s->correct++;
	for (int b = 0; b < nb; b++) {
		double x = t->speedup[b];
		s->fast_p[b][0]++;   /* fast_0 is the correctness rate */
		if (!isfinite(x))
			continue;
		s->faster[b] += x > 1.0;
		s->faster_m[b] += x > need_m;
		for (int k = 1; k < CUA_FAST_P_N; k++)
			s->fast_p[b][k] += x > cua_fast_p[k];
		s->n_gm[b]++;
		s->log_gm[b] += log(x);
		s->log_all[b] += log(x);
	}
	if (isfinite(t->pct_sol))
		s->sol[s->n_sol++] = t->pct_sol;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Median of v[0..n) (sorts v); NaN when n = 0. */
static double median(double *v, int n)
{
	if (n == 0)
		return NAN;
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double frac(int k, int n)
{
	return n > 0 ? (double)k / n : NAN;
}

/* Combines levels into one group's values: rates pool the counts; the geomean
 * weights each level's log-geomean by its task count; %SOL pools the values.
 * sol_scratch holds at least the sum of the levels' n_sol. */
static void finish(const struct sums *lv, int n_lv, int nb, struct cua_mvals *v,
                   double *sol_scratch)
{
	struct sums t;
	int n_sol = 0;
	memset(&t, 0, sizeof(t));
	for (int i = 0; i < NV; i++)
		((double *)v)[i] = NAN;
	for (int l = 0; l < n_lv; l++) {
		t.n += lv[l].n;
		t.correct += lv[l].correct;
		for (int b = 0; b < nb; b++) {
			t.faster[b] += lv[l].faster[b];
			t.faster_m[b] += lv[l].faster_m[b];
			for (int k = 0; k < CUA_FAST_P_N; k++)
				t.fast_p[b][k] += lv[l].fast_p[b][k];
			t.log_all[b] += lv[l].log_all[b];
		}
		memcpy(sol_scratch + n_sol, lv[l].sol, (size_t)lv[l].n_sol * sizeof(double));
		n_sol += lv[l].n_sol;
	}
	v->pass = frac(t.correct, t.n);
	for (int b = 0; b < nb; b++) {
		v->faster[b] = frac(t.faster[b], t.n);
		v->faster_margin[b] = frac(t.faster_m[b], t.n);
		for (int k = 0; k < CUA_FAST_P_N; k++)
			v->fast_p[b][k] = frac(t.fast_p[b][k], t.n);
		double gm[CUA_SCORE_MAX_LEVELS];
		int cnt[CUA_SCORE_MAX_LEVELS];
		for (int l = 0; l < n_lv; l++) {
			gm[l] = lv[l].n_gm[b] ? exp(lv[l].log_gm[b] / lv[l].n_gm[b]) : NAN;
			cnt[l] = lv[l].n;
		}
		v->geomean[b] = cua_weighted_geomean(n_lv, gm, cnt);
		v->geomean_all[b] = t.n ? exp(t.log_all[b] / t.n) : NAN;
	}
	v->median_sol = median(sol_scratch, n_sol);
}

/* ---- bootstrap ---------------------------------------------------------------------- */

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Percentile q of the finite values of v[0..n) (sorts them), linear between
 * order statistics; NaN when none is finite. */
static double percentile(double *v, int n, double q)
{
	int m = 0;
	for (int i = 0; i < n; i++)
		if (isfinite(v[i]))
			v[m++] = v[i];
	if (m == 0)
		return NAN;
	qsort(v, (size_t)m, sizeof(*v), cmp_double);
	double h = (m - 1) * q;
	int lo = (int)floor(h);
	if (lo >= m - 1)
		return v[m - 1];
	return v[lo] + (h - lo) * (v[lo + 1] - v[lo]);
}

/* One group over the levels idx[0..n_lv): each level's tasks are
 * by_level[l][0..count[l]). Resamples tasks with replacement within each level
 * (a stratified bootstrap: every resample keeps the level counts, so the
 * Overall weights stay those of the run). */
static void group_compute(struct cua_group *g, const struct cua_task_score *const *const *by_level,
                          const int *count, int n_lv, const struct cua_score_opts *o,
                          uint64_t salt)
{
	struct sums lv[CUA_SCORE_MAX_LEVELS];
	int total = 0;
	for (int l = 0; l < n_lv; l++)
		total += count[l];
	double *sol = calloc((size_t)total * 2 + 1, sizeof(double));
	CUA_ASSERT(sol);
	double need_m = cua_margin_speedup(o->margin);
	int nb = o->n_baselines;

	memset(lv, 0, sizeof(lv));
	for (int l = 0, off = 0; l < n_lv; off += count[l], l++) {
		lv[l].sol = sol + off;
		for (int i = 0; i < count[l]; i++)
			add_task(&lv[l], by_level[l][i], nb, need_m);
		g->n += lv[l].n;
		g->n_correct += lv[l].correct;
	}
	finish(lv, n_lv, nb, &g->v, sol + total);
	for (int i = 0; i < NV; i++)
		((double *)&g->lo)[i] = ((double *)&g->hi)[i] = NAN;
	if (o->resamples <= 0 || total == 0) {
		free(sol);
		return;
	}
	int R = o->resamples;
	double *draws = malloc((size_t)R * NV * sizeof(double));
	double *col = malloc((size_t)R * sizeof(double));
	CUA_ASSERT(draws && col);
	uint64_t state = o->seed ^ (salt * 0xd1342543de82ef95ULL);
	for (int r = 0; r < R; r++) {
		memset(lv, 0, sizeof(lv));
		for (int l = 0, off = 0; l < n_lv; off += count[l], l++) {
			lv[l].sol = sol + off;
			for (int i = 0; i < count[l]; i++) {
				int k = (int)(splitmix64(&state) % (uint64_t)count[l]);
				add_task(&lv[l], by_level[l][k], nb, need_m);
			}
		}
		struct cua_mvals v;
		finish(lv, n_lv, nb, &v, sol + total);
		memcpy(draws + (size_t)r * NV, &v, sizeof(v));
	}
	for (int k = 0; k < NV; k++) {
		if (isnan(((double *)&g->v)[k]))
			continue;   /* unused slot (a baseline column not asked for) */
		for (int r = 0; r < R; r++)
			col[r] = draws[(size_t)r * NV + k];
		((double *)&g->lo)[k] = percentile(col, R, 0.025);
		for (int r = 0; r < R; r++)
			col[r] = draws[(size_t)r * NV + k];
		((double *)&g->hi)[k] = percentile(col, R, 0.975);
	}
	free(col);
	free(draws);
	free(sol);
}

/* ---- the run ------------------------------------------------------------------------- */

void cua_scores_compute(const struct cua_results *run, const struct cua_score_opts *o,
                        struct cua_scores *out)
{
	memset(out, 0, sizeof(*out));
	out->opts = *o;
	CUA_ASSERT(o->n_baselines >= 1 && o->n_baselines <= CUA_SCORE_MAX_BASELINES);
	const char *primary = o->primary[0] ? o->primary : o->baselines[0];
	out->n_tasks = run->n_tasks;
	out->tasks = calloc((size_t)run->n_tasks + 1, sizeof(*out->tasks));
	CUA_ASSERT(out->tasks);
	for (int i = 0; i < run->n_tasks; i++) {
		const struct cua_results_task *t = &run->tasks[i];
		struct cua_task_score *s = &out->tasks[i];
		s->id = t->id;
		s->level = t->level > 0 && t->level < CUA_SCORE_MAX_LEVELS ? t->level : 0;
		s->attempted = t->n_evals > 0;
		s->rec = cua_results_scored(t, primary, o->pick);
		s->correct = cua_rec_correct(s->rec);
		s->turn = s->rec ? s->rec->turn : 0;
		for (int b = 0; b < CUA_SCORE_MAX_BASELINES; b++)
			s->speedup[b] = b < o->n_baselines && s->correct
			                    ? cua_rec_speedup(s->rec, o->baselines[b])
			                    : NAN;
		s->pct_sol = s->correct ? s->rec->pct_sol : NAN;
	}

	/* tasks by level */
	const struct cua_task_score **by[CUA_SCORE_MAX_LEVELS];
	int count[CUA_SCORE_MAX_LEVELS] = {0};
	for (int l = 0; l < CUA_SCORE_MAX_LEVELS; l++) {
		by[l] = calloc((size_t)run->n_tasks + 1, sizeof(*by[l]));
		CUA_ASSERT(by[l]);
	}
	for (int i = 0; i < out->n_tasks; i++) {
		int l = out->tasks[i].level;
		if (l > 0)   /* level 0: the extra set (X/…) or an unknown level, in no group */
			by[l][count[l]++] = &out->tasks[i];
	}
	const struct cua_task_score *const *lv_tasks[CUA_SCORE_MAX_LEVELS];
	int lv_count[CUA_SCORE_MAX_LEVELS];
	int n_lv = 0;
	for (int l = 0; l < CUA_SCORE_MAX_LEVELS; l++) {
		if (!count[l])
			continue;
		struct cua_group *g = &out->levels[out->n_levels++];
		g->level = l;
		const struct cua_task_score *const *one[1] = {by[l]};
		group_compute(g, one, &count[l], 1, o, (uint64_t)l + 1);
		lv_tasks[n_lv] = by[l];
		lv_count[n_lv++] = count[l];
	}
	out->overall.level = 0;
	group_compute(&out->overall, lv_tasks, lv_count, n_lv, o, 0);
	for (int l = 0; l < CUA_SCORE_MAX_LEVELS; l++)
		free(by[l]);
}

void cua_scores_clear(struct cua_scores *s)
{
	if (!s)
		return;
	free(s->tasks);
	s->tasks = NULL;
	s->n_tasks = 0;
}

const struct cua_group *cua_scores_level(const struct cua_scores *s, int level)
{
	for (int i = 0; i < s->n_levels; i++)
		if (s->levels[i].level == level)
			return &s->levels[i];
	return NULL;
}

/* ---- JSON ---------------------------------------------------------------------------- */

const char *cua_group_name(const struct cua_group *g, const struct cua_scores *s,
                           char *buf, size_t len)
{
	if (g == &s->overall)
		snprintf(buf, len, "Overall");
	else if (g->level == 0)
		snprintf(buf, len, "L?");
	else
		snprintf(buf, len, "L%d", g->level);
	return buf;
}

static cJSON *num(double v)
{
	return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

static cJSON *interval(double lo, double hi)
{
	cJSON *a = cJSON_CreateArray();
	cJSON_AddItemToArray(a, num(lo));
	cJSON_AddItemToArray(a, num(hi));
	return a;
}

/* {baseline: value} and {baseline: [lo, hi]} for one per-baseline metric. */
static void per_baseline(cJSON *o, const char *key, const struct cua_scores *s,
                         const double *v, const double *lo, const double *hi)
{
	cJSON *a = cJSON_AddObjectToObject(o, key);
	char ci[64];
	snprintf(ci, sizeof(ci), "%s_ci", key);
	cJSON *b = cJSON_AddObjectToObject(o, ci);
	for (int i = 0; i < s->opts.n_baselines; i++) {
		cJSON_AddItemToObject(a, s->opts.baselines[i], num(v[i]));
		cJSON_AddItemToObject(b, s->opts.baselines[i], interval(lo[i], hi[i]));
	}
}

static cJSON *group_json(const struct cua_group *g, const struct cua_scores *s)
{
	char name[16];
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "level", cua_group_name(g, s, name, sizeof(name)));
	cJSON_AddNumberToObject(o, "tasks", g->n);
	cJSON_AddNumberToObject(o, "correct", g->n_correct);
	cJSON_AddItemToObject(o, "pass", num(g->v.pass));
	cJSON_AddItemToObject(o, "pass_ci", interval(g->lo.pass, g->hi.pass));
	per_baseline(o, "faster", s, g->v.faster, g->lo.faster, g->hi.faster);
	per_baseline(o, "faster_margin", s, g->v.faster_margin, g->lo.faster_margin,
	             g->hi.faster_margin);
	per_baseline(o, "geomean", s, g->v.geomean, g->lo.geomean, g->hi.geomean);
	per_baseline(o, "geomean_all", s, g->v.geomean_all, g->lo.geomean_all,
	             g->hi.geomean_all);
	cJSON *fp = cJSON_AddObjectToObject(o, "fast_p");
	for (int b = 0; b < s->opts.n_baselines; b++) {
		cJSON *one = cJSON_AddObjectToObject(fp, s->opts.baselines[b]);
		for (int k = 0; k < CUA_FAST_P_N; k++) {
			char p[16];
			snprintf(p, sizeof(p), "%g", cua_fast_p[k]);
			cJSON_AddItemToObject(one, p, num(g->v.fast_p[b][k]));
		}
	}
	cJSON_AddItemToObject(o, "median_sol", num(g->v.median_sol));
	cJSON_AddItemToObject(o, "median_sol_ci", interval(g->lo.median_sol, g->hi.median_sol));
	return o;
}

cJSON *cua_scores_to_json(const struct cua_results *run, const struct cua_scores *s)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "run", run->dir);
	cJSON_AddStringToObject(o, "run_id", run->run_id);
	cJSON_AddStringToObject(o, "agent", run->agent);
	cJSON_AddStringToObject(o, "version", run->version);
	cJSON_AddStringToObject(o, "device", run->device);
	cJSON_AddStringToObject(o, "created", run->created);
	cJSON_AddStringToObject(o, "pick", s->opts.pick == CUA_PICK_FINAL ? "final" : "best");
	cJSON_AddStringToObject(o, "primary",
	                        s->opts.primary[0] ? s->opts.primary : s->opts.baselines[0]);
	cJSON_AddNumberToObject(o, "margin", s->opts.margin);
	cJSON_AddNumberToObject(o, "resamples", s->opts.resamples);
	cJSON *gs = cJSON_AddArrayToObject(o, "groups");
	cJSON_AddItemToArray(gs, group_json(&s->overall, s));
	for (int i = 0; i < s->n_levels; i++)
		cJSON_AddItemToArray(gs, group_json(&s->levels[i], s));
	cJSON *ts = cJSON_AddArrayToObject(o, "tasks");
	for (int i = 0; i < s->n_tasks; i++) {
		const struct cua_task_score *t = &s->tasks[i];
		cJSON *j = cJSON_CreateObject();
		cJSON_AddStringToObject(j, "task", t->id);
		cJSON_AddNumberToObject(j, "level", t->level);
		cJSON_AddBoolToObject(j, "attempted", t->attempted);
		cJSON_AddBoolToObject(j, "correct", t->correct);
		cJSON_AddNumberToObject(j, "turn", t->turn);
		cJSON_AddStringToObject(j, "verdict", t->rec ? cua_verdict_name(t->rec->verdict)
		                                             : "not_run");
		cJSON *sp = cJSON_AddObjectToObject(j, "speedup");
		for (int b = 0; b < s->opts.n_baselines; b++)
			cJSON_AddItemToObject(sp, s->opts.baselines[b], num(t->speedup[b]));
		cJSON_AddItemToObject(j, "pct_sol", num(t->pct_sol));
		cJSON_AddItemToArray(ts, j);
	}
	return o;
}

/* ---- run against run ------------------------------------------------------------------ */

static const char *const change_names[CUA_CHANGE_COUNT] = {
	[CUA_CHANGE_SAME] = "SAME",
	[CUA_CHANGE_FASTER] = "FASTER",
	[CUA_CHANGE_SLOWER] = "SLOWER",
	[CUA_CHANGE_AMBIGUOUS] = "AMBIGUOUS",
	[CUA_CHANGE_BROKE] = "PASS->FAIL",
	[CUA_CHANGE_FIXED] = "FAIL->PASS",
	[CUA_CHANGE_FAILING] = "FAIL",
	[CUA_CHANGE_NEW] = "NEW",
	[CUA_CHANGE_GONE] = "GONE",
};

const char *cua_change_name(enum cua_change c)
{
	return (unsigned)c < CUA_CHANGE_COUNT ? change_names[c] : "?";
}

bool cua_change_is_regression(enum cua_change c)
{
	return c == CUA_CHANGE_SLOWER || c == CUA_CHANGE_BROKE;
}

enum cua_change cua_compare_timing(const struct cua_rec *old, const struct cua_rec *new,
                                   double threshold, double *ratio, const char **why)
{
	*ratio = NAN;
	*why = "";
	double mo = old->timed ? old->ms.median : NAN, mn = new->timed ? new->ms.median : NAN;
	if (!(mo > 0) || !(mn > 0) || !isfinite(mo) || !isfinite(mn)) {
		*why = "no timing";
		return CUA_CHANGE_AMBIGUOUS;
	}
	double q1o = isfinite(old->ms.q1) ? old->ms.q1 : mo, q3o = isfinite(old->ms.q3) ? old->ms.q3 : mo;
	double q1n = isfinite(new->ms.q1) ? new->ms.q1 : mn, q3n = isfinite(new->ms.q3) ? new->ms.q3 : mn;
	double r = mn / mo;
	*ratio = r;
	/* in cycles: time x clock, when both clocks are known */
	double rc = isfinite(old->sm_mhz) && isfinite(new->sm_mhz) && old->sm_mhz > 0 &&
	                    new->sm_mhz > 0
	                ? r * new->sm_mhz / old->sm_mhz
	                : r;
	bool enough = old->ms.n >= CUA_COMPARE_MIN_SAMPLES && new->ms.n >= CUA_COMPARE_MIN_SAMPLES;
	if ((q3n < q1o && r < 1 - threshold) || (q1n > q3o && r > 1 + threshold)) {
		bool faster = r < 1;
		if (!enough)
			*why = "too few samples to tell";
		else if (faster ? !(rc < 1 - threshold) : !(rc > 1 + threshold))
			*why = "the SM clock explains the change";
		else
			return faster ? CUA_CHANGE_FASTER : CUA_CHANGE_SLOWER;
		return CUA_CHANGE_AMBIGUOUS;
	}
	bool overlap = q1n <= q3o && q1o <= q3n;
	if (fabs(r - 1) <= threshold && overlap)
		return CUA_CHANGE_SAME;
	*why = overlap ? "the medians moved but the quartile ranges overlap"
	               : "the quartile ranges are apart but the medians moved less than the "
	                 "threshold";
	return CUA_CHANGE_AMBIGUOUS;
}

enum cua_change cua_compare_task(const struct cua_results_task *old, const struct cua_results_task *new,
                                 enum cua_pick pick, double threshold, double *ratio,
                                 const char **why)
{
	*ratio = NAN;
	*why = "";
	if (!new)
		return CUA_CHANGE_GONE;
	if (!old)
		return CUA_CHANGE_NEW;
	const struct cua_rec *o = cua_results_scored(old, "nvcc", pick);
	const struct cua_rec *n = cua_results_scored(new, "nvcc", pick);
	bool ok_o = cua_rec_correct(o), ok_n = cua_rec_correct(n);
	if (ok_o && !ok_n)
		return CUA_CHANGE_BROKE;
	if (!ok_o && ok_n)
		return CUA_CHANGE_FIXED;
	if (!ok_o)
		return CUA_CHANGE_FAILING;
	return cua_compare_timing(o, n, threshold, ratio, why);
}
