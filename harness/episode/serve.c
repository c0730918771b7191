/* serve.c — `cuarena serve`: a bounded queue of jobs, builder threads, one GPU
 * lock and baseline cache per device, the server-side episodes and the episode
 * code of `run` and `env`; every evaluation appended to a results folder
 * (docs/SERVE.md, docs/RESULTS-FORMAT.md). The HTTP side (libmicrohttpd: routes,
 * auth, metrics, listening) is serve-http.c; the state both share, serve-int.h.
 *
 * Longer than docs/CODE-STYLE.md's ~900 lines on purpose: the queue, the
 * workers, the episodes and the results folder they record to share one state
 * and one lock order; what a restart restores is that same state.
 */
#include "episode/serve-int.h"
#include "catalogue/prompts.h"
#include "results/prior.h"

#include <stdarg.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <microhttpd.h>           /* its status codes, in a job's answer */

static volatile sig_atomic_t stopping;

void cua_serve_stop(void)
{
	stopping = 1;
}

bool serve_stopping(void)
{
	return stopping;
}

void cua_serve_opts_init(struct cua_serve_opts *o, const char *root, const char *self_exe,
                         const char *cache_dir)
{
	memset(o, 0, sizeof(*o));
	o->root = root;
	o->listen = "127.0.0.1:8177";
	o->queue = 64;
	o->max_body = 1 << 20;
	o->max_episodes = 1024;
	o->max_per_client = 256;
	o->client_timeout_s = 30;
	cua_eval_opts_init(&o->eval, root, self_exe, cache_dir);
}

/* ---- state ------------------------------------------------------------------ */

static int slot_of(const struct server *s, const char *gpu)
{
	for (int i = 0; i < s->n_slots; i++)
		if (!strcmp(s->slot[i].name, gpu ? gpu : ""))
			return i;
	return -1;
}

/* The evaluation options of a GPU: the server's, on that device. */
static void slot_opts(const struct server *s, int slot, struct cua_eval_opts *eo)
{
	*eo = s->o->eval;
	if (s->slot[slot].name[0])
		eo->gpu = s->slot[slot].name;
}

/* ---- results folder ------------------------------------------------------------ */

/* Names the task in run.json's "tasks" the first time it is evaluated, and the
 * GPU once it is known, and rewrites run.json when either changed (or an
 * earlier rewrite failed). */
static enum cua_status note_task(struct server *s, int ti, const struct cua_device *dev,
                                 char *err, size_t errlen)
{
	if (ti >= 0)
		cua_writer_run_task(s->w, s->cat.tasks[ti]->id);
	if (dev && dev->known) {
		pthread_mutex_lock(&s->lock);
		bool first = !s->device.known;
		if (first)
			s->device = *dev;
		pthread_mutex_unlock(&s->lock);
		if (first)
			cua_writer_run_device(s->w, dev);
	}
	return cua_writer_run_save(s->w, err, errlen);
}

static void new_run_json(struct server *s, const char *when)
{
	char prompts[65];
	const char *slash = strrchr(s->dir, '/');
	const char *nv = cua_nvcc_version(s->o->eval.build.nvcc);
	/* each request names its own turns and reward: these are the defaults */
	struct cua_run_meta m = {
		.run_id = slash ? slash + 1 : s->dir, .created = when,
		.catalogue_hash = s->cat.hash, .catalogue_version = s->cat.version, .nvcc = nv,
		.agent = "serve",
		.agent_version = CUA_VERSION,
		.prompts_sha256 = cua_prompts_hash(s->o->root, prompts, NULL, 0) == CUA_OK
		                  ? prompts : NULL,
		.turns = 8, .reward = cua_reward_name(CUA_REWARD_CUDA_AGENT),
		.max_time_s = s->o->eval.max_time_s, .public_seeds = s->o->eval.seeds,
	};
	cua_writer_run_new(s->w, &m);
	cua_writer_run_device(s->w, &s->device);
}

