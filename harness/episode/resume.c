/* resume.c — what a killed run left in its folder, for `run --resume` (run.c):
 * what the folder holds (results/prior.c, read once the run holds its lock and
 * has cut the torn tails) made into each task's steps and baselines, every line of
 * the run's tasks decoded or refused naming its file and line; and the run's own
 * settings from its run.json. */
#include "episode/resume.h"
#include "results/prior.h"
#include "results/results.h"

#include <math.h>
#include <string.h>
#include <cjson/cJSON.h>

_Static_assert(CUA_PRIOR_TURNS == CUA_MAX_TURNS, "prior.h keeps an episode's turns");

/* A task's evaluated turns as steps, each turn once (the first line of it). */
static enum cua_status take_steps(struct cua_prior *p, struct cua_prior_task *pt,
                                  struct cua_resume_task *r, char *err, size_t errlen)
{
	char path[CUA_PATH_BUF], why[CUA_ERR_LEN];
	snprintf(path, sizeof(path), "%s/" CUA_RESULTS_EVALS, p->dir);
	for (int k = 0; k < pt->n_evals; k++) {
		struct cua_results_at at = {.path = path, .line = pt->evals[k].line};
		struct cua_step s;
		if (cua_step_from_json(pt->evals[k].json, &s, why, sizeof(why)) != CUA_OK) {
			cua_step_clear(&s);
			return cua_results_line_err(&at, err, errlen, "%s", why);
		}
		bool seen = false;
		for (int i = 0; i < r->n_steps && !seen; i++)
			seen = r->steps[i].turn == s.turn;
		if (seen) {
			cua_step_clear(&s);   /* never count a turn twice */
			continue;
		}
		r->steps[r->n_steps++] = s;   /* distinct turns 1..64: room for each */
	}
	/* in turn order */
	for (int a = 1; a < r->n_steps; a++)
		for (int b = a; b > 0 && r->steps[b - 1].turn > r->steps[b].turn; b--) {
			struct cua_step tmp = r->steps[b];
			r->steps[b] = r->steps[b - 1];
			r->steps[b - 1] = tmp;
		}
	return CUA_OK;
}

/* The task's measured baselines: one device's (a task's baselines are measured
 * on one), taken from p. */
static enum cua_status take_base(struct cua_prior *p, const struct cua_task *t,
                                 struct cua_resume_task *r, char *err, size_t errlen)
{
	char path[CUA_PATH_BUF];
	struct cua_prior_base *first = NULL;
	snprintf(path, sizeof(path), "%s/" CUA_RESULTS_BASELINES, p->dir);
	for (int i = 0; i < p->n_bases; i++) {
		struct cua_prior_base *b = &p->bases[i];
		if (strcmp(b->task, t->id))
			continue;
		if (first) {
			struct cua_results_at at = {.path = path, .line = b->line};
			return cua_results_line_err(&at, err, errlen, "gpu: \"%s\", where an earlier "
			                            "line of %s says \"%s\" (a task's baselines are "
			                            "measured on one device)", b->gpu, t->id, first->gpu);
		}
		first = b;
	}
	if (!first)
		return CUA_OK;
	r->base = first->rep;
	memset(&first->rep, 0, sizeof(first->rep));
	r->base.task = t;
	r->have_base = true;
	snprintf(r->gpu, sizeof(r->gpu), "%s", first->gpu);
	return CUA_OK;
}

