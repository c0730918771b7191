/* results.c — a run folder loaded into the structs the scorers read (results.h),
 * through the line walk of lines.c; scoring one task; text escaping for outputs. */
#include "results/results.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <cjson/cJSON.h>

/* ---- small helpers ----------------------------------------------------------- */

static void *grow(void *p, int *cap, int need, size_t elem)
{
	if (need <= *cap)
		return p;
	int ncap = *cap ? *cap * 2 : 8;
	while (ncap < need)
		ncap *= 2;
	void *np = realloc(p, (size_t)ncap * elem);
	CUA_ASSERT(np);
	memset((char *)np + (size_t)*cap * elem, 0, (size_t)(ncap - *cap) * elem);
	*cap = ncap;
	return np;
}

static void copy_str(char *dst, size_t len, const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	snprintf(dst, len, "%s", cJSON_IsString(v) ? v->valuestring : "");
}

static void add_warning(struct cua_results *run, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void add_warning(struct cua_results *run, const char *fmt, ...)
{
	char line[CUA_ERR_LEN];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	size_t old = run->warnings ? strlen(run->warnings) : 0;
	char *w = realloc(run->warnings, old + strlen(line) + 2);
	CUA_ASSERT(w);
	memcpy(w + old, line, strlen(line));
	w[old + strlen(line)] = '\n';
	w[old + strlen(line) + 1] = '\0';
	run->warnings = w;
	run->n_warnings++;
}

/* Level from an id "L<n>/...", 0 when it has no such prefix. */
static int level_of_id(const char *id)
{
	if (id[0] != 'L' || id[1] < '0' || id[1] > '9')
		return 0;
	char *end;
	long v = strtol(id + 1, &end, 10);
	return *end == '/' && v > 0 && v < 100 ? (int)v : 0;
}

static struct cua_results_task *task_get(struct cua_results *run, const char *id)
{
	for (int i = run->n_tasks - 1; i >= 0; i--)
		if (!strcmp(run->tasks[i].id, id))
			return &run->tasks[i];
	run->tasks = grow(run->tasks, &run->cap_tasks, run->n_tasks + 1, sizeof(*run->tasks));
	struct cua_results_task *t = &run->tasks[run->n_tasks++];
	memset(t, 0, sizeof(*t));
	snprintf(t->id, sizeof(t->id), "%s", id);
	t->level = level_of_id(id);
	t->flops = t->bytes = NAN;
	return t;
}

static void rec_clear(struct cua_rec *r)
{
	free(r->speedups);
	r->speedups = NULL;
	r->n_speedups = 0;
}

/* ---- per-line checks of the scorers' load ------------------------------------------ */

struct ctx {
	struct cua_results *run;
	const struct cua_results_at *at;   /* the line being read */
	struct cua_eval *scratch;
	char *err;
	size_t errlen;
};

static enum cua_status line_err(struct ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static enum cua_status line_err(struct ctx *c, const char *fmt, ...)
{
	char what[CUA_ERR_LEN];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return cua_results_line_err(c->at, c->err, c->errlen, "%s", what);
}

/* A required string field; NULL (with the error set) when absent. */
static const char *need_str(struct ctx *c, const cJSON *o, const char *key,
                            enum cua_status *st)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	if (cJSON_IsString(v) && v->valuestring[0])
		return v->valuestring;
	*st = line_err(c, "%s: expected a non-empty string", key);
	return NULL;
}

/* An optional integer field: def when absent; an error when not an integer. */
static int opt_int(struct ctx *c, const cJSON *o, const char *key, int def, int min,
                   enum cua_status *st)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!v || cJSON_IsNull(v))
		return def;
	if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) ||
	    v->valuedouble < min || v->valuedouble > 1e9) {
		*st = line_err(c, "%s: expected an integer >= %d", key, min);
		return def;
	}
	return (int)v->valuedouble;
}

/* An optional count (flops, bytes): NaN when absent; an error when not >= 0. */
static double opt_count(struct ctx *c, const cJSON *o, const char *key, enum cua_status *st)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!v)
		return NAN;
	if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0) || !isfinite(v->valuedouble)) {
		*st = line_err(c, "%s: expected a number >= 0", key);
		return NAN;
	}
	return v->valuedouble;
}