static const char *str_of(const cJSON *j, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static struct cua_report *empty_report(const struct cua_task *t)
{
	struct cua_report *r = cua_xcalloc(1, sizeof(*r));
	r->task = t;
	return r;
}

/* The baselines measured before the restart are in use again on the GPUs of the
 * same names, unless the kill came between two of a set's lines: a set without
 * all of them is measured again when next asked for. */
static void restore_baselines(struct server *s, struct cua_prior *p)
{
	for (int i = 0; i < p->n_bases; i++) {
		struct cua_prior_base *b = &p->bases[i];
		const struct cua_task *t = cua_catalogue_find(&s->cat, b->task, NULL, 0);
		int slot = slot_of(s, b->gpu);
		if (!t || slot < 0 || strcmp(t->id, b->task))
			continue;   /* a task gone from the catalogue, a GPU not served now */
		char missing[128];
		b->rep.task = t;
		b->rep.device = s->device;
		if (!cua_report_complete(t, &b->rep, s->o->root,
		                         s->device.known ? s->device.name : NULL, missing,
		                         sizeof(missing))) {
			fprintf(stderr, "cuarena serve: %s: killed before its %s baseline was "
			        "written: its baselines are measured again\n", t->id, missing);
			continue;
		}
		struct cua_report *r = empty_report(t);
		*r = b->rep;
		memset(&b->rep, 0, sizeof(b->rep));
		s->slot[slot].base[task_index(s, t)] = r;
	}
}

/* One episode's steps, from its evals lines, in turn order, each turn once. */
static enum cua_status episode_steps(struct server *s, struct cua_prior_task *pt,
                                     const char *id, struct cua_step *steps, int *n,
                                     char *err, size_t errlen)
{
	char path[CUA_PATH_BUF], why[CUA_ERR_LEN];
	snprintf(path, sizeof(path), "%s/" CUA_RESULTS_EVALS, s->dir);
	*n = 0;
	for (int k = 0; pt && k < pt->n_evals; k++) {
		if (strcmp(pt->evals[k].episode, id))
			continue;
		struct cua_results_at at = {.path = path, .line = pt->evals[k].line};
		struct cua_step st;
		if (cua_step_from_json(pt->evals[k].json, &st, why, sizeof(why)) != CUA_OK) {
			cua_step_clear(&st);
			for (int i = 0; i < *n; i++)
				cua_step_clear(&steps[i]);
			*n = 0;
			return cua_results_line_err(&at, err, errlen, "%s", why);
		}
		bool seen = false;
		for (int i = 0; i < *n && !seen; i++)
			seen = steps[i].turn == st.turn;
		if (seen || *n == CUA_MAX_TURNS) {
			cua_step_clear(&st);   /* never a turn twice */
			continue;
		}
		steps[(*n)++] = st;
	}
	for (int a = 1; a < *n; a++)
		for (int k = a; k > 0 && steps[k - 1].turn > steps[k].turn; k--) {
			struct cua_step tmp = steps[k];
			steps[k] = steps[k - 1];
			steps[k - 1] = tmp;
		}
	return CUA_OK;
}

/* Opens the episodes a killed or stopped server left open, where they were;
 * *restored and *lost say how many were and could not be. */
static enum cua_status restore_episodes(struct server *s, struct cua_prior *p, int *restored,
                                        int *lost, char *err, size_t errlen)
{
	char path[CUA_PATH_BUF];
	struct cua_step *steps = cua_xcalloc(CUA_MAX_TURNS, sizeof(*steps));
	enum cua_status st = CUA_OK;
	snprintf(path, sizeof(path), "%s/" CUA_RESULTS_TRAJ, s->dir);
	*restored = *lost = 0;
	for (int i = 0; i < p->n_episodes && st == CUA_OK; i++) {
		struct cua_prior_episode *e = &p->episodes[i];
		if (e->ended)
			continue;
		struct cua_results_at at = {.path = path, .line = e->line};
		enum cua_reward_kind reward;
		if (!cua_reward_parse(e->reward, &reward)) {
			st = cua_results_line_err(&at, err, errlen, "reward: unknown schedule \"%s\"",
			                          e->reward);
			break;
		}
		const struct cua_task *t = cua_catalogue_find(&s->cat, e->task, NULL, 0);
		int slot = slot_of(s, e->gpu);
		if (!t || strcmp(t->id, e->task) || slot < 0) {
			(*lost)++;   /* its task is gone, or its GPU is not served now */
			continue;
		}
		int ti = task_index(s, t), n = 0;
		struct cua_report **b = &s->slot[slot].base[ti];
		if (!*b && !s->gpu)
			*b = empty_report(t);
		if (!*b) {
			(*lost)++;   /* its baselines are gone (cut short by a kill) */
			continue;
		}
		if ((st = episode_steps(s, cua_prior_task(p, t->id), e->id, steps, &n, err,
		                        errlen)) != CUA_OK)
			break;
		struct sepisode *se = cua_xcalloc(1, sizeof(*se));
		snprintf(se->id, sizeof(se->id), "%s", e->id);
		se->slot = slot;
		se->task_index = ti;
		struct cua_env_reset r = {.task = t, .turns = e->turns, .reward = reward};
		struct cua_eval_opts eo;
		slot_opts(s, slot, &eo);
		char dir[CUA_PATH_BUF], why[CUA_ERR_LEN];
		snprintf(dir, sizeof(dir), "%s/%s", s->workdir, se->id);
		if (cua_env_begin(&se->ep, &r, &eo, *b, dir, &s->slot[slot].gpu, why,
		                  sizeof(why)) != CUA_OK) {
			free(se);
			(*lost)++;
		} else {
			cua_episode_restore(&se->ep, steps, n);
			se->begun = true;
			serve_episode_add(s, se);
			(*restored)++;
		}
		for (int k = 0; k < n; k++)
			cua_step_clear(&steps[k]);
	}
	free(steps);
	return st;
}

/* Creates or continues the results folder: its lock first (one server per
 * folder), then what it holds, said in the log. */
static enum cua_status open_results(struct server *s, char *err, size_t errlen)
{
	char when[64], id[64];
	time_t now = time(NULL);
	struct tm tmv;
	gmtime_r(&now, &tmv);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tmv);
	strftime(id, sizeof(id), "%Y%m%d-%H%M%S", &tmv);
	enum cua_status st = s->o->results
	                     ? cua_pathf(s->dir, sizeof(s->dir), err, errlen, "%s", s->o->results)
	                     : cua_pathf(s->dir, sizeof(s->dir), err, errlen, "%s/results/%s-serve",
	                                 s->o->root, id);
	/* every episode's folder is built from this one, so it is checked once here */
	if (st == CUA_OK)
		st = cua_pathf(s->workdir, sizeof(s->workdir), err, errlen, "%s/" CUA_RESULTS_WORK,
		               s->dir);
	struct cua_writer_opened opened;
	if (st == CUA_OK)
		st = cua_writer_open(s->dir, "serve", &s->w, &opened, err, errlen);
	if (st != CUA_OK)
		return st;
	char path[CUA_PATH_BUF];
	snprintf(path, sizeof(path), "%s/" CUA_RESULTS_RUN_JSON, s->dir);
	bool again = access(path, F_OK) == 0;
	if (again) {
		if ((st = cua_writer_run_continue(s->w, when, err, errlen)) != CUA_OK)
			return st;
		struct cua_prior_run m;
		cua_prior_run_decode(cua_writer_run(s->w), &m);
		bool ours = m.n_tasks >= 0 && m.agent && !strcmp(m.agent, "serve");
		if (!ours)
			cua_errf(err, errlen, "%s: not a folder of `cuarena serve` (agent.name \"%s\", "
			         "tasks): give a new or a serve results folder", path,
			         m.agent ? m.agent : "");
		else
			s->device = m.device;
		cua_prior_run_clear(&m);
		if (!ours)
			return CUA_E_USAGE;
	} else
		new_run_json(s, when);
	if ((st = cua_writer_run_save(s->w, err, errlen)) != CUA_OK)
		return st;

	struct cua_prior_want want = {.evals = true, .episode_steps = true};
	struct cua_prior *p = NULL;
	int restored = 0, lost = 0;
	if ((st = cua_prior_load(s->dir, &want, &p, err, errlen)) != CUA_OK)
		return st;
	s->recorded = (uint64_t)p->eval_lines;
	restore_baselines(s, p);
	st = restore_episodes(s, p, &restored, &lost, err, errlen);
	if (st == CUA_OK && again) {
		struct cua_buf said = {0};
		cua_prior_say(p, opened.cut, &said);
		fprintf(stderr, "cuarena serve: continuing %s: %s; %d open episode%s restored%s\n",
		        s->dir, said.s, restored, restored == 1 ? "" : "s",
		        lost ? " (some could not be: their task or GPU is not served now, or their "
		               "baselines were cut short)" : "");
		free(said.s);
	}
	cua_prior_free(p);
	return st;
}

