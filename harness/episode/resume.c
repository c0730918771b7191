/* resume.c — what a killed run left in its folder, for `run --resume` (run.c):
 * each file read through the results reader (results.h), its torn tail cut first
 * since the run appends next, every line of the run's tasks decoded or refused
 * naming its file and line; and the run's own settings from its run.json. */
#include "episode/resume.h"
#include "results/results.h"

#include <math.h>
#include <string.h>
#include <cjson/cJSON.h>

/* The state of one load: the run's tasks, what was found of each. */
struct loading {
	const struct cua_task *const *tasks;
	int n_tasks;
	struct cua_resume_task *prior;      /* [n_tasks] */
	int evaluations;                    /* candidates found (no_code aside) */
};

static int task_index(const struct loading *r, const char *id)
{
	for (int i = 0; i < r->n_tasks; i++)
		if (!strcmp(r->tasks[i]->id, id))
			return i;
	return -1;
}

/* What was found of the task a line names (*i: its index). NULL with *st CUA_OK
 * when the run does not list it; NULL with *st and err set when the line names
 * no task. */
static struct cua_resume_task *line_prior(struct loading *r, const cJSON *j,
                                          const struct cua_results_at *at, int *i,
                                          enum cua_status *st, char *err, size_t errlen)
{
	const cJSON *task = cJSON_GetObjectItemCaseSensitive(j, "task");
	*st = CUA_OK;
	if (!cJSON_IsString(task) || !task->valuestring[0]) {
		*st = cua_results_line_err(at, err, errlen, "task: expected a non-empty string");
		return NULL;
	}
	*i = task_index(r, task->valuestring);
	return *i < 0 ? NULL : &r->prior[*i];
}

/* evals.jsonl: every turn the run evaluated, each once. */
static enum cua_status prior_eval(void *ctx, const cJSON *j, const struct cua_results_at *at,
                                  char *err, size_t errlen)
{
	struct loading *r = ctx;
	char why[CUA_ERR_LEN];
	int i;
	enum cua_status st;
	struct cua_resume_task *p = line_prior(r, j, at, &i, &st, err, errlen);
	if (!p)
		return st;
	struct cua_step s;
	if (cua_step_from_json(j, &s, why, sizeof(why)) != CUA_OK) {
		cua_step_clear(&s);
		return cua_results_line_err(at, err, errlen, "%s", why);
	}
	for (int k = 0; k < p->n_steps; k++)
		if (p->steps[k].turn == s.turn) {
			cua_step_clear(&s);   /* never count a turn twice */
			return CUA_OK;
		}
	if (p->n_steps == CUA_MAX_TURNS) {   /* distinct turns 1..max: cannot happen */
		cua_step_clear(&s);
		return cua_results_line_err(at, err, errlen, "more than %d turns", CUA_MAX_TURNS);
	}
	p->steps[p->n_steps++] = s;
	r->evaluations += !cua_step_no_code(&s);
	return CUA_OK;
}

