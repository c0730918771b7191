/* prior.c — what a run folder already holds (prior.h), read through the one line
 * walk: its tasks' evaluations, turns and ends, each device's current baselines,
 * server-side episodes, and what the walk left out. */
#include "results/prior.h"

#include <math.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>

_Static_assert(CUA_PRIOR_TURNS <= 64, "candidates is a 64-bit set of turns");

static const char *jstr(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

void cua_prior_run_decode(const cJSON *run, struct cua_prior_run *out)
{
	memset(out, 0, sizeof(*out));
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(run, "agent");
	out->agent = jstr(a, "name");
	out->agent_version = jstr(a, "version");
	out->agent_config = cJSON_GetObjectItemCaseSensitive(a, "config");
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(run, "turns");
	out->turns = cJSON_IsNumber(t) ? t->valuedouble : NAN;
	out->reward = jstr(run, "reward");
	const cJSON *tasks = cJSON_GetObjectItemCaseSensitive(run, "tasks"), *x;
	out->n_tasks = -1;
	if (cJSON_IsArray(tasks)) {
		out->tasks = cua_xcalloc((size_t)cJSON_GetArraySize(tasks) + 1, sizeof(char *));
		out->n_tasks = 0;
		cJSON_ArrayForEach(x, tasks)
			out->tasks[out->n_tasks++] = cJSON_IsString(x) ? x->valuestring : NULL;
	}
	cua_device_from_json(cJSON_GetObjectItemCaseSensitive(run, "device"), &out->device);
	const cJSON *mt = cJSON_GetObjectItemCaseSensitive(run, "max_time_s");
	out->max_time_s = cJSON_IsNumber(mt) && mt->valuedouble > 0 ? mt->valuedouble : 0;
	const cJSON *sh = cJSON_GetObjectItemCaseSensitive(run, "shard");
	const cJSON *i = cJSON_GetObjectItemCaseSensitive(sh, "index");
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(sh, "count");
	const cJSON *sel = cJSON_GetObjectItemCaseSensitive(sh, "selected");
	out->shard = sh != NULL;
	out->shard_valid = sh && cJSON_IsNumber(i) && cJSON_IsNumber(c) && cJSON_IsArray(sel) &&
	                   c->valuedouble >= 1 && c->valuedouble <= 65536 &&
	                   i->valuedouble >= 0 && i->valuedouble < c->valuedouble &&
	                   i->valuedouble == (int)i->valuedouble;
	out->shard_index = out->shard_valid ? (int)i->valuedouble : -1;
	out->shard_count = out->shard_valid ? (int)c->valuedouble : -1;
	out->shard_selected = out->shard_valid ? sel : NULL;
	out->merged = cJSON_GetObjectItemCaseSensitive(run, "merged") != NULL;
}

void cua_prior_run_clear(struct cua_prior_run *m)
{
	free(m->tasks);
	memset(m, 0, sizeof(*m));
}

struct loading {
	struct cua_prior *p;
	const struct cua_prior_want *want;
	enum cua_results_file f;
};

static bool wanted(const struct loading *l, const char *id)
{
	if (!l->want || !l->want->tasks)
		return true;
	for (int i = 0; i < l->want->n_tasks; i++)
		if (!strcmp(l->want->tasks[i], id))
			return true;
	return false;
}

static struct cua_prior_task *task_add(struct cua_prior *p, const char *id)
{
	struct cua_prior_task *t = cua_prior_task(p, id);
	if (t)
		return t;
	if (p->n_tasks == p->cap_tasks) {
		p->cap_tasks = p->cap_tasks ? 2 * p->cap_tasks : 16;
		p->tasks = cua_xrealloc(p->tasks, (size_t)p->cap_tasks * sizeof(*p->tasks));
	}
	t = &p->tasks[p->n_tasks++];
	memset(t, 0, sizeof(*t));
	snprintf(t->id, sizeof(t->id), "%s", id);
	return t;
}

struct cua_prior_task *cua_prior_task(struct cua_prior *p, const char *id)
{
	for (int i = 0; i < p->n_tasks; i++)
		if (!strcmp(p->tasks[i].id, id))
			return &p->tasks[i];
	return NULL;
}

struct cua_prior_base *cua_prior_base(struct cua_prior *p, const char *task, const char *gpu)
{
	for (int i = 0; i < p->n_bases; i++)
		if (!strcmp(p->bases[i].task, task) && !strcmp(p->bases[i].gpu, gpu ? gpu : ""))
			return &p->bases[i];
	return NULL;
}

/* The line's task, when it is one to read: NULL with *st CUA_OK for a task not
 * wanted (the first such line named), NULL with *st set when it names none. */
static struct cua_prior_task *line_task(struct loading *l, const cJSON *j,
                                        const struct cua_results_at *at,
                                        enum cua_status *st, char *err, size_t errlen)
{
	const char *id = jstr(j, "task");
	*st = CUA_OK;
	if (!id || !id[0] || strlen(id) >= sizeof(l->p->tasks[0].id)) {
		*st = cua_results_line_err(at, err, errlen, "task: expected a task id");
		return NULL;
	}
	if (!wanted(l, id)) {
		if (!l->p->foreign_line) {
			l->p->foreign_file = cua_results_file_names[l->f];
			l->p->foreign_line = at->line;
			snprintf(l->p->foreign_task, sizeof(l->p->foreign_task), "%s", id);
		}
		return NULL;
	}
	return task_add(l->p, id);
}

/* An integer field in [min, max] into *v (def when absent and !required). */
static enum cua_status line_int(const cJSON *j, const char *key, bool required, int def,
                                int min, int max, int *v, const struct cua_results_at *at,
                                char *err, size_t errlen)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(j, key);
	*v = def;
	if (!x && !required)
		return CUA_OK;
	if (!cJSON_IsNumber(x) || x->valuedouble != floor(x->valuedouble) ||
	    x->valuedouble < min || x->valuedouble > max)
		return cua_results_line_err(at, err, errlen, "%s: expected an integer %d to %d",
		                            key, min, max);
	*v = (int)x->valuedouble;
	return CUA_OK;
}