/* A record that could not be written: counted, said once in the log. */
static void record_failed(struct server *s, const char *err)
{
	pthread_mutex_lock(&s->lock);
	bool first = s->write_failed_at == 0;
	s->write_failed_at = cua_now();
	pthread_mutex_unlock(&s->lock);
	if (first)
		fprintf(stderr, "cuarena serve: %s (answered 503 until a record is written "
		        "again)\n", err);
}

static void record_ok(struct server *s)
{
	pthread_mutex_lock(&s->lock);
	if (s->write_failed_at)
		fprintf(stderr, "cuarena serve: the results folder is written again\n");
	s->write_failed_at = 0;
	pthread_mutex_unlock(&s->lock);
}

/* One evaluation: the trajectory's turn line, then its evals line (the record a
 * restart reads): CUA_OK once both are on disk. A turn line whose evals line
 * then failed stays, a turn without its evaluation, which readers pass over. */
static enum cua_status record_eval(struct server *s, const struct job *j,
                                   const struct cua_task *t, const struct cua_step *st,
                                   const char *episode, const char *observation, char *err,
                                   size_t errlen)
{
	const char *gpu = s->slot[j->slot].name;
	struct cua_turn_line tl = {
		.task = t->id, .turn = st->turn, .observation = observation, .reply = "",
		.code = j->kind == JOB_STEP ? str_of(j->req, "code") : j->code,
		.verdict = st->eval.verdict, .reward = st->reward, .episode = episode,
	};
	struct cua_eval_where at = {
		.task = t->id, .level = t->level, .gpu = gpu, .request = kind_name[j->kind],
		.episode = episode,
		.reward_kind = cua_reward_name(j->kind == JOB_STEP ? j->ep->ep.reward_kind
		                                                   : j->reset.reward),
	};
	enum cua_status rc = note_task(s, task_index(s, t), NULL, err, errlen);
	if (rc == CUA_OK)
		rc = cua_writer_turn(s->w, &tl, err, errlen);
	if (rc == CUA_OK)
		rc = cua_writer_eval(s->w, &at, cua_step_to_json(st), err, errlen);
	if (rc != CUA_OK)
		record_failed(s, err);
	else
		record_ok(s);
	return rc;
}