static double opt_num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* Fills rec from an evaluation object (through cua_eval_from_json, so the
 * evaluation is read by the code that writes it). */
static enum cua_status rec_from(struct ctx *c, const cJSON *line, struct cua_rec *r)
{
	char why[CUA_ERR_LEN] = "";
	const cJSON *ej = cJSON_GetObjectItemCaseSensitive(line, "eval");
	if (!cJSON_IsObject(ej))
		return line_err(c, "eval: expected an evaluation object");
	struct cua_eval *e = c->scratch;
	if (cua_eval_from_json(ej, e, why, sizeof(why)) != CUA_OK)
		return line_err(c, "eval: %s", why);
	memset(r, 0, sizeof(*r));
	r->line = c->at->line;
	snprintf(r->subject, sizeof(r->subject), "%s", e->subject);
	r->imported = e->imported;
	r->verdict = e->verdict;
	snprintf(r->message, sizeof(r->message), "%.159s", e->message);
	r->timed = e->timing.done;
	r->ms = *cua_timing_stats(&e->timing);
	if (!r->timed)
		r->ms.median = r->ms.q1 = r->ms.q3 = NAN;
	double a = e->timing.sm_mhz_before, b = e->timing.sm_mhz_after;
	r->sm_mhz = a > 0 && b > 0 ? (a + b) / 2 : a > 0 ? a : b > 0 ? b : NAN;
	r->pct_sol = isfinite(e->pct_sol) && e->pct_sol > 0 ? e->pct_sol : NAN;
	r->reward = opt_num(line, "reward");
	cua_eval_clear(e);
	return CUA_OK;
}
static enum cua_status speedups_from(struct ctx *c, const cJSON *line, struct cua_rec *r)
{
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(line, "speedup");
	if (!s || cJSON_IsNull(s))
		return CUA_OK;
	if (!cJSON_IsObject(s))
		return line_err(c, "speedup: expected an object of baseline: number");
	int n = cJSON_GetArraySize(s);
	if (n == 0)
		return CUA_OK;
	r->speedups = calloc((size_t)n, sizeof(*r->speedups));
	CUA_ASSERT(r->speedups);
	const cJSON *v;
	cJSON_ArrayForEach(v, s)
	{
		if (!cJSON_IsNumber(v) && !cJSON_IsNull(v))
			return line_err(c, "speedup.%s: expected a number or null", v->string);
		struct cua_speedup *x = &r->speedups[r->n_speedups++];
		snprintf(x->baseline, sizeof(x->baseline), "%s", v->string);
		x->x = cJSON_IsNumber(v) && v->valuedouble > 0 && isfinite(v->valuedouble)
		           ? v->valuedouble
		           : NAN;
	}
	return CUA_OK;
}

/* The level a line gives, checked against the id; 0 means "not given". */
static int line_level(struct ctx *c, const cJSON *o, enum cua_status *st)
{
	return opt_int(c, o, "level", 0, 1, st);
}

/* ---- the three .jsonl files ------------------------------------------------------ */


static enum cua_status eval_line(struct ctx *c, const cJSON *o)
{
	enum cua_status st = CUA_OK;
	const char *task = need_str(c, o, "task", &st);
	if (!task)
		return st;
	int level = line_level(c, o, &st);
	const cJSON *tj = cJSON_GetObjectItemCaseSensitive(o, "turn");
	if (!cJSON_IsNumber(tj))
		return line_err(c, "turn: expected an integer >= 1");
	int turn = opt_int(c, o, "turn", 0, 1, &st);
	if (st != CUA_OK)
		return st;
	struct cua_rec r;
	if ((st = rec_from(c, o, &r)) != CUA_OK)
		return st;
	r.turn = turn;
	if ((st = speedups_from(c, o, &r)) != CUA_OK) {
		rec_clear(&r);
		return st;
	}
	struct cua_results_task *t = task_get(c->run, task);
	if (level)
		t->level = level;
	t->evals = grow(t->evals, &t->cap_evals, t->n_evals + 1, sizeof(*t->evals));
	t->evals[t->n_evals++] = r;
	return CUA_OK;
}