static void keep_line(struct loading *l, const struct cua_results_at *at)
{
	if (l->want && l->want->lines)
		cua_buf_printf(&l->p->text[l->f], "%.*s\n", (int)at->len, at->text);
}

static struct cua_prior_episode *episode_find(struct cua_prior *p, const char *id)
{
	for (int i = 0; id && i < p->n_episodes; i++)
		if (!strcmp(p->episodes[i].id, id))
			return &p->episodes[i];
	return NULL;
}

/* A reply without code is a turn, not a candidate: episode.c's cua_step_no_code,
 * read from the line (runs before the no_code verdict said compile_error "no
 * code: ..."). */
static bool no_code(const cJSON *eval)
{
	const char *v = jstr(eval, "verdict"), *m = jstr(eval, "message");
	return v && (!strcmp(v, "no_code") ||
	             (!strcmp(v, "compile_error") && m && !strncmp(m, "no code: ", 9)));
}

static enum cua_status eval_line(void *ctx, const cJSON *j, const struct cua_results_at *at,
                                 char *err, size_t errlen)
{
	struct loading *l = ctx;
	enum cua_status st;
	int turn;
	struct cua_prior_task *t = line_task(l, j, at, &st, err, errlen);
	if (!t)
		return st;
	if ((st = line_int(j, "turn", true, 0, 1, CUA_PRIOR_TURNS, &turn, at, err, errlen)))
		return st;
	l->p->eval_lines++;
	keep_line(l, at);
	bool candidate = !no_code(cJSON_GetObjectItemCaseSensitive(j, "eval"));
	l->p->candidate_lines += candidate;
	if (candidate && !(t->candidates & (1ull << (turn - 1)))) {
		t->candidates |= 1ull << (turn - 1);   /* a turn written twice counts once */
		l->p->evaluations++;
	}
	const char *ep = jstr(j, "episode"), *req = jstr(j, "request");
	if (!l->want || !l->want->evals)
		return CUA_OK;
	if (l->want->episode_steps) {
		/* an episode's lines come before its steps' (trajectories.jsonl is read
		 * first): the steps of ended episodes are not kept */
		const struct cua_prior_episode *e = req && !strcmp(req, "step")
		                                    ? episode_find(l->p, ep) : NULL;
		if (!e || e->ended)
			return CUA_OK;
	}
	if (t->n_evals == t->cap_evals) {
		t->cap_evals = t->cap_evals ? 2 * t->cap_evals : 8;
		t->evals = cua_xrealloc(t->evals, (size_t)t->cap_evals * sizeof(*t->evals));
	}
	struct cua_prior_eval *e = &t->evals[t->n_evals++];
	memset(e, 0, sizeof(*e));
	e->line = at->line;
	e->turn = turn;
	snprintf(e->episode, sizeof(e->episode), "%s", ep ? ep : "");
	e->json = cJSON_Duplicate(j, true);
	CUA_ASSERT(e->json);
	return CUA_OK;
}