bool serve_record_end(struct server *s, struct sepisode *se, const char *reason)
{
	char err[CUA_ERR_LEN];
	const struct cua_episode *ep = &se->ep;
	struct cua_end_line l = {.task = ep->task->id, .episode = se->id, .turns = ep->turn,
	                         .reason = reason, .best_turn = ep->best_turn,
	                         .rewards = ep->rewards};
	if (cua_writer_end(s->w, &l, err, sizeof(err)) != CUA_OK) {
		record_failed(s, err);
		return false;
	}
	record_ok(s);
	se->ended = true;
	return true;
}

/* ---- the work ---------------------------------------------------------------- */

static void count_gpu(struct server *s, int slot, double seconds)
{
	pthread_mutex_lock(&s->lock);
	s->slot[slot].busy_s += seconds;
	pthread_mutex_unlock(&s->lock);
}

/* The first baseline the harness failed to measure (a lost GPU, a dead judge),
 * or NULL. */
static const struct cua_eval *failed_baseline(const struct cua_report *r)
{
	for (int i = 0; i < r->n_base; i++)
		if (r->base[i].verdict == CUA_VERDICT_HARNESS_ERROR)
			return &r->base[i];
	return NULL;
}

/* The task's baselines on a GPU: measured on first use (or on remeasure) and
 * recorded; kept for later requests. *how: "measured", "cached" or "none" (no
 * GPU here: nothing is timed, as in `env`). NULL on failure, with err and *why
 * (WHY_*): baselines the harness could not measure or record are not kept. */
static const struct cua_report *baselines(struct server *s, int slot, int ti, bool remeasure,
                                          const char **how, const char **why, char *err,
                                          size_t errlen)
{
	struct slot *g = &s->slot[slot];
	const struct cua_task *t = s->cat.tasks[ti];
	pthread_mutex_lock(&g->task_lock[ti]);
	struct cua_report *r = g->base[ti];
	if (r && !(remeasure && s->gpu)) {
		*how = s->gpu ? "cached" : "none";
		pthread_mutex_unlock(&g->task_lock[ti]);
		return r;
	}
	struct cua_report *fresh = empty_report(t);
	*how = "none";
	if (s->gpu) {
		struct cua_eval_opts eo;
		slot_opts(s, slot, &eo);
		eo.bstore_fresh = remeasure;   /* asked to remeasure: the store is not enough */
		struct cua_eval_opts po = eo;
		int built;
		char ignored[CUA_ERR_LEN];
		po.build.stop = &stopping;
		/* nvcc on the CPU first: the GPU is not held while baselines compile */
		cua_prebuild_baselines(t, &po, &built, ignored, sizeof(ignored));
		enum cua_status st = cua_gpu_lock(&g->gpu, &stopping);
		*why = WHY_HARNESS;
		if (st == CUA_OK) {
			double g0 = cua_now();
			st = cua_report_run(t, NULL, &eo, fresh, err, errlen);
			pthread_mutex_unlock(&g->gpu);
			count_gpu(s, slot, cua_now() - g0);
		} else {
			*why = WHY_STOPPING;
			cua_errf(err, errlen, "the server stopped before the baselines of %s were "
			         "measured", t->id);
		}
		const struct cua_eval *bad = st == CUA_OK ? failed_baseline(fresh) : NULL;
		if (bad) {
			cua_errf(err, errlen, "the baselines of %s could not be measured (%s: %s)",
			         t->id, bad->subject, bad->message);
			st = CUA_E_SYSTEM;
		}
		for (int i = 0; st == CUA_OK && i < fresh->n_base; i++)
			if ((st = cua_writer_baseline(s->w, t, &fresh->base[i], g->name,
			                              &fresh->origin[i], err, errlen)) != CUA_OK)
				*why = WHY_UNRECORDED;
		if (st == CUA_OK && (st = note_task(s, ti, &fresh->device, err, errlen)) != CUA_OK)
			*why = WHY_UNRECORDED;
		if (st != CUA_OK) {
			/* a set cut short on disk is measured again on a restart (and here) */
			if (!strcmp(*why, WHY_UNRECORDED))
				record_failed(s, err);
			cua_report_clear(fresh);
			free(fresh);
			pthread_mutex_unlock(&g->task_lock[ti]);
			return NULL;
		}
		record_ok(s);
		*how = "measured";
		pthread_mutex_lock(&s->lock);
		s->baselines_measured++;
		pthread_mutex_unlock(&s->lock);
	}
	if (r) {
		/* open episodes still borrow the old report: kept until the end */
		pthread_mutex_lock(&s->lock);
		s->retired = cua_xrealloc(s->retired, (size_t)(s->n_retired + 1) *
		                                      sizeof(*s->retired));
		s->retired[s->n_retired++] = r;
		pthread_mutex_unlock(&s->lock);
	}
	g->base[ti] = fresh;
	pthread_mutex_unlock(&g->task_lock[ti]);
	return fresh;
}

static void job_error(struct job *j, int http, const char *msg)
{
	cJSON_Delete(j->reply);
	j->reply = cua_env_error(msg);
	j->http = http;
}

/* A 503 a trainer retries: nothing of the request is kept. why: WHY_*. */
static void job_unavailable(struct server *s, struct job *j, const char *why, const char *fmt,
                            ...) __attribute__((format(printf, 4, 5)));