enum cua_status cua_resume_load(struct cua_prior *p, const struct cua_task *const *tasks,
                                int n_tasks, const char (*gpus)[64], int n_gpus,
                                struct cua_resume_task **out, int *evaluations, char *err,
                                size_t errlen)
{
	enum cua_status st = CUA_OK;
	struct cua_resume_task *prior = cua_xcalloc((size_t)n_tasks + 1, sizeof(*prior));
	*out = NULL;
	*evaluations = 0;
	for (int i = 0; i < n_tasks; i++) {
		struct cua_resume_task *r = &prior[i];
		struct cua_prior_task *pt = cua_prior_task(p, tasks[i]->id);
		if (pt) {
			if ((st = take_steps(p, pt, r, err, errlen)) != CUA_OK)
				goto fail;
			r->ended = pt->ended;
			r->best_turn = pt->best_turn;
			for (int k = 0; k <= CUA_MAX_TURNS; k++) {
				r->have_traj[k] = pt->have_turn[k];
				r->shown[k] = pt->shown[k];
				r->reply[k] = pt->reply[k];
				pt->shown[k] = pt->reply[k] = NULL;
			}
		}
		if ((st = take_base(p, tasks[i], r, err, errlen)) != CUA_OK)
			goto fail;
		/* A task whose baselines were measured goes on on that device, so that no
		 * speedup compares two physical GPUs; one this invocation lacks stops the
		 * resume (e.g. --gpus 0 for a run that measured on 0 and 1). */
		r->slot = i % n_gpus;
		if (!r->have_base || r->ended)
			continue;
		int k = 0;
		while (k < n_gpus && strcmp(gpus[k], r->gpu) != 0)
			k++;
		if (k == n_gpus) {
			if (r->gpu[0])
				cua_errf(err, errlen, "%s: its baselines were measured on GPU %s: resume "
				         "with --gpus naming it", tasks[i]->id, r->gpu);
			else
				cua_errf(err, errlen, "%s: its baselines were measured without --gpus: "
				         "resume without --gpus", tasks[i]->id);
			st = CUA_E_USAGE;
			goto fail;
		}
		r->slot = k;
	}
	*out = prior;
	*evaluations = p->evaluations;
	return CUA_OK;
fail:
	cua_resume_free(prior, n_tasks);
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
	struct cua_prior_run m;
	*config = NULL;
	*ids = NULL;
	*n_ids = 0;
	enum cua_status st = cua_results_read_run_json(dir, &j, err, errlen);
	if (st != CUA_OK)
		return st;
	cua_prior_run_decode(j, &m);
	if (isnan(m.turns) || !m.reward || !cua_reward_parse(m.reward, reward) ||
	    m.n_tasks < 0) {
		cua_errf(err, errlen, "%s/" CUA_RESULTS_RUN_JSON ": agent.name, turns, reward and "
		         "tasks are required", dir);
		st = CUA_E_PARSE;
		goto out;
	}
	*turns = cua_to_int(m.turns);
	if (*turns < 1 || *turns > CUA_MAX_TURNS) {
		cua_errf(err, errlen, "%s/" CUA_RESULTS_RUN_JSON ": turns: must be 1 to %d", dir,
		         CUA_MAX_TURNS);
		st = CUA_E_PARSE;
		goto out;
	}
	for (int n = 0; n < m.n_tasks; n++)
		if (!m.tasks[n] || !m.tasks[n][0]) {
			cua_errf(err, errlen, "%s/" CUA_RESULTS_RUN_JSON ": tasks[%d]: expected a "
			         "task id", dir, n);
			st = CUA_E_PARSE;
			goto out;
		}
	snprintf(agent, agent_len, "%s", m.agent);
	snprintf(version, version_len, "%s", m.agent_version ? m.agent_version : "");
	*config = m.agent_config ? cJSON_Duplicate(m.agent_config, true) : NULL;
	*ids = cua_xcalloc((size_t)m.n_tasks + 1, sizeof(char *));
	for (int n = 0; n < m.n_tasks; n++)
		(*ids)[(*n_ids)++] = cua_xstrdup(m.tasks[n]);
out:
	cua_prior_run_clear(&m);
	cJSON_Delete(j);
	return st;
}

void cua_resume_free_ids(char **ids, int n)
{
	for (int i = 0; ids && i < n; i++)
		free(ids[i]);
	free(ids);
}