static enum cua_status baseline_line(struct ctx *c, const cJSON *o)
{
	enum cua_status st = CUA_OK;
	const char *task = need_str(c, o, "task", &st);
	if (!task)
		return st;
	int level = line_level(c, o, &st);
	double flops = opt_count(c, o, "flops", &st), bytes = opt_count(c, o, "bytes", &st);
	if (st != CUA_OK)
		return st;
	struct cua_rec r;
	if ((st = rec_from(c, o, &r)) != CUA_OK)
		return st;
	struct cua_results_task *t = task_get(c->run, task);
	if (level)
		t->level = level;
	if (!isnan(flops) || !isnan(bytes)) {
		t->flops = flops;   /* the last line that records them wins */
		t->bytes = bytes;
	}
	t->baselines = grow(t->baselines, &t->cap_baselines, t->n_baselines + 1,
	                    sizeof(*t->baselines));
	t->baselines[t->n_baselines++] = r;
	return CUA_OK;
}

static enum cua_status trajectory_line(struct ctx *c, const cJSON *o)
{
	enum cua_status st = CUA_OK;
	const char *kind = need_str(c, o, "kind", &st);
	if (!kind)
		return st;
	if (strcmp(kind, "turn") && strcmp(kind, "end"))
		return CUA_OK;   /* kinds added later within schema 1 */
	const char *task = need_str(c, o, "task", &st);
	if (!task)
		return st;
	if (!strcmp(kind, "turn")) {
		const cJSON *tj = cJSON_GetObjectItemCaseSensitive(o, "turn");
		if (!cJSON_IsNumber(tj))
			return line_err(c, "turn: expected an integer >= 1");
		int turn = opt_int(c, o, "turn", 0, 1, &st);
		if (st != CUA_OK)
			return st;
		struct cua_results_task *t = task_get(c->run, task);
		t->turns = grow(t->turns, &t->cap_turns, t->n_turns + 1, sizeof(*t->turns));
		struct cua_turn_ref *x = &t->turns[t->n_turns++];
		x->turn = turn;
		x->offset = c->at->offset;
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "verdict");
		if (!cJSON_IsString(v) || !cua_verdict_parse(v->valuestring, &x->verdict))
			x->verdict = CUA_VERDICT_COUNT;
		return CUA_OK;
	}
	int best = opt_int(c, o, "best_turn", 0, 0, &st);
	int final = opt_int(c, o, "final_turn", 0, 0, &st);
	if (st != CUA_OK)
		return st;
	struct cua_results_task *t = task_get(c->run, task);
	t->ended = true;
	t->best_turn = best;
	t->final_turn = final;
	copy_str(t->end_reason, sizeof(t->end_reason), o, "reason");
	return CUA_OK;
}


/* Adapts a scorer's line function to the reader's callback. */
struct walk {
	struct ctx *c;
	enum cua_status (*fn)(struct ctx *, const cJSON *);
};

static enum cua_status walk_line(void *ctx, const cJSON *o, const struct cua_results_at *at,
                                 char *err, size_t errlen)
{
	struct walk *w = ctx;
	w->c->at = at;
	enum cua_status st = w->fn(w->c, o);
	w->c->at = NULL;
	return st;
}

/* The scorers' walk: each line through fn, every torn line left out with a
 * warning naming it and its bytes. */
static enum cua_status read_jsonl(struct ctx *c, const char *name,
                                  enum cua_status (*fn)(struct ctx *, const cJSON *))
{
	char path[CUA_PATH_BUF], say[CUA_ERR_LEN];
	struct cua_results_tears torn;
	snprintf(path, sizeof(path), "%s/%s", c->run->dir, name);
	struct walk w = {.c = c, .fn = fn};
	enum cua_status st = cua_results_each_line(path, CUA_RESULTS_SKIP_TORN, walk_line, &w,
	                                           &torn, c->err, c->errlen);
	for (int i = 0; st == CUA_OK && i < torn.n && i < CUA_RESULTS_TEARS; i++)
		add_warning(c->run, "%s", cua_results_tear_text(path, &torn.at[i], say,
		                                                sizeof(say)));
	if (st == CUA_OK && torn.n > CUA_RESULTS_TEARS)
		add_warning(c->run, "%s: %d more torn lines skipped (%ld bytes in all)", path,
		            torn.n - CUA_RESULTS_TEARS, torn.bytes);
	return st;
}

