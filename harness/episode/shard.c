/* shard.c — the split of a run's tasks into shards balanced by expected cost
 * (shard.h; the rule and its fit: docs/SCALE-OUT.md "How tasks are split"). */
#include "episode/shard.h"
#include "results/results.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>

bool cua_shard_parse(const char *s, int *index, int *count)
{
	char *end;
	if (!s || !*s || *s == '-' || *s == '+')
		return false;
	long i = strtol(s, &end, 10);
	if (end == s || *end != '/' || end[1] == '-' || end[1] == '+' || !end[1])
		return false;
	const char *q = end + 1;
	long n = strtol(q, &end, 10);
	if (end == q || *end || n < 1 || n > CUA_SHARD_MAX || i < 0 || i >= n)
		return false;
	*index = (int)i;
	*count = (int)n;
	return true;
}

/* Elements of every input and output at the timed shape, and its flops. */
static void timed_size(const struct cua_task *t, double *elems, double *flops)
{
	int s = cua_task_timed_shape(t);
	int64_t dims[CUA_MAX_DIMS], f = 0;
	*elems = 0;
	for (int k = 0; k < t->n_inputs + t->n_outputs; k++) {
		const struct cua_tensor_spec *sp =
			k < t->n_inputs ? &t->inputs[k] : &t->outputs[k - t->n_inputs];
		if (cua_task_tensor_shape(t, s, sp, dims, NULL, 0) != CUA_OK)
			continue;
		double e = 1;
		for (int d = 0; d < sp->ndim; d++)
			e *= (double)dims[d];
		*elems += e;
	}
	*flops = t->flops && cua_task_eval(t, s, t->flops, &f, NULL, 0) == CUA_OK && f > 0
	             ? (double)f : 0;
}

/* Fitted by least squares to the nvcc baselines of the 100 Level 1 tasks in
 * examples/runs/2026-11-29-h200-replay (seconds.run per measurement: the fp64 oracle
 * check on the CPU and the timing of the timed shape dominate). A weak fit
 * (r = 0.51: an elementary function's oracle costs more than an add, which no
 * field says); measured costs (--costs RUN) are what balances shards well. */
#define MODEL_BASE_S      0.78
#define MODEL_S_PER_GELEM 4.0
#define MODEL_S_PER_GFLOP 0.021
#define MODEL_FLOOR_S     0.2

double cua_shard_model_s(const struct cua_task *t)
{
	double elems, flops;
	timed_size(t, &elems, &flops);
	double s = MODEL_BASE_S + MODEL_S_PER_GELEM * elems / 1e9 +
	           MODEL_S_PER_GFLOP * flops / 1e9;
	return isfinite(s) && s > MODEL_FLOOR_S ? s : MODEL_FLOOR_S;
}

static int task_of(const struct cua_task *const *tasks, int n, const char *id)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(tasks[i]->id, id))
			return i;
	return -1;
}

/* What a walk of the costs run's baselines.jsonl fills. */
struct measuring {
	const struct cua_task *const *tasks;
	int n;
	double *unit_s;
};

static enum cua_status measured_line(void *ctx, const cJSON *j,
                                     const struct cua_results_at *at, char *err,
                                     size_t errlen)
{
	struct measuring *m = ctx;
	const cJSON *task = cJSON_GetObjectItemCaseSensitive(j, "task");
	const cJSON *ev = cJSON_GetObjectItemCaseSensitive(j, "eval");
	const cJSON *subj = cJSON_GetObjectItemCaseSensitive(ev, "subject");
	const cJSON *secs = cJSON_GetObjectItemCaseSensitive(ev, "seconds");
	const cJSON *run = cJSON_GetObjectItemCaseSensitive(secs, "run");
	int i = cJSON_IsString(task) ? task_of(m->tasks, m->n, task->valuestring) : -1;
	if (i >= 0 && cJSON_IsString(subj) && !strcmp(subj->valuestring, "nvcc") &&
	    cJSON_IsNumber(run) && run->valuedouble > 0 && run->valuedouble < 1e6)
		m->unit_s[i] = run->valuedouble;   /* the last line of a task wins */
	return CUA_OK;
}

enum cua_status cua_shard_measured(const char *run_dir, const struct cua_task *const *tasks,
                                   int n, double *unit_s, char *err, size_t errlen)
{
	char path[CUA_PATH_BUF];
	struct measuring m = {tasks, n, unit_s};
	for (int i = 0; i < n; i++)
		unit_s[i] = 0;
	snprintf(path, sizeof(path), "%s/" CUA_RESULTS_BASELINES, run_dir);
	if (access(path, F_OK) != 0) {
		cua_errf(err, errlen, "--costs %s: no %s (not a run folder)", run_dir, path);
		return CUA_E_NOT_FOUND;
	}
	/* through the results reader: a torn last line (a killed run) is skipped */
	return cua_results_each_line(path, CUA_RESULTS_SKIP_TORN, measured_line, &m, NULL, err,
	                             errlen);
}