static void job_unavailable(struct server *s, struct job *j, const char *why, const char *fmt,
                            ...)
{
	char msg[CUA_ERR_LEN + 256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	job_error(j, MHD_HTTP_SERVICE_UNAVAILABLE, msg);
	cJSON_AddBoolToObject(j->reply, "retryable", true);
	cJSON_AddStringToObject(j->reply, "reason", why);
	j->retry_after = RETRY_S;
	pthread_mutex_lock(&s->lock);
	if (!strcmp(why, WHY_HARNESS))
		s->harness_errors++;
	else if (!strcmp(why, WHY_UNRECORDED))
		s->rejected_unwritable++;
	pthread_mutex_unlock(&s->lock);
}

/* A step or measurement that failed (cua_episode_step's error: nothing was
 * judged): the server stopping, or the harness. */
static void job_failed(struct server *s, struct job *j, enum cua_status st, const char *err)
{
	if (st == CUA_E_INTERRUPTED)
		job_unavailable(s, j, WHY_STOPPING, "%s", err);
	else
		job_unavailable(s, j, WHY_HARNESS, "the harness failed, not the kernel: %s "
		                "(nothing recorded; retry)", err);
}

/* A turn whose verdict is the harness's (no GPU, a lost GPU, a dead judge) is no
 * verdict on the kernel: never a reward. */
static bool harness_failed(struct server *s, struct job *j, const struct cua_step *st)
{
	if (st->eval.verdict != CUA_VERDICT_HARNESS_ERROR)
		return false;
	job_unavailable(s, j, WHY_HARNESS, "the harness failed, not the kernel: %s%s (nothing "
	                "recorded, no reward; retry)", st->eval.message,
	                s->gpu ? "" : " (this server has no GPU)");
	return true;
}

static void count_step(struct server *s, int slot, const struct cua_step *st)
{
	pthread_mutex_lock(&s->lock);
	s->verdicts[st->eval.verdict < CUA_VERDICT_COUNT ? st->eval.verdict : 0]++;
	s->evaluations++;
	s->recorded++;
	s->slot[slot].busy_s += st->eval.run_s;
	pthread_mutex_unlock(&s->lock);
}

/* POST /v1/evaluate: one kernel as turn `turn` of an episode the client keeps. */
static void do_evaluate(struct server *s, struct job *j)
{
	char err[CUA_ERR_LEN], dir[CUA_PATH_BUF];
	const char *how, *why = WHY_HARNESS;
	const struct cua_report *base = baselines(s, j->slot, j->task_index, false, &how, &why,
	                                          err, sizeof(err));
	if (!base)
		return job_unavailable(s, j, why, "%s (nothing recorded; retry)", err);
	struct cua_eval_opts eo;
	slot_opts(s, j->slot, &eo);
	snprintf(dir, sizeof(dir), "%s/eval-%llu", s->workdir, (unsigned long long)j->seq);
	struct cua_episode ep;
	enum cua_status st = cua_env_begin(&ep, &j->reset, &eo, base, dir, &s->slot[j->slot].gpu,
	                                   err, sizeof(err));
	if (st != CUA_OK) {
		cua_rmtree(dir);
		return job_failed(s, j, st, err);
	}
	ep.own.build.stop = &j->cancel;
	ep.stop = &j->cancel;
	ep.turn = j->turn - 1;             /* the turns before it are the client's */
	struct cua_step step;
	st = cua_episode_step(&ep, j->code, j->note, &step, err, sizeof(err));
	if (st != CUA_OK)
		job_failed(s, j, st, err);
	else if (harness_failed(s, j, &step))
		;
	else if (record_eval(s, j, j->reset.task, &step, j->label, "", err, sizeof(err)) != CUA_OK)
		job_unavailable(s, j, WHY_UNRECORDED, "evaluated, but the results could not be "
		                "recorded: %s (not answered: retry)", err);
	else {
		count_step(s, j->slot, &step);
		j->reply = cua_env_step_reply(&ep, &step);
		/* the earlier turns are not ours to settle: no "rewards" of the episode */
		cJSON_DeleteItemFromObject(j->reply, "rewards");
		cJSON_AddStringToObject(j->reply, "task", j->reset.task->id);
		if (j->label[0])
			cJSON_AddStringToObject(j->reply, "episode", j->label);
		cJSON_AddStringToObject(j->reply, "baselines", how);
		j->http = MHD_HTTP_OK;
	}
	cua_step_clear(&step);
	cua_episode_clear(&ep);
	cua_rmtree(dir);
}
/* POST /v1/episodes: reset, as `env` does. j->ep was made (busy) at accept. */
static void do_reset(struct server *s, struct job *j)
{
	char err[CUA_ERR_LEN], dir[CUA_PATH_BUF];
	const char *how, *why = WHY_HARNESS;
	struct sepisode *se = j->ep;
	const struct cua_report *base = baselines(s, j->slot, j->task_index, j->reset.remeasure,
	                                          &how, &why, err, sizeof(err));
	if (!base)
		return job_unavailable(s, j, why, "%s (no episode begun; retry)", err);
	struct cua_eval_opts eo;
	slot_opts(s, j->slot, &eo);
	snprintf(dir, sizeof(dir), "%s/%s", s->workdir, se->id);
	enum cua_status st = cua_env_begin(&se->ep, &j->reset, &eo, base, dir,
	                                   &s->slot[j->slot].gpu, err, sizeof(err));
	if (st != CUA_OK)
		return job_failed(s, j, st, err);
	struct cua_episode_line l = {.task = j->reset.task->id, .episode = se->id,
	                             .turns = j->reset.turns,
	                             .reward = cua_reward_name(j->reset.reward),
	                             .gpu = s->slot[j->slot].name};
	if ((st = note_task(s, j->task_index, NULL, err, sizeof(err))) == CUA_OK)
		st = cua_writer_episode(s->w, &l, err, sizeof(err));
	if (st != CUA_OK) {
		record_failed(s, err);
		cua_episode_clear(&se->ep);
		cua_rmtree(dir);
		return job_unavailable(s, j, WHY_UNRECORDED, "the episode could not be recorded: "
		                       "%s (no episode begun; retry)", err);
	}
	record_ok(s);
	se->begun = true;
	se->slot = j->slot;
	j->reply = cua_env_reset_reply(&se->ep, how, s->gpu);
	cJSON_AddStringToObject(j->reply, "episode", se->id);
	j->http = MHD_HTTP_CREATED;
}

/* What a step changes (struct ep_mark, serve-int.h) is put back when its turn is
 * not kept. */

void serve_mark(const struct cua_episode *ep, struct ep_mark *m)
{
	m->turn = ep->turn;
	m->best_turn = ep->best_turn;
	m->best_speedup = ep->best_speedup;
	m->done = ep->done;
	memcpy(m->rewards, ep->rewards, sizeof(m->rewards));
	memcpy(m->end_reason, ep->end_reason, sizeof(m->end_reason));
	m->obs_text = ep->obs_text ? cua_xstrdup(ep->obs_text) : NULL;
	m->obs_json = ep->obs_json ? cJSON_Duplicate(ep->obs_json, true) : NULL;
}

void serve_rewind(struct cua_episode *ep, struct ep_mark *m)
{
	ep->turn = m->turn;
	ep->best_turn = m->best_turn;
	ep->best_speedup = m->best_speedup;
	ep->done = m->done;
	memcpy(ep->rewards, m->rewards, sizeof(m->rewards));
	memcpy(ep->end_reason, m->end_reason, sizeof(m->end_reason));
	free(ep->obs_text);
	cJSON_Delete(ep->obs_json);
	ep->obs_text = m->obs_text;
	ep->obs_json = m->obs_json;
	m->obs_text = NULL;
	m->obs_json = NULL;
}

/* POST /v1/episodes/ID/step. */
static void do_step(struct server *s, struct job *j)
{
	char err[CUA_ERR_LEN];
	struct sepisode *se = j->ep;
	struct cua_step step;
	struct ep_mark m;
	char *shown = cua_xstrdup(se->ep.obs_text ? se->ep.obs_text : "");
	serve_mark(&se->ep, &m);
	se->ep.own.build.stop = &j->cancel;
	se->ep.stop = &j->cancel;
	enum cua_status st = cua_env_step(&se->ep, j->req, &step, err, sizeof(err));
	se->ep.own.build.stop = NULL;
	se->ep.stop = NULL;
	if (st != CUA_OK)
		job_failed(s, j, st, err);   /* the turn was not taken */
	else if (harness_failed(s, j, &step))
		serve_rewind(&se->ep, &m);
	else if (record_eval(s, j, se->ep.task, &step, se->id, shown, err,
	                     sizeof(err)) != CUA_OK) {
		serve_rewind(&se->ep, &m);
		job_unavailable(s, j, WHY_UNRECORDED, "evaluated, but the results could not be "
		                "recorded: %s (the turn is not taken: send the step again)", err);
	} else {
		count_step(s, j->slot, &step);
		/* an end line that cannot be written leaves the episode open on disk: a
		 * DELETE writes it later */
		if (se->ep.done &&
		    serve_record_end(s, se, se->ep.end_reason[0] ? se->ep.end_reason : "turn limit"))
			cua_rmtree(se->ep.workdir);
		j->reply = cua_env_step_reply(&se->ep, &step);
		cJSON_AddStringToObject(j->reply, "episode", se->id);
		j->http = MHD_HTTP_OK;
	}
	free(m.obs_text);
	cJSON_Delete(m.obs_json);
	cua_step_clear(&step);
	free(shown);
}

/* Picks the GPU with the fewest jobs (ties: one that has the task's baselines,
 * then the first). server.lock held. */
static int pick_slot(struct server *s, const struct job *j)
{
	if (j->kind == JOB_STEP)
		return j->ep->slot;
	int best = 0;
	for (int i = 1; i < s->n_slots; i++) {
		int a = s->slot[i].in_flight, b = s->slot[best].in_flight;
		if (a < b || (a == b && s->slot[i].base[j->task_index] &&
		              !s->slot[best].base[j->task_index]))
			best = i;
	}
	return best;
}

struct builder_arg {
	struct server *s;
	int index;
};

static void *builder(void *arg)
{
	struct builder_arg *ba = arg;
	struct server *s = ba->s;
	for (;;) {
		pthread_mutex_lock(&s->lock);
		while (!s->head && !stopping)
			pthread_cond_wait(&s->work, &s->lock);
		if (stopping) {
			pthread_mutex_unlock(&s->lock);
			return NULL;
		}
		struct job *j = s->head;
		s->head = j->next;
		if (!s->head)
			s->tail = NULL;
		s->depth--;
		j->state = JOB_RUNNING;
		j->slot = pick_slot(s, j);
		s->slot[j->slot].in_flight++;
		s->running++;
		s->active[ba->index] = j;
		double t0 = cua_now();
		s->wait_sum += t0 - j->t_queued;
		s->wait_n++;
		pthread_mutex_unlock(&s->lock);

		if (j->kind == JOB_EVALUATE)
			do_evaluate(s, j);
		else if (j->kind == JOB_RESET)
			do_reset(s, j);
		else
			do_step(s, j);
		if (j->reply) {
			/* what the request waited in the queue, and all it took here */
			cJSON_AddNumberToObject(j->reply, "queue_s", t0 - j->t_queued);
			cJSON_AddNumberToObject(j->reply, "server_s", cua_now() - j->t_queued);
		}

		pthread_mutex_lock(&s->lock);
		double took = cua_now() - t0;
		s->job_s = s->job_s ? 0.9 * s->job_s + 0.1 * took : took;
		s->slot[j->slot].in_flight--;
		s->running--;
		s->active[ba->index] = NULL;
		if (j->ep)
			j->ep->busy = false;
		j->state = JOB_DONE;
		pthread_cond_broadcast(&j->done);
		pthread_mutex_unlock(&s->lock);
	}
}

/* ---- the queue and the episodes kept ---------------------------------------- */

void serve_queue_push(struct server *s, struct job *j)
{
	j->seq = ++s->seq;
	j->t_queued = cua_now();
	j->state = JOB_QUEUED;
	if (s->tail)
		s->tail->next = j;
	else
		s->head = j;
	s->tail = j;
	if (++s->depth > s->depth_max)
		s->depth_max = s->depth;
	s->accepted[j->kind]++;
	pthread_cond_signal(&s->work);
}

void serve_queue_cancel(struct server *s, struct job *j)
{
	j->cancel = 1;
	if (j->state == JOB_QUEUED) {
		struct job **pp = &s->head, *prev = NULL;
		while (*pp != j) {
			prev = *pp;
			pp = &(*pp)->next;
		}
		*pp = j->next;
		if (s->tail == j)
			s->tail = prev;
		s->depth--;
		j->state = JOB_DONE;
		s->cancelled_queued++;
		if (j->ep)
			j->ep->busy = false;
	} else
		s->cancelled_running++;
}

struct sepisode *serve_episode_find(struct server *s, const char *id)
{
	for (struct sepisode *e = s->episodes; e; e = e->next)
		if (!strcmp(e->id, id))
			return e;
	return NULL;
}

void serve_episode_add(struct server *s, struct sepisode *se)
{
	se->seq = ++s->seq;
	se->next = s->episodes;
	s->episodes = se;
	s->n_episodes++;
}

void serve_episode_unlink(struct server *s, struct sepisode *se)
{
	for (struct sepisode **pp = &s->episodes; *pp; pp = &(*pp)->next)
		if (*pp == se) {
			*pp = se->next;
			s->n_episodes--;
			return;
		}
}

void serve_episode_free(struct sepisode *se)
{
	if (se->begun)
		cua_episode_clear(&se->ep);
	free(se);
}

bool serve_episode_room(struct server *s)
{
	if (s->n_episodes < s->o->max_episodes)
		return true;
	struct sepisode *old = NULL;
	for (struct sepisode *e = s->episodes; e; e = e->next)
		if (e->ended && !e->busy && (!old || e->seq < old->seq))
			old = e;
	if (!old)
		return false;
	serve_episode_unlink(s, old);
	serve_episode_free(old);
	return true;
}

/* ---- start and stop ------------------------------------------------------------ */

static void free_server(struct server *s)
{
	while (s->episodes) {
		struct sepisode *e = s->episodes;
		s->episodes = e->next;
		serve_episode_free(e);
	}
	for (int g = 0; g < s->n_slots; g++) {
		for (int i = 0; s->slot[g].base && i < s->cat.n; i++) {
			if (s->slot[g].base[i]) {
				cua_report_clear(s->slot[g].base[i]);
				free(s->slot[g].base[i]);
			}
			pthread_mutex_destroy(&s->slot[g].task_lock[i]);
		}
		free(s->slot[g].base);
		free(s->slot[g].task_lock);
		pthread_mutex_destroy(&s->slot[g].gpu);
	}
	for (int i = 0; i < s->n_retired; i++) {
		cua_report_clear(s->retired[i]);
		free(s->retired[i]);
	}
	free(s->retired);
	cua_writer_close(s->w);   /* the folder's lock goes with it */
	cua_catalogue_clear(&s->cat);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->work);
}