/* ---- run.json --------------------------------------------------------------------- */

static enum cua_status read_run_json(struct ctx *c)
{
	char path[CUA_PATH_BUF];
	cJSON *o = NULL;
	struct cua_results_at at = {.path = path};
	struct cua_results *run = c->run;
	enum cua_status st = cua_results_read_run_json(run->dir, &o, c->err, c->errlen);
	if (st != CUA_OK)
		return st;
	snprintf(path, sizeof(path), "%s/" CUA_RESULTS_RUN_JSON, run->dir);
	c->at = &at;
	const cJSON *agent = cJSON_GetObjectItemCaseSensitive(o, "agent");
	copy_str(run->agent, sizeof(run->agent), agent, "name");
	copy_str(run->version, sizeof(run->version), agent, "version");
	copy_str(run->run_id, sizeof(run->run_id), o, "run_id");
	if (!run->run_id[0]) {
		const char *sl = strrchr(run->dir, '/');
		snprintf(run->run_id, sizeof(run->run_id), "%.127s", sl ? sl + 1 : run->dir);
	}
	copy_str(run->created, sizeof(run->created), o, "created");
	copy_str(run->catalogue_hash, sizeof(run->catalogue_hash), o, "catalogue_hash");
	copy_str(run->nvcc, sizeof(run->nvcc), o, "nvcc");
	copy_str(run->reward, sizeof(run->reward), o, "reward");
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(o, "harness");
	copy_str(run->harness_version, sizeof(run->harness_version), h, "version");
	copy_str(run->harness_git, sizeof(run->harness_git), h, "git");
	copy_str(run->device, sizeof(run->device),
	         cJSON_GetObjectItemCaseSensitive(o, "device"), "name");
	run->turns = opt_int(c, o, "turns", 0, 0, &st);
	if (st != CUA_OK)
		goto out;
	const cJSON *tasks = cJSON_GetObjectItemCaseSensitive(o, "tasks");
	if (tasks && !cJSON_IsArray(tasks)) {
		st = line_err(c, "tasks: expected an array of task ids");
		goto out;
	}
	const cJSON *v;
	cJSON_ArrayForEach(v, tasks)
	{
		if (!cJSON_IsString(v) || !v->valuestring[0]) {
			st = line_err(c, "tasks: expected an array of task ids");
			goto out;
		}
		task_get(run, v->valuestring)->listed = true;
	}
out:
	c->at = NULL;
	cJSON_Delete(o);
	return st;
}

/* ---- load and free ------------------------------------------------------------------ */

static int cmp_task(const void *a, const void *b)
{
	return strcmp(((const struct cua_results_task *)a)->id, ((const struct cua_results_task *)b)->id);
}

enum cua_status cua_results_load(const char *dir, struct cua_results **out, char *err,
                             size_t errlen)
{
	enum cua_status st;
	struct cua_results *run = calloc(1, sizeof(*run));
	struct ctx c = {.run = run, .err = err, .errlen = errlen};

	*out = NULL;
	CUA_ASSERT(run);
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (n == 0 || n >= sizeof(run->dir)) {
		cua_errf(err, errlen, "%s: not a run folder", dir);
		free(run);
		return CUA_E_INVALID;
	}
	memcpy(run->dir, dir, n);
	run->dir[n] = '\0';
	c.scratch = malloc(sizeof(*c.scratch));
	CUA_ASSERT(c.scratch);
	if ((st = read_run_json(&c)) != CUA_OK)
		goto out;
	if ((st = read_jsonl(&c, CUA_RESULTS_BASELINES, baseline_line)) != CUA_OK)
		goto out;
	if ((st = read_jsonl(&c, CUA_RESULTS_EVALS, eval_line)) != CUA_OK)
		goto out;
	if ((st = read_jsonl(&c, CUA_RESULTS_TRAJ, trajectory_line)) != CUA_OK)
		goto out;
	if (run->n_tasks > 1)
		qsort(run->tasks, (size_t)run->n_tasks, sizeof(*run->tasks), cmp_task);
	*out = run;
	run = NULL;
out:
	free(c.scratch);
	cua_results_free(run);
	return st;
}