static void keep_text(char **slot, const cJSON *v)
{
	if (!cJSON_IsString(v) || !v->valuestring[0])
		return;
	free(*slot);
	*slot = cua_xstrdup(v->valuestring);
}


static enum cua_status episode_line(struct loading *l, const cJSON *j,
                                    const struct cua_results_at *at, char *err, size_t errlen)
{
	struct cua_prior *p = l->p;
	const char *id = jstr(j, "episode"), *reward = jstr(j, "reward"), *gpu = jstr(j, "gpu");
	int turns;
	enum cua_status st;
	if (!id || !id[0] || strlen(id) >= sizeof(p->episodes[0].id))
		return cua_results_line_err(at, err, errlen, "episode: expected an id of 1 to %zu "
		                            "bytes", sizeof(p->episodes[0].id) - 1);
	if (!reward || strlen(reward) >= sizeof(p->episodes[0].reward))
		return cua_results_line_err(at, err, errlen, "reward: expected a schedule's name");
	if ((st = line_int(j, "turns", true, 0, 1, CUA_PRIOR_TURNS, &turns, at, err, errlen)))
		return st;
	if (episode_find(p, id))
		return CUA_OK;   /* the first line of an episode is the one */
	if (p->n_episodes == p->cap_episodes) {
		p->cap_episodes = p->cap_episodes ? 2 * p->cap_episodes : 16;
		p->episodes = cua_xrealloc(p->episodes, (size_t)p->cap_episodes * sizeof(*p->episodes));
	}
	struct cua_prior_episode *e = &p->episodes[p->n_episodes++];
	memset(e, 0, sizeof(*e));
	snprintf(e->id, sizeof(e->id), "%s", id);
	snprintf(e->task, sizeof(e->task), "%s", jstr(j, "task"));
	snprintf(e->gpu, sizeof(e->gpu), "%s", gpu ? gpu : "");
	snprintf(e->reward, sizeof(e->reward), "%s", reward);
	e->turns = turns;
	e->line = at->line;
	return CUA_OK;
}

static enum cua_status traj_line(void *ctx, const cJSON *j, const struct cua_results_at *at,
                                 char *err, size_t errlen)
{
	struct loading *l = ctx;
	const char *kind = jstr(j, "kind");
	enum cua_status st;
	int k;
	if (!kind || !kind[0])
		return cua_results_line_err(at, err, errlen, "kind: expected a non-empty string");
	bool turn = !strcmp(kind, "turn"), end = !strcmp(kind, "end");
	if (!turn && !end && strcmp(kind, "episode")) {
		keep_line(l, at);
		return CUA_OK;   /* kinds added later */
	}
	struct cua_prior_task *t = line_task(l, j, at, &st, err, errlen);
	if (!t)
		return st;
	keep_line(l, at);
	if (turn) {
		if ((st = line_int(j, "turn", true, 0, 1, CUA_PRIOR_TURNS, &k, at, err, errlen)))
			return st;
		t->have_turn[k] = true;
		if (l->want && l->want->texts) {
			/* the last line of a turn wins, as for every results line */
			keep_text(&t->shown[k], cJSON_GetObjectItemCaseSensitive(j, "observation"));
			keep_text(&t->reply[k], cJSON_GetObjectItemCaseSensitive(j, "reply"));
		}
		return CUA_OK;
	}
	if (!end)
		return episode_line(l, j, at, err, errlen);
	if ((st = line_int(j, "best_turn", false, 0, 0, CUA_PRIOR_TURNS, &k, at, err, errlen)))
		return st;
	const char *reason = jstr(j, "reason");
	struct cua_prior_episode *e = episode_find(l->p, jstr(j, "episode"));
	if (e)
		e->ended = true;
	t->ended = !(reason && !strcmp(reason, "interrupted"));
	t->best_turn = k;
	return CUA_OK;
}