/* Answers every queued request 503 and stops running builds. */
static void drain(struct server *s)
{
	pthread_mutex_lock(&s->lock);
	for (struct job *j = s->head; j; j = j->next) {
		j->reply = cua_env_error("the server is stopping: not evaluated");
		j->http = MHD_HTTP_SERVICE_UNAVAILABLE;
		j->state = JOB_DONE;
		if (j->ep)
			j->ep->busy = false;
		pthread_cond_broadcast(&j->done);
	}
	s->head = s->tail = NULL;
	s->depth = 0;
	for (int i = 0; i < s->n_builders; i++)
		if (s->active[i])
			s->active[i]->cancel = 1;
	pthread_cond_broadcast(&s->work);
	pthread_mutex_unlock(&s->lock);
}

static enum cua_status setup(struct server *s, const struct cua_serve_opts *o, char *err,
                             size_t errlen)
{
	char names[CUA_MAX_GPUS][64];
	s->o = o;
	s->n_slots = 1;
	if (o->gpus && (s->n_slots = cua_run_parse_gpus(o->gpus, names, err, errlen)) < 1)
		return CUA_E_USAGE;
	if (o->queue < 1 || o->queue > 1000000) {
		cua_errf(err, errlen, "--queue %d: must be 1 to 1000000", o->queue);
		return CUA_E_USAGE;
	}
	if (o->max_episodes < 1) {
		cua_errf(err, errlen, "--max-episodes %d: must be at least 1", o->max_episodes);
		return CUA_E_USAGE;
	}
	if (o->max_per_client < 1 || o->client_timeout_s < 1 || o->max_connections < 0) {
		cua_errf(err, errlen, "--max-per-client and --client-timeout-s must be at least 1");
		return CUA_E_USAGE;
	}
	enum cua_status st = cua_catalogue_load(o->root, &s->cat, err, errlen);
	if (st != CUA_OK && st != CUA_E_PARSE)
		return st;
	if (s->cat.n_bad)
		fprintf(stderr, "cuarena serve: %d task folder(s) did not load:\n%s", s->cat.n_bad,
		        s->cat.errors ? s->cat.errors : "");
	s->gpu = cua_have_gpu();
	for (int g = 0; g < s->n_slots; g++) {
		struct slot *sl = &s->slot[g];
		if (o->gpus)
			snprintf(sl->name, sizeof(sl->name), "%.63s", names[g]);
		pthread_mutex_init(&sl->gpu, NULL);
		sl->base = calloc((size_t)s->cat.n + 1, sizeof(*sl->base));
		sl->task_lock = calloc((size_t)s->cat.n + 1, sizeof(*sl->task_lock));
		CUA_ASSERT(sl->base && sl->task_lock);
		for (int i = 0; i < s->cat.n; i++)
			pthread_mutex_init(&sl->task_lock[i], NULL);
	}
	return open_results(s, err, errlen);
}