void cua_results_free(struct cua_results *run)
{
	if (!run)
		return;
	for (int i = 0; i < run->n_tasks; i++) {
		struct cua_results_task *t = &run->tasks[i];
		for (int k = 0; k < t->n_evals; k++)
			rec_clear(&t->evals[k]);
		for (int k = 0; k < t->n_baselines; k++)
			rec_clear(&t->baselines[k]);
		free(t->evals);
		free(t->baselines);
		free(t->turns);
	}
	free(run->tasks);
	free(run->warnings);
	free(run);
}

const struct cua_results_task *cua_results_find(const struct cua_results *run, const char *id)
{
	struct cua_results_task key;
	snprintf(key.id, sizeof(key.id), "%s", id);
	if (!run->n_tasks)
		return NULL;
	return bsearch(&key, run->tasks, (size_t)run->n_tasks, sizeof(*run->tasks), cmp_task);
}

int cua_results_levels(const struct cua_results *run, int *levels, int max)
{
	int n = 0;
	for (int i = 0; i < run->n_tasks; i++) {
		int l = run->tasks[i].level, k = 0;
		while (k < n && levels[k] < l)
			k++;
		if ((k < n && levels[k] == l) || n == max)
			continue;
		memmove(levels + k + 1, levels + k, (size_t)(n - k) * sizeof(*levels));
		levels[k] = l;
		n++;
	}
	return n;
}

/* ---- scoring one task --------------------------------------------------------------- */

bool cua_rec_correct(const struct cua_rec *r)
{
	return r && r->verdict == CUA_VERDICT_OK;
}

double cua_rec_speedup(const struct cua_rec *r, const char *baseline)
{
	if (!cua_rec_correct(r))
		return NAN;
	if (!strcmp(baseline, CUA_BASELINE_LIBRARY)) {
		double best = NAN;
		bool any = false;
		for (int i = 0; i < r->n_speedups; i++) {
			if (!strchr(r->speedups[i].baseline, '/'))
				continue;
			any = true;
			double x = r->speedups[i].x;
			if (isfinite(x) && !(best <= x))
				best = x;   /* the fastest library = the smallest ratio */
		}
		return any ? best : cua_rec_speedup(r, "nvcc");
	}
	for (int i = 0; i < r->n_speedups; i++)
		if (!strcmp(r->speedups[i].baseline, baseline))
			return r->speedups[i].x;
	return NAN;
}

const struct cua_rec *cua_results_scored(const struct cua_results_task *t, const char *primary,
                                      enum cua_pick pick)
{
	const struct cua_rec *best = NULL;
	double best_x = NAN;

	for (int i = 0; i < t->n_evals; i++) {
		const struct cua_rec *r = &t->evals[i];
		if (pick == CUA_PICK_FINAL) {
			if (!best || r->turn >= best->turn)
				best = r;
			continue;
		}
		if (!cua_rec_correct(r))
			continue;
		double x = cua_rec_speedup(r, primary);
		bool better;
		if (!best)
			better = true;
		else if (isnan(x))
			better = false;
		else if (isnan(best_x))
			better = true;
		else
			better = x > best_x || (x == best_x && r->turn < best->turn);
		if (better) {
			best = r;
			best_x = x;
		}
	}
	return best;
}

const struct cua_rec *cua_results_baseline(const struct cua_results_task *t, const char *subject)
{
	const struct cua_rec *found = NULL;
	for (int i = 0; i < t->n_baselines; i++)
		if (!strcmp(t->baselines[i].subject, subject))
			found = &t->baselines[i];   /* the last line wins (a resumed run) */
	return found;
}