/* *slot = a copy of v's text when v is a non-empty string. */
static void keep_text(char **slot, const cJSON *v)
{
	if (!cJSON_IsString(v) || !v->valuestring[0])
		return;
	free(*slot);
	*slot = cua_xstrdup(v->valuestring);
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

/* trajectories.jsonl: what the agent was shown and said per turn; how each
 * episode ended (the last end line counts; an interrupted episode goes on). */
static enum cua_status prior_traj(void *ctx, const cJSON *j, const struct cua_results_at *at,
                                  char *err, size_t errlen)
{
	struct loading *r = ctx;
	const cJSON *kind = cJSON_GetObjectItemCaseSensitive(j, "kind");
	if (!cJSON_IsString(kind) || !kind->valuestring[0])
		return cua_results_line_err(at, err, errlen, "kind: expected a non-empty string");
	bool turn_line = !strcmp(kind->valuestring, "turn");
	if (!turn_line && strcmp(kind->valuestring, "end"))
		return CUA_OK;   /* kinds added later */
	int i, k;
	enum cua_status st;
	struct cua_resume_task *p = line_prior(r, j, at, &i, &st, err, errlen);
	if (!p)
		return st;
	if (turn_line) {
		st = line_int(j, "turn", true, 0, 1, CUA_MAX_TURNS, &k, at, err, errlen);
		if (st != CUA_OK)
			return st;
		p->have_traj[k] = true;
		/* the last line of a turn wins, as for every results line */
		keep_text(&p->shown[k], cJSON_GetObjectItemCaseSensitive(j, "observation"));
		keep_text(&p->reply[k], cJSON_GetObjectItemCaseSensitive(j, "reply"));
		return CUA_OK;
	}
	st = line_int(j, "best_turn", false, 0, 0, CUA_MAX_TURNS, &k, at, err, errlen);
	if (st != CUA_OK)
		return st;
	const cJSON *reason = cJSON_GetObjectItemCaseSensitive(j, "reason");
	p->ended = !(cJSON_IsString(reason) && !strcmp(reason->valuestring, "interrupted"));
	p->best_turn = k;
	return CUA_OK;
}

/* baselines.jsonl: each task's measured baselines (the last line of a subject
 * wins) and the device that measured them, one per task. */
static enum cua_status prior_base(void *ctx, const cJSON *j, const struct cua_results_at *at,
                                  char *err, size_t errlen)
{
	struct loading *r = ctx;
	char why[CUA_ERR_LEN];
	int i;
	enum cua_status st;
	struct cua_resume_task *p = line_prior(r, j, at, &i, &st, err, errlen);
	if (!p)
		return st;
	const cJSON *g = cJSON_GetObjectItemCaseSensitive(j, "gpu");
	const char *gpu = cJSON_IsString(g) ? g->valuestring : "";
	if (p->have_base && strcmp(p->gpu, gpu))
		return cua_results_line_err(at, err, errlen, "gpu: \"%s\", where an earlier line "
		                            "of %s says \"%s\" (a task's baselines are measured on "
		                            "one device)", gpu, r->tasks[i]->id, p->gpu);
	struct cua_eval e;
	if (cua_eval_from_json(cJSON_GetObjectItemCaseSensitive(j, "eval"), &e, why,
	                       sizeof(why)) != CUA_OK) {
		cua_eval_clear(&e);
		return cua_results_line_err(at, err, errlen, "eval: %s", why);
	}
	int k = cua_report_find(&p->base, e.subject);
	if (k < 0)
		k = p->base.n_base;
	if (k == (int)CUA_ARRAY_LEN(p->base.base)) {
		cua_eval_clear(&e);
		return cua_results_line_err(at, err, errlen, "more than %d baselines for %s",
		                            k, r->tasks[i]->id);
	}
	if (k < p->base.n_base)
		cua_eval_clear(&p->base.base[k]);   /* measured again: the later line */
	else
		p->base.n_base++;
	p->base.base[k] = e;
	p->base.task = r->tasks[i];
	p->have_base = true;
	snprintf(p->gpu, sizeof(p->gpu), "%s", gpu);
	return CUA_OK;
}

enum cua_status cua_resume_load(const char *run_dir, const struct cua_task *const *tasks,
                                int n_tasks, const char (*gpus)[64], int n_gpus,
                                struct cua_resume_task **out, int *evaluations, char *err,
                                size_t errlen)
{
	static const struct {
		const char *name;
		cua_results_line_fn fn;
	} files[] = {
		{"evals.jsonl", prior_eval},
		{"trajectories.jsonl", prior_traj},
		{"baselines.jsonl", prior_base},
	};
	enum cua_status st = CUA_OK;
	struct loading r = {.tasks = tasks, .n_tasks = n_tasks};
	r.prior = cua_xcalloc((size_t)n_tasks + 1, sizeof(*r.prior));
	*out = NULL;
	*evaluations = 0;
	for (size_t f = 0; f < CUA_ARRAY_LEN(files); f++) {
		char path[CUA_PATH_BUF];
		int torn;
		snprintf(path, sizeof(path), "%s/%s", run_dir, files[f].name);
		st = cua_results_each_line(path, CUA_RESULTS_CUT_TORN, files[f].fn, &r, &torn, err,
		                           errlen);
		if (st != CUA_OK)
			goto fail;
		if (torn)
			fprintf(stderr, "cuarena run: %s: line %d was torn when the run was killed; "
			        "cut (what it recorded is done again)\n", path, torn);
	}
	/* A task whose baselines were measured goes on on that device, so that no
	 * speedup compares two physical GPUs; one this invocation lacks stops the
	 * resume (e.g. --gpus 0 for a run that measured on 0 and 1). */
	for (int i = 0; i < n_tasks; i++) {
		struct cua_resume_task *p = &r.prior[i];
		p->slot = i % n_gpus;
		if (!p->have_base || p->ended)
			continue;
		int k = 0;
		while (k < n_gpus && strcmp(gpus[k], p->gpu) != 0)
			k++;
		if (k == n_gpus) {
			if (p->gpu[0])
				cua_errf(err, errlen, "%s: its baselines were measured on GPU %s: resume "
				         "with --gpus naming it", tasks[i]->id, p->gpu);
			else
				cua_errf(err, errlen, "%s: its baselines were measured without --gpus: "
				         "resume without --gpus", tasks[i]->id);
			st = CUA_E_USAGE;
			goto fail;
		}
		p->slot = k;
	}
	/* steps in turn order */
	for (int i = 0; i < n_tasks; i++) {
		struct cua_resume_task *p = &r.prior[i];
		for (int a = 1; a < p->n_steps; a++)
			for (int b = a; b > 0 && p->steps[b - 1].turn > p->steps[b].turn; b--) {
				struct cua_step tmp = p->steps[b];
				p->steps[b] = p->steps[b - 1];
				p->steps[b - 1] = tmp;
			}
	}
	*out = r.prior;
	*evaluations = r.evaluations;
	return CUA_OK;
fail:
	cua_resume_free(r.prior, n_tasks);
	return st;
}

void cua_resume_free(struct cua_resume_task *prior, int n_tasks)
{
	if (!prior)
		return;
	for (int i = 0; i < n_tasks; i++) {
		for (int k = 0; k < prior[i].n_steps; k++)
			cua_step_clear(&prior[i].steps[k]);
		for (int k = 0; k <= CUA_MAX_TURNS; k++) {
			free(prior[i].shown[k]);
			free(prior[i].reply[k]);
		}
		cua_report_clear(&prior[i].base);
	}
	free(prior);
}

enum cua_status cua_resume_read_meta(const char *dir, char *agent, size_t agent_len,
                                     cJSON **config, char *version, size_t version_len,
                                     int *turns, enum cua_reward_kind *reward, char ***ids,
                                     int *n_ids, char *err, size_t errlen)
{
	cJSON *j;
	*config = NULL;
	*ids = NULL;
	*n_ids = 0;
	enum cua_status st = cua_results_read_run_json(dir, &j, err, errlen);
	if (st != CUA_OK)
		return st;
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(j, "agent");
	const cJSON *ver = cJSON_GetObjectItemCaseSensitive(a, "version");
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(j, "turns");
	const cJSON *rw = cJSON_GetObjectItemCaseSensitive(j, "reward");
	const cJSON *tasks = cJSON_GetObjectItemCaseSensitive(j, "tasks");
	if (!cJSON_IsNumber(t) || !cJSON_IsString(rw) ||
	    !cua_reward_parse(rw->valuestring, reward) || !cJSON_IsArray(tasks)) {
		cua_errf(err, errlen, "%s/run.json: agent.name, turns, reward and tasks are "
		         "required", dir);
		st = CUA_E_PARSE;
		goto out;
	}
	*turns = cua_to_int(t->valuedouble);
	if (*turns < 1 || *turns > CUA_MAX_TURNS) {
		cua_errf(err, errlen, "%s/run.json: turns: must be 1 to %d", dir, CUA_MAX_TURNS);
		st = CUA_E_PARSE;
		goto out;
	}
	const cJSON *x;
	int n = 0;
	cJSON_ArrayForEach(x, tasks) {
		if (!cJSON_IsString(x) || !x->valuestring[0]) {
			cua_errf(err, errlen, "%s/run.json: tasks[%d]: expected a task id", dir, n);
			st = CUA_E_PARSE;
			goto out;
		}
		n++;
	}
	snprintf(agent, agent_len, "%s",
	         cJSON_GetObjectItemCaseSensitive(a, "name")->valuestring);
	snprintf(version, version_len, "%s", cJSON_IsString(ver) ? ver->valuestring : "");
	const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(a, "config");
	*config = cfg ? cJSON_Duplicate(cfg, true) : NULL;
	*ids = cua_xcalloc((size_t)n + 1, sizeof(char *));
	cJSON_ArrayForEach(x, tasks)
		(*ids)[(*n_ids)++] = cua_xstrdup(x->valuestring);
out:
	cJSON_Delete(j);
	return st;
}

void cua_resume_free_ids(char **ids, int n)
{
	for (int i = 0; ids && i < n; i++)
		free(ids[i]);
	free(ids);
}