void cua_shard_costs(const struct cua_task *const *tasks, int n, const double *measured,
                     int turns, double *cost, enum cua_cost_source *src)
{
	for (int i = 0; i < n; i++) {
		bool m = measured && measured[i] > 0;
		double unit = m ? measured[i] : cua_shard_model_s(tasks[i]);
		/* the nvcc reference, each library baseline, and at most one
		 * measurement per turn (a candidate that fails early costs less) */
		cost[i] = unit * (1 + tasks[i]->n_baselines + turns);
		if (src)
			src[i] = m ? CUA_COST_MEASURED : CUA_COST_MODEL;
	}
}

struct ranked {
	long long ms;
	int i;
};

static int by_cost_desc(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	if (x->ms != y->ms)
		return x->ms > y->ms ? -1 : 1;
	return x->i - y->i;
}

void cua_shard_partition(const double *cost, int n, int count, int *shard_of)
{
	/* whole milliseconds: integer sums, so no rounding can differ anywhere */
	struct ranked *r = calloc((size_t)n + 1, sizeof(*r));
	long long *load = calloc((size_t)count, sizeof(*load));
	CUA_ASSERT(r && load);
	for (int i = 0; i < n; i++) {
		double c = cost[i] > 0 && isfinite(cost[i]) ? cost[i] : 0;
		r[i].ms = c > 1e12 ? (long long)1e15 : llround(c * 1000);
		r[i].i = i;
	}
	qsort(r, (size_t)n, sizeof(*r), by_cost_desc);
	for (int k = 0; k < n; k++) {
		int best = 0;
		for (int s = 1; s < count; s++)
			if (load[s] < load[best])
				best = s;
		shard_of[r[k].i] = best;
		load[best] += r[k].ms;
	}
	free(r);
	free(load);
}

/* SHA-256 of a file's bytes into hex[65]; "" when it cannot be read. */
static void file_sha(const char *path, char hex[65])
{
	char *buf = NULL;
	size_t len = 0;
	hex[0] = '\0';
	if (cua_read_file(path, (size_t)1 << 30, &buf, &len, NULL, 0) == CUA_OK)
		cua_sha256_hex(buf, len, hex);
	free(buf);
}

enum cua_status cua_shard_apply(const struct cua_task **tasks, int *n, int index, int count,
                                const char *costs_dir, int turns, cJSON **block,
                                char *err, size_t errlen)
{
	int total = *n;
	*block = NULL;
	if (count > total) {
		cua_errf(err, errlen, "--shard %d/%d: %d task%s selected, fewer than the shards "
		         "(give at most %d)", index, count, total, total == 1 ? "" : "s", total);
		return CUA_E_USAGE;
	}
	double *measured = calloc((size_t)total, sizeof(double));
	double *cost = calloc((size_t)total, sizeof(double));
	int *shard_of = calloc((size_t)total, sizeof(int));
	double *expect = calloc((size_t)count, sizeof(double));
	CUA_ASSERT(measured && cost && shard_of && expect);
	enum cua_status st = CUA_OK;
	if (costs_dir &&
	    (st = cua_shard_measured(costs_dir, tasks, total, measured, err, errlen)) != CUA_OK)
		goto out;
	int n_measured = 0;
	for (int i = 0; i < total; i++)
		n_measured += measured[i] > 0;
	cua_shard_costs(tasks, total, costs_dir ? measured : NULL, turns, cost, NULL);
	cua_shard_partition(cost, total, count, shard_of);

	cJSON *b = cJSON_CreateObject();
	cJSON_AddNumberToObject(b, "index", index);
	cJSON_AddNumberToObject(b, "count", count);
	cJSON *sel = cJSON_AddArrayToObject(b, "selected");
	for (int i = 0; i < total; i++)
		cJSON_AddItemToArray(sel, cJSON_CreateString(tasks[i]->id));
	cJSON *c = cJSON_AddObjectToObject(b, "costs");
	if (costs_dir) {
		char path[CUA_PATH_BUF], hex[65];
		snprintf(path, sizeof(path), "%s/" CUA_RESULTS_BASELINES, costs_dir);
		file_sha(path, hex);
		cJSON_AddStringToObject(c, "run", costs_dir);
		cJSON_AddStringToObject(c, "baselines_sha256", hex);
	}
	cJSON_AddNumberToObject(c, "measured", n_measured);
	cJSON_AddNumberToObject(c, "model", total - n_measured);
	for (int i = 0; i < total; i++)
		expect[shard_of[i]] += cost[i];
	cJSON *e = cJSON_AddArrayToObject(b, "expected_s");
	for (int s = 0; s < count; s++)
		cJSON_AddItemToArray(e, cJSON_CreateNumber(round(expect[s] * 10) / 10));
	*block = b;
	int k = 0;
	for (int i = 0; i < total; i++)
		if (shard_of[i] == index)
			tasks[k++] = tasks[i];
	*n = k;
out:
	free(measured);
	free(cost);
	free(shard_of);
	free(expect);
	return st;
}