enum cua_status cua_serve(const struct cua_serve_opts *o, char *err, size_t errlen)
{
	struct server s;
	struct serve_listener l;
	enum cua_status st;

	memset(&s, 0, sizeof(s));
	memset(&l, 0, sizeof(l));
	stopping = 0;
	s.t0 = cua_now();
	pthread_mutex_init(&s.lock, NULL);
	pthread_cond_init(&s.work, NULL);
	st = serve_http_prepare(&s, o, &l, err, errlen);
	if (st == CUA_OK)
		st = setup(&s, o, err, errlen);
	if (st != CUA_OK) {
		free_server(&s);
		return st;
	}

	s.n_builders = o->jobs > 0 ? o->jobs : cua_cpus();
	if (o->jobs <= 0 && s.n_builders < 2 * s.n_slots)
		s.n_builders = 2 * s.n_slots;  /* one building while one is on each GPU */
	if (s.n_builders > MAX_BUILDERS)
		s.n_builders = MAX_BUILDERS;
	pthread_t th[MAX_BUILDERS];
	struct builder_arg ba[MAX_BUILDERS];
	int started = 0;
	for (int i = 0; i < s.n_builders; i++) {
		ba[i] = (struct builder_arg){.s = &s, .index = i};
		if (pthread_create(&th[started], NULL, builder, &ba[i]) == 0)
			started++;
	}
	s.n_builders = started;

	if ((st = serve_http_start(&s, &l, started > 0, err, errlen)) != CUA_OK)
		goto out;
	while (!stopping) {
		struct timespec ts = {0, 100 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	fprintf(stderr, "cuarena serve: stopping (queued requests are answered 503; a kernel "
	        "on a GPU finishes and is kept)\n");
	drain(&s);
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	started = 0;
	serve_http_stop(&l);
	if (cua_writer_run_save(s.w, err, errlen) != CUA_OK)
		st = CUA_E_IO;
	else if (cua_writer_failing(s.w, NULL, 0, NULL)) {
		cua_errf(err, errlen, "the last write to %s failed (see above; what was answered "
		         "200 is recorded)", s.dir);
		st = CUA_E_IO;
	}
out:
	stopping = 1;
	drain(&s);
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	free_server(&s);
	return st;
}