char *cua_results_code(const struct cua_results *run, const struct cua_results_task *t, int turn)
{
	const struct cua_turn_ref *ref = NULL;
	char path[CUA_PATH_BUF];
	for (int i = 0; i < t->n_turns; i++)
		if (t->turns[i].turn == turn)
			ref = &t->turns[i];
	if (!ref)
		return NULL;
	snprintf(path, sizeof(path), "%s/" CUA_RESULTS_TRAJ, run->dir);
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL, *code = NULL;
	size_t cap = 0;
	ssize_t n;
	if (fseek(f, ref->offset, SEEK_SET) == 0 && (n = getline(&buf, &cap, f)) > 0) {
		cJSON *o = cJSON_ParseWithLength(buf, (size_t)n);
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "code");
		if (cJSON_IsString(v))
			code = strdup(v->valuestring);
		cJSON_Delete(o);
	}
	free(buf);
	fclose(f);
	return code;
}

struct cua_results **cua_results_load_many(char *const *dirs, int n, const char *who, FILE *warn,
                               char *err, size_t errlen)
{
	struct cua_results **runs = calloc((size_t)n + 1, sizeof(*runs));
	CUA_ASSERT(runs);
	for (int i = 0; i < n; i++) {
		if (cua_results_load(dirs[i], &runs[i], err, errlen) != CUA_OK) {
			cua_results_free_many(runs, i);
			return NULL;
		}
		if (warn && runs[i]->warnings) {
			const char *p = runs[i]->warnings;
			while (*p) {
				const char *nl = strchr(p, '\n');
				int len = nl ? (int)(nl - p) : (int)strlen(p);
				fprintf(warn, "%s: warning: %.*s\n", who, len, p);
				p += len + (nl != NULL);
			}
		}
	}
	return runs;
}

void cua_results_free_many(struct cua_results **runs, int n)
{
	if (!runs)
		return;
	for (int i = 0; i < n; i++)
		cua_results_free(runs[i]);
	free(runs);
}

const char *cua_results_label(const struct cua_results *run, char *buf, size_t len)
{
	if (run->version[0])
		snprintf(buf, len, "%s %s", run->agent, run->version);
	else
		snprintf(buf, len, "%s", run->agent);
	return buf;
}

/* ---- escaping ----------------------------------------------------------------------- */

void cua_fput_esc(FILE *f, const char *s, enum cua_escape how)
{
	if (!s)
		return;
	if (how == CUA_ESC_CSV) {
		if (!strpbrk(s, ",\"\n\r")) {
			fputs(s, f);
			return;
		}
		fputc('"', f);
		for (const char *p = s; *p; p++) {
			if (*p == '"')
				fputc('"', f);
			fputc(*p, f);
		}
		fputc('"', f);
		return;
	}
	for (const char *p = s; *p; p++) {
		char ch = *p;
		switch (how) {
		case CUA_ESC_MD:
			if (ch == '|')
				fputs("\\|", f);
			else if (ch == '\n' || ch == '\r')
				fputc(' ', f);
			else
				fputc(ch, f);
			break;
		case CUA_ESC_LATEX:
			if (ch == '\\')
				fputs("\\textbackslash{}", f);
			else if (ch == '~')
				fputs("\\textasciitilde{}", f);
			else if (ch == '^')
				fputs("\\textasciicircum{}", f);
			else if (strchr("{}$&#_%", ch)) {
				fputc('\\', f);
				fputc(ch, f);
			} else
				fputc(ch, f);
			break;
		case CUA_ESC_HTML:
			if (ch == '&')
				fputs("&amp;", f);
			else if (ch == '<')
				fputs("&lt;", f);
			else if (ch == '>')
				fputs("&gt;", f);
			else if (ch == '"')
				fputs("&quot;", f);
			else if (ch == '\'')
				fputs("&#39;", f);
			else
				fputc(ch, f);
			break;
		case CUA_ESC_GNUPLOT:
			if (ch == '"' || ch == '\\')
				fputc('\\', f);
			if (ch == '\n' || ch == '\r')
				ch = ' ';
			fputc(ch, f);
			break;
		default:
			fputc(ch, f);
		}
	}
}