static enum cua_status base_line(void *ctx, const cJSON *j, const struct cua_results_at *at,
                                 char *err, size_t errlen)
{
	struct loading *l = ctx;
	struct cua_prior *p = l->p;
	char why[CUA_ERR_LEN];
	enum cua_status st;
	struct cua_prior_task *t = line_task(l, j, at, &st, err, errlen);
	if (!t)
		return st;
	const char *gpu = jstr(j, "gpu");
	if (gpu && strlen(gpu) >= sizeof(p->bases[0].gpu))
		return cua_results_line_err(at, err, errlen, "gpu: longer than %zu bytes",
		                            sizeof(p->bases[0].gpu) - 1);
	struct cua_eval e;
	if (cua_eval_from_json(cJSON_GetObjectItemCaseSensitive(j, "eval"), &e, why,
	                       sizeof(why)) != CUA_OK) {
		cua_eval_clear(&e);
		return cua_results_line_err(at, err, errlen, "eval: %s", why);
	}
	keep_line(l, at);
	struct cua_prior_base *b = cua_prior_base(p, t->id, gpu);
	if (!b) {
		if (p->n_bases == p->cap_bases) {
			p->cap_bases = p->cap_bases ? 2 * p->cap_bases : 16;
			p->bases = cua_xrealloc(p->bases, (size_t)p->cap_bases * sizeof(*p->bases));
		}
		b = &p->bases[p->n_bases++];
		memset(b, 0, sizeof(*b));
		snprintf(b->task, sizeof(b->task), "%s", t->id);
		snprintf(b->gpu, sizeof(b->gpu), "%s", gpu ? gpu : "");
		b->line = at->line;
	}
	struct cua_report *r = &b->rep;
	if (cua_report_find(r, e.subject) >= 0 || r->n_base == (int)CUA_ARRAY_LEN(r->base)) {
		/* measured again (a remeasure, or a resume after a cut set): a new set */
		cua_report_clear(r);
		memset(r, 0, sizeof(*r));
	}
	r->base[r->n_base++] = e;
	return CUA_OK;
}

enum cua_status cua_prior_load(const char *dir, const struct cua_prior_want *want,
                               struct cua_prior **out, char *err, size_t errlen)
{
	static const struct {
		enum cua_results_file f;
		cua_results_line_fn fn;
	} walk[] = {
		/* episodes (trajectories) before their steps (evals) */
		{CUA_RESULTS_F_BASELINES, base_line},
		{CUA_RESULTS_F_TRAJ, traj_line},
		{CUA_RESULTS_F_EVALS, eval_line},
	};
	char path[CUA_PATH_BUF];
	struct cua_prior *p = cua_xcalloc(1, sizeof(*p));
	struct loading l = {.p = p, .want = want};
	enum cua_status st = cua_pathf(p->dir, sizeof(p->dir), err, errlen, "%s", dir);
	*out = NULL;
	if (st != CUA_OK)
		goto fail;
	snprintf(path, sizeof(path), "%s/" CUA_RESULTS_RUN_JSON, dir);
	if (access(path, F_OK) == 0 &&
	    (st = cua_results_read_run_json(dir, &p->run, err, errlen)) != CUA_OK)
		goto fail;
	for (int i = 0; want && want->tasks && i < want->n_tasks; i++)
		task_add(p, want->tasks[i]);
	cua_prior_run_decode(p->run, &p->meta);
	for (int i = 0; i < p->meta.n_tasks; i++) {
		const char *id = p->meta.tasks[i];
		if (id && id[0] && strlen(id) < sizeof(p->tasks[0].id) && wanted(&l, id))
			task_add(p, id)->listed = true;
	}
	for (size_t w = 0; w < CUA_ARRAY_LEN(walk); w++) {
		l.f = walk[w].f;
		snprintf(path, sizeof(path), "%s/%s", dir, cua_results_file_names[l.f]);
		st = cua_results_each_line(path, CUA_RESULTS_SKIP_TORN, walk[w].fn, &l,
		                           &p->tears[l.f], err, errlen);
		if (st != CUA_OK)
			goto fail;
	}
	for (int i = 0; i < p->n_episodes; i++)
		p->episodes_open += !p->episodes[i].ended;
	*out = p;
	return CUA_OK;
fail:
	cua_prior_free(p);
	return st;
}

void cua_prior_free(struct cua_prior *p)
{
	if (!p)
		return;
	for (int i = 0; i < p->n_tasks; i++) {
		struct cua_prior_task *t = &p->tasks[i];
		for (int k = 0; k < t->n_evals; k++)
			cJSON_Delete(t->evals[k].json);
		free(t->evals);
		for (int k = 0; k <= CUA_PRIOR_TURNS; k++) {
			free(t->shown[k]);
			free(t->reply[k]);
		}
	}
	free(p->tasks);
	for (int i = 0; i < p->n_bases; i++)
		cua_report_clear(&p->bases[i].rep);
	free(p->bases);
	free(p->episodes);
	for (int f = 0; f < CUA_RESULTS_N_FILES; f++)
		free(p->text[f].s);
	cua_prior_run_clear(&p->meta);
	cJSON_Delete(p->run);
	free(p);
}

void cua_prior_say(const struct cua_prior *p, const long *cut, struct cua_buf *out)
{
	cua_buf_printf(out, "%d evaluation line%s (%d of candidates)", p->eval_lines,
	               p->eval_lines == 1 ? "" : "s", p->candidate_lines);
	if (p->n_episodes) {
		cua_buf_printf(out, ", %d episode%s open and %d closed", p->episodes_open,
		               p->episodes_open == 1 ? "" : "s", p->n_episodes - p->episodes_open);
	} else {
		int ended = 0;
		for (int i = 0; i < p->n_tasks; i++)
			ended += p->tasks[i].ended;
		cua_buf_printf(out, ", %d task%s ended and %d open", ended, ended == 1 ? "" : "s",
		               p->n_tasks - ended);
	}
	for (int f = 0; f < CUA_RESULTS_N_FILES; f++) {
		const char *name = cua_results_file_names[f];
		if (cut && cut[f] > 0)
			cua_buf_printf(out, "; cut the torn last line of %s (%ld bytes)", name, cut[f]);
		const struct cua_results_tears *t = &p->tears[f];
		for (int i = 0; i < t->n && i < CUA_RESULTS_TEARS; i++)
			cua_buf_printf(out, "; %s %s line %d (%ld bytes%s)",
			               t->at[i].tail ? "skipped the torn last line of" : "skipped",
			               name, t->at[i].line, t->at[i].bytes,
			               t->at[i].glued ? " torn by a failed write; the line glued after "
			                                "them is read" : t->at[i].tail ? ""
			                                : " torn by a failed write");
		if (t->n > CUA_RESULTS_TEARS)
			cua_buf_printf(out, "; %d more torn lines of %s (%ld bytes in all)",
			               t->n - CUA_RESULTS_TEARS, name, t->bytes);
	}
}

/* Adds one segment of run.json to *out; refuses one without its times. */
static enum cua_status add_segment(const cJSON *g, bool summary, const char *dir,
                                   struct cua_prior_segments *out, char *err, size_t errlen)
{
	const cJSON *w = cJSON_GetObjectItemCaseSensitive(g, "wall_s");
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(g, "gpu_busy_s");
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(g, "gpus");
	if (!cJSON_IsNumber(w) || !cJSON_IsNumber(b) || !(w->valuedouble >= 0) ||
	    !(b->valuedouble >= 0) || (n && !(cJSON_IsNumber(n) && n->valuedouble >= 1))) {
		cua_errf(err, errlen, "%s/" CUA_RESULTS_RUN_JSON ": segments[%d]: wall_s and "
		         "gpu_busy_s must be numbers >= 0 (gpus >= 1)", dir, out->n);
		return CUA_E_PARSE;
	}
	out->wall_s += w->valuedouble;
	out->gpu_busy_s += b->valuedouble;
	out->gpu_s += w->valuedouble * (n ? n->valuedouble : 1);
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(g, "candidate_gpu_s");
	/* a segment from before it was kept; a summary from before segments (its
	 * candidate_gpu_s, when it has one, is of every invocation before) */
	if (cJSON_IsNumber(c) && c->valuedouble >= 0 && !summary)
		out->candidate_gpu_s += c->valuedouble;
	else
		out->cand_known = false;
	out->n++;
	return CUA_OK;
}

enum cua_status cua_prior_segments(const cJSON *run, const char *dir,
                                   struct cua_prior_segments *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	out->cand_known = true;
	const cJSON *segs = cJSON_GetObjectItemCaseSensitive(run, "segments");
	const cJSON *old = cJSON_GetObjectItemCaseSensitive(run, "summary");
	if (!segs)   /* before segments: the summary was the one invocation */
		return cJSON_IsObject(old) ? add_segment(old, true, dir, out, err, errlen) : CUA_OK;
	if (!cJSON_IsArray(segs)) {
		cua_errf(err, errlen, "%s/" CUA_RESULTS_RUN_JSON ": segments: not an array", dir);
		return CUA_E_PARSE;
	}
	const cJSON *g;
	cJSON_ArrayForEach(g, segs) {
		enum cua_status st = add_segment(g, false, dir, out, err, errlen);
		if (st != CUA_OK)
			return st;
	}
	return CUA_OK;
}
