/* serve.c — `cuarena serve`: HTTP/JSON on libmicrohttpd (one thread per
 * connection), a bounded queue of jobs, builder threads, one GPU lock per device
 * and the episode code of `run` and `env`; every evaluation appended to a
 * results folder (docs/SERVE.md, docs/RESULTS-FORMAT.md).
 *
 * Longer than docs/CODE-STYLE.md's ~900 lines on purpose: one server whose queue, builder
 * and GPU workers, episodes and routes share one state (struct server) and one
 * lock order; split, each part would need the whole of it.
 */
#include "episode/serve.h"
#include "episode/envproto.h"
#include "catalogue/prompts.h"
#include "results/prior.h"
#include "results/writer.h"
#include "episode/run.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include <microhttpd.h>

#define MAX_BUILDERS 256
#define FD_RESERVE 256            /* descriptors kept for judges, builds, results files */
#define WAIT_POLL_MS 100          /* how often a waiting request looks at its client */

static volatile sig_atomic_t stopping;

void cua_serve_stop(void)
{
	stopping = 1;
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

enum job_kind { JOB_EVALUATE, JOB_RESET, JOB_STEP, JOB_KINDS };
static const char *const kind_name[JOB_KINDS] = {"evaluate", "reset", "step"};

enum job_state { JOB_QUEUED, JOB_RUNNING, JOB_DONE };

struct sepisode;

/* One request's work. Owned by the connection thread that made it; a builder
 * fills reply and http, then marks it done (under the server lock) and never
 * touches it again. */
struct job {
	enum job_kind kind;
	enum job_state state;
	struct job *next;                   /* queue link */
	uint64_t seq;
	double t_queued;
	volatile sig_atomic_t cancel;       /* the client left, or the server stops */
	pthread_cond_t done;                /* with server.lock */
	struct cua_env_reset reset;         /* EVALUATE, RESET: task, turns, reward */
	int task_index;
	cJSON *req;                         /* the request (owned) */
	const char *code;                   /* EVALUATE: in req; NULL = no code */
	const char *note;
	int turn;                           /* EVALUATE */
	char label[80];                     /* EVALUATE: the client's episode id */
	struct sepisode *ep;                /* STEP */
	int slot;
	int http;                           /* 0 = no answer (cancelled) */
	int retry_after;                    /* seconds, for a 503; 0 none */
	bool http10;                        /* an HTTP/1.0 request: no interim replies */
	bool probed;                        /* a half-closed client was sent "100" */
	cJSON *reply;
};

/* An episode kept server-side (POST /v1/episodes). */
struct sepisode {
	char id[40];
	int slot, task_index;
	struct cua_episode ep;
	bool begun;                         /* ep is live (cua_episode_clear it) */
	bool busy;                          /* a step (or the reset) is queued or running */
	bool ended;                         /* its end line is written */
	uint64_t seq;                       /* creation order, for eviction */
	struct sepisode *next;
};

/* One GPU: its lock, its baselines, its counters. */
struct slot {
	char name[64];                      /* "" = this process's device */
	pthread_mutex_t gpu;                /* one evaluation at a time */
	pthread_mutex_t *task_lock;         /* per task: one measurement at a time */
	struct cua_report **base;           /* per task; NULL = not measured yet */
	int in_flight;                      /* jobs assigned (server.lock) */
	double busy_s;                      /* GPU seconds (server.lock) */
};

struct server {
	const struct cua_serve_opts *o;
	struct cua_catalogue cat;
	bool gpu;                           /* /dev/nvidia* here */
	int n_slots;
	struct slot slot[CUA_MAX_GPUS];
	char token[512];
	bool auth;
	double t0;

	pthread_mutex_t lock;               /* everything below, up to the results */
	pthread_cond_t work;
	struct job *head, *tail;
	int depth, depth_max, running, n_builders;
	struct job *active[MAX_BUILDERS];   /* what each builder works on */
	struct sepisode *episodes;
	int n_episodes;
	uint64_t seq;
	double job_s;                       /* running mean of a job's duration */
	uint64_t accepted[JOB_KINDS], verdicts[CUA_VERDICT_COUNT], evaluations, recorded;
	uint64_t rejected_full, rejected_bad, rejected_auth, rejected_large, rejected_missing,
	         rejected_conflict, rejected_episodes, rejected_stopping;
	uint64_t cancelled_queued, cancelled_running, harness_errors, baselines_measured;
	double wait_sum;
	uint64_t wait_n;
	struct cua_report **retired;        /* remeasured away, still borrowed */
	int n_retired;

	uint64_t rejected_unwritable, rejected_harness;
	double write_failed_at;             /* cua_now() of the last failed record; 0 none */

	struct cua_writer *w;               /* the results folder's one writer */
	char dir[CUA_PATH_LEN], workdir[CUA_PATH_LEN];
	struct cua_device device;           /* of the baselines measured (w's lock) */
};

static int task_index(const struct server *s, const struct cua_task *t)
{
	for (int i = 0; i < s->cat.n; i++)
		if (s->cat.tasks[i] == t)
			return i;
	return -1;
}

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
			se->seq = ++s->seq;
			se->next = s->episodes;
			s->episodes = se;
			s->n_episodes++;
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
		const cJSON *run = cua_writer_run(s->w);
		const char *name = str_of(cJSON_GetObjectItemCaseSensitive(run, "agent"), "name");
		if (!cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(run, "tasks")) ||
		    !name || strcmp(name, "serve")) {
			cua_errf(err, errlen, "%s: not a folder of `cuarena serve` (agent.name \"%s\", "
			         "tasks): give a new or a serve results folder", path,
			         name ? name : "");
			return CUA_E_USAGE;
		}
		cua_device_from_json(cJSON_GetObjectItemCaseSensitive(run, "device"), &s->device);
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

/* Why a request was answered 503: a trainer retries each (docs/SERVE.md). */
#define WHY_HARNESS "harness_error"     /* the harness failed, not the kernel */
#define WHY_UNRECORDED "unrecorded"     /* evaluated, but the results could not be written */
#define WHY_STOPPING "stopping"
#define RETRY_S 5                       /* Retry-After of a harness failure or a full disk */
/* After a record failed, requests are refused for this long before one is
 * evaluated again: a full disk does not make every request cost a GPU's time. */
#define UNWRITABLE_HOLD_S 2.0

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

/* The episode's end line; false (the episode stays open) when it could not be
 * written. */
static bool record_end(struct server *s, struct sepisode *se, const char *reason)
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
			if ((st = cua_writer_baseline(s->w, t, &fresh->base[i], g->name, err,
			                              errlen)) != CUA_OK)
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

static void random_id(char *buf, size_t len)
{
	unsigned char r[8] = {0};
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || read(fd, r, sizeof(r)) != (ssize_t)sizeof(r)) {
		uint64_t x = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32) ^
		             (uint64_t)(cua_now() * 1e9);
		memcpy(r, &x, sizeof(r));
	}
	if (fd >= 0)
		close(fd);
	char hex[17];
	cua_hex(r, sizeof(r), hex);
	snprintf(buf, len, "ep-%s", hex);
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

/* What a step changes in its episode, to put back when its turn is not kept (a
 * harness failure, a record that could not be written): the trainer sends the
 * step again and gets the turn it asked for. */
struct ep_mark {
	int turn, best_turn;
	double best_speedup;
	bool done;
	double rewards[CUA_MAX_TURNS];
	char end_reason[sizeof(((struct cua_episode *)0)->end_reason)];
	char *obs_text;
	cJSON *obs_json;
};

static void mark(const struct cua_episode *ep, struct ep_mark *m)
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

static void rewind_to(struct cua_episode *ep, struct ep_mark *m)
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
	mark(&se->ep, &m);
	se->ep.own.build.stop = &j->cancel;
	se->ep.stop = &j->cancel;
	enum cua_status st = cua_env_step(&se->ep, j->req, &step, err, sizeof(err));
	se->ep.own.build.stop = NULL;
	se->ep.stop = NULL;
	if (st != CUA_OK)
		job_failed(s, j, st, err);   /* the turn was not taken */
	else if (harness_failed(s, j, &step))
		rewind_to(&se->ep, &m);
	else if (record_eval(s, j, se->ep.task, &step, se->id, shown, err,
	                     sizeof(err)) != CUA_OK) {
		rewind_to(&se->ep, &m);
		job_unavailable(s, j, WHY_UNRECORDED, "evaluated, but the results could not be "
		                "recorded: %s (the turn is not taken: send the step again)", err);
	} else {
		count_step(s, j->slot, &step);
		/* an end line that cannot be written leaves the episode open on disk: a
		 * DELETE writes it later */
		if (se->ep.done &&
		    record_end(s, se, se->ep.end_reason[0] ? se->ep.end_reason : "turn limit"))
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

/* ---- HTTP ------------------------------------------------------------------ */

/* One request's state across the access handler's calls. */
struct req {
	char *body;
	size_t len, cap;
	bool too_large;
	bool http10;                        /* an HTTP/1.0 request */
};

static enum MHD_Result send_text(struct MHD_Connection *c, int code, char *txt,
                                 const char *type, int retry_after, const char *allow)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(txt), txt,
	                                                         MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(txt);
		return MHD_NO;
	}
	MHD_add_response_header(r, "Content-Type", type);
	if (retry_after > 0) {
		char v[16];
		snprintf(v, sizeof(v), "%d", retry_after);
		MHD_add_response_header(r, "Retry-After", v);
	}
	if (allow)
		MHD_add_response_header(r, "Allow", allow);
	if (code == MHD_HTTP_UNAUTHORIZED)
		MHD_add_response_header(r, "WWW-Authenticate", "Bearer realm=\"cuarena\"");
	enum MHD_Result ret = MHD_queue_response(c, (unsigned)code, r);
	MHD_destroy_response(r);
	return ret;
}

/* Sends a JSON object (freed) with a trailing newline. */
static enum MHD_Result send_json(struct MHD_Connection *c, int code, cJSON *o,
                                 int retry_after, const char *allow)
{
	char *txt = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	CUA_ASSERT(txt);
	size_t n = strlen(txt);
	char *line = cua_xrealloc(txt, n + 2);
	line[n] = '\n';
	line[n + 1] = '\0';
	return send_text(c, code, line, "application/json", retry_after, allow);
}

/* A 4xx/5xx with {"ok":false,"error":...}, counted. The message may quote the
 * request (a path, a method): it is sent as valid UTF-8 whatever came in. A 503
 * says why (WHY_*) and that it can be retried; allow: a 405's Allow header. */
static enum MHD_Result vrefuse(struct server *s, struct MHD_Connection *c, int code,
                               const char *why, const char *allow, uint64_t *counter,
                               const char *fmt, va_list ap)
{
	char msg[1200];
	vsnprintf(msg, sizeof(msg), fmt, ap);
	int retry = 0;
	pthread_mutex_lock(&s->lock);
	if (counter)
		(*counter)++;
	if (code == MHD_HTTP_TOO_MANY_REQUESTS || code == MHD_HTTP_SERVICE_UNAVAILABLE) {
		/* about when a place frees: one job's time, at least a second */
		double est = s->job_s * (s->depth + 1) / (s->n_builders ? s->n_builders : 1);
		retry = est < 1 ? 1 : est > 60 ? 60 : (int)ceil(est);
		if (why && !strcmp(why, WHY_UNRECORDED) && retry < (int)ceil(UNWRITABLE_HOLD_S))
			retry = (int)ceil(UNWRITABLE_HOLD_S);
	}
	pthread_mutex_unlock(&s->lock);
	char *clean = cua_utf8_clean(msg, strlen(msg), NULL);
	cJSON *o = cua_env_error(clean);
	free(clean);
	if (why) {
		cJSON_AddBoolToObject(o, "retryable", true);
		cJSON_AddStringToObject(o, "reason", why);
	}
	return send_json(c, code, o, retry, allow);
}

static enum MHD_Result refuse(struct server *s, struct MHD_Connection *c, int code,
                              uint64_t *counter, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static enum MHD_Result refuse(struct server *s, struct MHD_Connection *c, int code,
                              uint64_t *counter, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	enum MHD_Result r = vrefuse(s, c, code, NULL, NULL, counter, fmt, ap);
	va_end(ap);
	return r;
}

/* A 503 the client may retry, saying why. */
static enum MHD_Result unavailable(struct server *s, struct MHD_Connection *c, const char *why,
                                   uint64_t *counter, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static enum MHD_Result unavailable(struct server *s, struct MHD_Connection *c, const char *why,
                                   uint64_t *counter, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	enum MHD_Result r = vrefuse(s, c, MHD_HTTP_SERVICE_UNAVAILABLE, why, NULL, counter, fmt,
	                            ap);
	va_end(ap);
	return r;
}

/* A 405 with its Allow header. */
static enum MHD_Result method_not_allowed(struct server *s, struct MHD_Connection *c,
                                          const char *allow, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static enum MHD_Result method_not_allowed(struct server *s, struct MHD_Connection *c,
                                          const char *allow, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	enum MHD_Result r = vrefuse(s, c, MHD_HTTP_METHOD_NOT_ALLOWED, NULL, allow,
	                            &s->rejected_bad, fmt, ap);
	va_end(ap);
	return r;
}

static bool authorized(const struct server *s, struct MHD_Connection *c)
{
	if (!s->auth)
		return true;
	const char *h = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Authorization");
	if (!h || strncasecmp(h, "Bearer ", 7))
		return false;
	h += 7;
	size_t n = strlen(h), m = strlen(s->token);
	/* compared in time that does not depend on where they differ */
	unsigned char diff = n != m;
	for (size_t i = 0; i < m; i++)
		diff |= (unsigned char)(s->token[i] ^ (i < n ? h[i] : 0));
	return diff == 0;
}

/* Whether the client of a waiting request has gone. A client that shut its
 * sending side (POLLRDHUP) may have closed the connection or only half-closed it
 * and still read the answer; the two look alike until something is sent, so it
 * is sent an interim "100 Continue" (which HTTP/1.1 clients read past): a client
 * that closed answers with a reset, seen at the next look (POLLHUP, POLLERR). */
static bool client_gone(struct MHD_Connection *c, struct job *j)
{
	static const char probe[] = "HTTP/1.1 100 Continue\r\n\r\n";
	const union MHD_ConnectionInfo *ci =
	    MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	if (!ci)
		return false;
	struct pollfd p = {.fd = ci->connect_fd, .events = POLLRDHUP};
	if (poll(&p, 1, 0) <= 0)
		return false;
	if (p.revents & (POLLHUP | POLLERR))
		return true;
	if (!(p.revents & POLLRDHUP))
		return false;
	if (j->http10)
		return true;   /* no interim reply to ask with: a shut side is a client gone */
	if (j->probed)
		return false;
	j->probed = true;
	/* the connection's thread is ours while the request waits: nothing else writes */
	ssize_t k = send(ci->connect_fd, probe, sizeof(probe) - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
	return k < 0 && errno != EAGAIN && errno != EWOULDBLOCK;
}

/* Queues j and waits for it, watching the client: one that leaves takes its
 * queued job out of the queue, or stops its running build (a kernel already on
 * the GPU finishes there and is recorded). */
static enum MHD_Result run_job(struct server *s, struct MHD_Connection *c, struct job *j)
{
	pthread_cond_init(&j->done, NULL);
	pthread_mutex_lock(&s->lock);
	if (stopping) {
		pthread_mutex_unlock(&s->lock);
		return unavailable(s, c, WHY_STOPPING, &s->rejected_stopping,
		                   "the server is stopping");
	}
	if (s->write_failed_at && cua_now() - s->write_failed_at < UNWRITABLE_HOLD_S) {
		/* a record just failed: nothing is evaluated that could not be kept */
		pthread_mutex_unlock(&s->lock);
		char why[256];
		cua_writer_failing(s->w, why, sizeof(why), NULL);
		return unavailable(s, c, WHY_UNRECORDED, &s->rejected_unwritable, "the results "
		                   "folder cannot be written (%s): nothing is evaluated until it "
		                   "can; retry after Retry-After seconds", why);
	}
	if (s->depth >= s->o->queue) {
		pthread_mutex_unlock(&s->lock);
		return refuse(s, c, MHD_HTTP_TOO_MANY_REQUESTS, &s->rejected_full,
		              "the queue is full (%d waiting): retry after Retry-After seconds",
		              s->o->queue);
	}
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
	while (j->state != JOB_DONE) {
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += WAIT_POLL_MS * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&j->done, &s->lock, &until);
		if (j->state == JOB_DONE || j->cancel || !client_gone(c, j))
			continue;
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
	bool cancelled = j->cancel && !stopping;
	pthread_mutex_unlock(&s->lock);
	pthread_cond_destroy(&j->done);
	if (cancelled || !j->reply)
		return MHD_NO;             /* nobody to answer: close the connection */
	cJSON *reply = j->reply;
	j->reply = NULL;
	return send_json(c, j->http, reply, j->retry_after, NULL);
}

static const cJSON *field(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* POST /v1/evaluate {"task", "code" (or "source"; null: a reply without code),
 * "note", "reward", "turn", "turns", "episode"}. */
static enum MHD_Result post_evaluate(struct server *s, struct MHD_Connection *c,
                                     struct job *j)
{
	char err[CUA_ERR_LEN];
	const cJSON *req = j->req;
	const cJSON *code = field(req, "code"), *source = field(req, "source");
	const cJSON *note = field(req, "note"), *turn = field(req, "turn");
	const cJSON *turns = field(req, "turns"), *label = field(req, "episode");
	if (code && source)
		return refuse(s, c, 400, &s->rejected_bad, "evaluate: give \"code\" or \"source\", "
		              "not both");
	if (!code)
		code = source;
	if (!code || !(cJSON_IsString(code) || cJSON_IsNull(code)))
		return refuse(s, c, 400, &s->rejected_bad, "evaluate: \"code\" (the kernel's CUDA "
		              "source, a string; null for a reply that had none) is required");
	if (note && !cJSON_IsString(note))
		return refuse(s, c, 400, &s->rejected_bad, "evaluate: \"note\" must be a string");
	j->turn = 1;
	if (turn && (!cJSON_IsNumber(turn) || turn->valuedouble < 1 ||
	             turn->valuedouble > CUA_MAX_TURNS || turn->valuedouble != floor(turn->valuedouble)))
		return refuse(s, c, 400, &s->rejected_bad, "evaluate: \"turn\" must be an integer "
		              "from 1 to %d", CUA_MAX_TURNS);
	if (turn)
		j->turn = (int)turn->valuedouble;
	if (label && (!cJSON_IsString(label) || !label->valuestring[0] ||
	              strlen(label->valuestring) >= sizeof(j->label)))
		return refuse(s, c, 400, &s->rejected_bad, "evaluate: \"episode\" must be a "
		              "non-empty string of fewer than %zu bytes", sizeof(j->label));
	if (label)
		snprintf(j->label, sizeof(j->label), "%s", label->valuestring);
	enum cua_status st = cua_env_parse_reset(&s->cat, req, &j->reset, err, sizeof(err));
	if (st != CUA_OK)
		return refuse(s, c, st == CUA_E_NOT_FOUND ? 404 : 400,
		              st == CUA_E_NOT_FOUND ? &s->rejected_missing : &s->rejected_bad,
		              "evaluate: %s", err + (strncmp(err, "reset: ", 7) ? 0 : 7));
	/* "turns" defaults to "turn": feedback says "turn T of T" */
	j->reset.turns = turns ? j->reset.turns : j->turn;
	if (j->reset.turns < j->turn)
		return refuse(s, c, 400, &s->rejected_bad, "evaluate: \"turns\" (%d) is below "
		              "\"turn\" (%d)", j->reset.turns, j->turn);
	j->code = cJSON_IsString(code) ? code->valuestring : NULL;
	j->note = note ? note->valuestring : NULL;
	j->task_index = task_index(s, j->reset.task);
	return run_job(s, c, j);
}

static struct sepisode *find_episode(struct server *s, const char *id)
{
	for (struct sepisode *e = s->episodes; e; e = e->next)
		if (!strcmp(e->id, id))
			return e;
	return NULL;
}

static void unlink_episode(struct server *s, struct sepisode *se)
{
	for (struct sepisode **pp = &s->episodes; *pp; pp = &(*pp)->next)
		if (*pp == se) {
			*pp = se->next;
			s->n_episodes--;
			return;
		}
}

static void free_episode(struct sepisode *se)
{
	if (se->begun)
		cua_episode_clear(&se->ep);
	free(se);
}

/* Makes room for one more episode (server.lock held): the oldest ended one goes.
 * False when every kept episode is open. */
static bool episode_room(struct server *s)
{
	if (s->n_episodes < s->o->max_episodes)
		return true;
	struct sepisode *old = NULL;
	for (struct sepisode *e = s->episodes; e; e = e->next)
		if (e->ended && !e->busy && (!old || e->seq < old->seq))
			old = e;
	if (!old)
		return false;
	unlink_episode(s, old);
	free_episode(old);
	return true;
}

/* POST /v1/episodes: the env protocol's reset. */
static enum MHD_Result post_episode(struct server *s, struct MHD_Connection *c,
                                    struct job *j)
{
	char err[CUA_ERR_LEN];
	enum cua_status st = cua_env_parse_reset(&s->cat, j->req, &j->reset, err, sizeof(err));
	if (st != CUA_OK)
		return refuse(s, c, st == CUA_E_NOT_FOUND ? 404 : 400,
		              st == CUA_E_NOT_FOUND ? &s->rejected_missing : &s->rejected_bad,
		              "%s", err);
	j->task_index = task_index(s, j->reset.task);
	struct sepisode *se = calloc(1, sizeof(*se));
	CUA_ASSERT(se);
	random_id(se->id, sizeof(se->id));
	se->task_index = j->task_index;
	se->busy = true;
	pthread_mutex_lock(&s->lock);
	if (!episode_room(s)) {
		pthread_mutex_unlock(&s->lock);
		free(se);
		return refuse(s, c, MHD_HTTP_TOO_MANY_REQUESTS, &s->rejected_episodes,
		              "%d episodes are open (--max-episodes): DELETE /v1/episodes/ID the "
		              "ones you are done with", s->o->max_episodes);
	}
	se->seq = ++s->seq;
	se->next = s->episodes;
	s->episodes = se;
	s->n_episodes++;
	pthread_mutex_unlock(&s->lock);
	j->ep = se;
	enum MHD_Result ret = run_job(s, c, j);
	bool orphan = se->begun && j->cancel && !stopping;
	if (orphan) {
		/* begun for a client that left: nobody knows its id, so it ends here */
		cua_episode_end(&se->ep, "closed");
		record_end(s, se, "closed");
		cua_rmtree(se->ep.workdir);
	}
	pthread_mutex_lock(&s->lock);
	if (!se->begun || orphan) {    /* refused, cancelled or failed: no episode */
		unlink_episode(s, se);
		free_episode(se);
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

/* Finds episode id for a request and marks it busy; NULL after refusing. */
static struct sepisode *claim_episode(struct server *s, struct MHD_Connection *c,
                                      const char *id, enum MHD_Result *ret)
{
	pthread_mutex_lock(&s->lock);
	struct sepisode *se = find_episode(s, id);
	if (!se || !se->begun) {
		pthread_mutex_unlock(&s->lock);
		*ret = refuse(s, c, 404, &s->rejected_missing, "no episode %.64s (unknown, or "
		              "closed): POST /v1/episodes starts one", id);
		return NULL;
	}
	if (se->busy) {
		pthread_mutex_unlock(&s->lock);
		*ret = refuse(s, c, 409, &s->rejected_conflict, "episode %s: a step is in progress: "
		              "one step at a time", id);
		return NULL;
	}
	se->busy = true;
	pthread_mutex_unlock(&s->lock);
	return se;
}

static void release_episode(struct server *s, struct sepisode *se)
{
	pthread_mutex_lock(&s->lock);
	se->busy = false;
	pthread_mutex_unlock(&s->lock);
}

/* POST /v1/episodes/ID/step {"code"}. */
static enum MHD_Result post_step(struct server *s, struct MHD_Connection *c, struct job *j,
                                 const char *id)
{
	enum MHD_Result ret;
	struct sepisode *se = claim_episode(s, c, id, &ret);
	if (!se)
		return ret;
	/* what cua_env_step would refuse is refused here, before it takes a place */
	if (se->ep.done || !cJSON_IsString(field(j->req, "code"))) {
		char msg[256];
		snprintf(msg, sizeof(msg), "%s", se->ep.done
		         ? "step: the episode is over: send reset (POST /v1/episodes)"
		         : "step: \"code\" (a string) is required");
		release_episode(s, se);
		return refuse(s, c, se->ep.done ? 409 : 400,
		              se->ep.done ? &s->rejected_conflict : &s->rejected_bad, "%s", msg);
	}
	j->ep = se;
	j->task_index = se->task_index;
	return run_job(s, c, j);
}

static cJSON *episode_json(const struct sepisode *se)
{
	const struct cua_episode *ep = &se->ep;
	cJSON *o = cJSON_CreateObject();
	cJSON_AddBoolToObject(o, "ok", true);
	cJSON_AddStringToObject(o, "episode", se->id);
	cJSON_AddStringToObject(o, "task", ep->task->id);
	cJSON_AddNumberToObject(o, "turn", ep->turn + (ep->done ? 0 : 1));
	cJSON_AddNumberToObject(o, "max_turns", ep->max_turns);
	cJSON_AddStringToObject(o, "reward", cua_reward_name(ep->reward_kind));
	cJSON_AddBoolToObject(o, "done", ep->done);
	cJSON_AddNumberToObject(o, "best_turn", ep->best_turn);
	cJSON *rw = cJSON_AddArrayToObject(o, "rewards");
	for (int i = 0; i < ep->turn; i++)
		cJSON_AddItemToArray(rw, cJSON_CreateNumber(ep->rewards[i]));
	cJSON_AddStringToObject(o, "observation", ep->obs_text ? ep->obs_text : "");
	return o;
}

/* GET or DELETE /v1/episodes/ID. */
static enum MHD_Result episode_request(struct server *s, struct MHD_Connection *c,
                                       const char *id, bool delete)
{
	enum MHD_Result ret;
	struct sepisode *se = claim_episode(s, c, id, &ret);
	if (!se)
		return ret;
	if (delete && !se->ended) {
		struct ep_mark m;
		mark(&se->ep, &m);
		if (!se->ep.done)
			cua_episode_end(&se->ep, "closed");
		bool kept = record_end(s, se, se->ep.end_reason);
		if (!kept)
			rewind_to(&se->ep, &m);   /* still open, on disk and here */
		free(m.obs_text);
		cJSON_Delete(m.obs_json);
		if (!kept) {
			char why[256];
			cua_writer_failing(s->w, why, sizeof(why), NULL);
			release_episode(s, se);
			return unavailable(s, c, WHY_UNRECORDED, &s->rejected_unwritable, "episode "
			                   "%s: its end could not be recorded (%s): it stays open; "
			                   "retry the DELETE", se->id, why);
		}
		cua_rmtree(se->ep.workdir);
	}
	cJSON *o = episode_json(se);
	if (delete) {
		pthread_mutex_lock(&s->lock);
		unlink_episode(s, se);
		pthread_mutex_unlock(&s->lock);
		free_episode(se);
	} else
		release_episode(s, se);
	return send_json(c, MHD_HTTP_OK, o, 0, NULL);
}

static enum MHD_Result get_tasks(struct server *s, struct MHD_Connection *c)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddBoolToObject(o, "ok", true);
	cJSON *a = cJSON_AddArrayToObject(o, "tasks");
	for (int i = 0; i < s->cat.n; i++) {
		const struct cua_task *t = s->cat.tasks[i];
		cJSON *x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "id", t->id);
		cJSON_AddNumberToObject(x, "level", t->level);
		cJSON_AddStringToObject(x, "title", t->title);
		cJSON_AddStringToObject(x, "precision", cua_precision_name(t->precision));
		cJSON *b = cJSON_AddArrayToObject(x, "baselines");
		for (int k = 0; k < t->n_baselines; k++)
			cJSON_AddItemToArray(b, cJSON_CreateString(t->baselines[k]));
		cJSON_AddItemToArray(a, x);
	}
	return send_json(c, MHD_HTTP_OK, o, 0, NULL);
}

static enum MHD_Result get_task(struct server *s, struct MHD_Connection *c, const char *name)
{
	char err[CUA_ERR_LEN];
	const struct cua_task *t = cua_catalogue_find(&s->cat, name, err, sizeof(err));
	if (!t)
		return refuse(s, c, 404, &s->rejected_missing, "%s", err);
	char *prompt = cua_prompts_render(t, s->o->root);
	cJSON *o = cJSON_CreateObject();
	cJSON_AddBoolToObject(o, "ok", true);
	cJSON_AddStringToObject(o, "task", t->id);
	cJSON_AddNumberToObject(o, "level", t->level);
	cJSON_AddStringToObject(o, "title", t->title);
	cJSON_AddStringToObject(o, "prompt", prompt ? prompt : "");
	free(prompt);
	return send_json(c, MHD_HTTP_OK, o, 0, NULL);
}

static bool authorized(const struct server *s, struct MHD_Connection *c);

/* GET /healthz, open to all (load balancers): ok, or why not (stopping; the
 * results folder cannot be written, its file named, never its path); the folder
 * itself only to a client that shows the token. */
static enum MHD_Result get_health(struct server *s, struct MHD_Connection *c)
{
	char why[256] = "";
	uint64_t failures = 0;
	bool unwritable = cua_writer_failing(s->w, why, sizeof(why), &failures);
	cJSON *o = cJSON_CreateObject();
	pthread_mutex_lock(&s->lock);
	bool ok = !stopping && !unwritable;
	cJSON_AddBoolToObject(o, "ok", ok);
	if (stopping)
		cJSON_AddStringToObject(o, "reason", "the server is stopping");
	else if (unwritable) {
		char r[400];
		snprintf(r, sizeof(r), "the results folder cannot be written: %s", why);
		cJSON_AddStringToObject(o, "reason", r);
	}
	cJSON_AddStringToObject(o, "version", CUA_VERSION);
	cJSON_AddNumberToObject(o, "gpus", s->n_slots);
	cJSON_AddBoolToObject(o, "gpu_present", s->gpu);
	cJSON_AddNumberToObject(o, "queue", s->depth);
	cJSON_AddNumberToObject(o, "queue_capacity", s->o->queue);
	cJSON_AddNumberToObject(o, "running", s->running);
	cJSON_AddNumberToObject(o, "episodes", s->n_episodes);
	cJSON_AddNumberToObject(o, "evaluations_recorded", (double)s->recorded);
	cJSON_AddBoolToObject(o, "results_writable", !unwritable);
	cJSON_AddNumberToObject(o, "results_write_failures", (double)failures);
	if (s->auth && authorized(s, c))
		cJSON_AddStringToObject(o, "results", s->dir);
	pthread_mutex_unlock(&s->lock);
	return send_json(c, ok ? MHD_HTTP_OK : MHD_HTTP_SERVICE_UNAVAILABLE, o, 0, NULL);
}

static void metric(struct cua_buf *b, const char *name, const char *type, const char *help)
{
	cua_buf_printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* GET /metrics: Prometheus text format 0.0.4. */
static enum MHD_Result get_metrics(struct server *s, struct MHD_Connection *c)
{
	struct cua_buf b = {0};
	pthread_mutex_lock(&s->lock);
	metric(&b, "cuarena_queue_depth", "gauge", "Requests waiting for a builder.");
	cua_buf_printf(&b, "cuarena_queue_depth %d\n", s->depth);
	metric(&b, "cuarena_queue_capacity", "gauge", "Requests that may wait (--queue).");
	cua_buf_printf(&b, "cuarena_queue_capacity %d\n", s->o->queue);
	metric(&b, "cuarena_queue_depth_max", "gauge", "The most requests that waited at once.");
	cua_buf_printf(&b, "cuarena_queue_depth_max %d\n", s->depth_max);
	metric(&b, "cuarena_jobs_running", "gauge", "Requests being built or evaluated.");
	cua_buf_printf(&b, "cuarena_jobs_running %d\n", s->running);
	metric(&b, "cuarena_requests_accepted_total", "counter", "Requests queued, by kind.");
	for (int k = 0; k < JOB_KINDS; k++)
		cua_buf_printf(&b, "cuarena_requests_accepted_total{kind=\"%s\"} %llu\n",
		               kind_name[k], (unsigned long long)s->accepted[k]);
	metric(&b, "cuarena_requests_rejected_total", "counter", "Requests refused, by reason.");
	const struct { const char *why; uint64_t n; } rej[] = {
		{"queue_full", s->rejected_full}, {"bad_request", s->rejected_bad},
		{"unauthorized", s->rejected_auth}, {"too_large", s->rejected_large},
		{"not_found", s->rejected_missing}, {"conflict", s->rejected_conflict},
		{"episodes_full", s->rejected_episodes}, {"stopping", s->rejected_stopping},
		{"unrecorded", s->rejected_unwritable}, {"harness_error", s->harness_errors},
	};
	for (size_t i = 0; i < CUA_ARRAY_LEN(rej); i++)
		cua_buf_printf(&b, "cuarena_requests_rejected_total{reason=\"%s\"} %llu\n",
		               rej[i].why, (unsigned long long)rej[i].n);
	metric(&b, "cuarena_requests_cancelled_total", "counter",
	       "Requests whose client left: dropped from the queue, or stopped while running.");
	cua_buf_printf(&b, "cuarena_requests_cancelled_total{when=\"queued\"} %llu\n"
	               "cuarena_requests_cancelled_total{when=\"running\"} %llu\n",
	               (unsigned long long)s->cancelled_queued,
	               (unsigned long long)s->cancelled_running);
	metric(&b, "cuarena_evaluations_total", "counter", "Kernels evaluated by this process.");
	cua_buf_printf(&b, "cuarena_evaluations_total %llu\n", (unsigned long long)s->evaluations);
	metric(&b, "cuarena_evaluations_recorded", "gauge",
	       "Evaluation lines in the results folder (with those before a restart).");
	cua_buf_printf(&b, "cuarena_evaluations_recorded %llu\n", (unsigned long long)s->recorded);
	metric(&b, "cuarena_verdicts_total", "counter", "Evaluations by verdict.");
	for (int v = 0; v < CUA_VERDICT_COUNT; v++)
		cua_buf_printf(&b, "cuarena_verdicts_total{verdict=\"%s\"} %llu\n",
		               cua_verdict_name((enum cua_verdict)v),
		               (unsigned long long)s->verdicts[v]);
	metric(&b, "cuarena_gpu_busy_seconds_total", "counter",
	       "Seconds each GPU spent evaluating kernels and measuring baselines.");
	for (int g = 0; g < s->n_slots; g++)
		cua_buf_printf(&b, "cuarena_gpu_busy_seconds_total{gpu=\"%s\"} %.6f\n",
		               s->slot[g].name[0] ? s->slot[g].name : "default", s->slot[g].busy_s);
	metric(&b, "cuarena_gpu_jobs", "gauge", "Requests assigned to each GPU now.");
	for (int g = 0; g < s->n_slots; g++)
		cua_buf_printf(&b, "cuarena_gpu_jobs{gpu=\"%s\"} %d\n",
		               s->slot[g].name[0] ? s->slot[g].name : "default", s->slot[g].in_flight);
	metric(&b, "cuarena_baselines_measured_total", "counter",
	       "Task baselines measured (once per task and GPU, again on remeasure).");
	cua_buf_printf(&b, "cuarena_baselines_measured_total %llu\n",
	               (unsigned long long)s->baselines_measured);
	uint64_t failures = 0;
	bool unwritable = cua_writer_failing(s->w, NULL, 0, &failures);
	metric(&b, "cuarena_results_write_failures_total", "counter",
	       "Writes to the results folder that failed (each cut back; its request "
	       "answered 503).");
	cua_buf_printf(&b, "cuarena_results_write_failures_total %llu\n",
	               (unsigned long long)failures);
	metric(&b, "cuarena_results_writable", "gauge",
	       "1 while the last write to the results folder succeeded.");
	cua_buf_printf(&b, "cuarena_results_writable %d\n", !unwritable);
	metric(&b, "cuarena_harness_errors_total", "counter",
	       "Requests the harness failed (no GPU, a lost GPU, a dead judge): answered 503.");
	cua_buf_printf(&b, "cuarena_harness_errors_total %llu\n",
	               (unsigned long long)s->harness_errors);
	metric(&b, "cuarena_episodes_open", "gauge", "Episodes kept by the server.");
	cua_buf_printf(&b, "cuarena_episodes_open %d\n", s->n_episodes);
	metric(&b, "cuarena_queue_wait_seconds", "summary", "Time requests waited in the queue.");
	cua_buf_printf(&b, "cuarena_queue_wait_seconds_sum %.6f\ncuarena_queue_wait_seconds_count "
	               "%llu\n", s->wait_sum, (unsigned long long)s->wait_n);
	metric(&b, "cuarena_uptime_seconds", "gauge", "Seconds since the server started.");
	cua_buf_printf(&b, "cuarena_uptime_seconds %.3f\n", cua_now() - s->t0);
	pthread_mutex_unlock(&s->lock);
	return send_text(c, MHD_HTTP_OK, b.s, "text/plain; version=0.0.4", 0, NULL);
}

static bool is_post_route(const char *url, char *id, size_t idlen)
{
	if (!strcmp(url, "/v1/evaluate") || !strcmp(url, "/v1/episodes"))
		return true;
	const char *p = "/v1/episodes/";
	if (strncmp(url, p, strlen(p)))
		return false;
	const char *rest = url + strlen(p), *slash = strchr(rest, '/');
	if (!slash || strcmp(slash, "/step") || slash == rest || (size_t)(slash - rest) >= idlen)
		return false;
	memcpy(id, rest, (size_t)(slash - rest));
	id[slash - rest] = '\0';
	return true;
}

/* The methods a path takes (a 405's Allow header), NULL for a path that is no
 * endpoint. */
static const char *allowed(const char *url)
{
	const char *ep = "/v1/episodes/", *tk = "/v1/tasks/";
	char id[64];
	if (!strcmp(url, "/healthz") || !strcmp(url, "/metrics") || !strcmp(url, "/v1/tasks") ||
	    (!strncmp(url, tk, strlen(tk)) && url[strlen(tk)]))
		return "GET, HEAD";
	if (!strcmp(url, "/v1/evaluate") || !strcmp(url, "/v1/episodes") ||
	    is_post_route(url, id, sizeof(id)))
		return "POST";
	if (!strncmp(url, ep, strlen(ep)) && url[strlen(ep)] && !strchr(url + strlen(ep), '/'))
		return "GET, HEAD, DELETE";
	return NULL;
}

/* Everything but a POST body: routes answered at once. */
static enum MHD_Result route_now(struct server *s, struct MHD_Connection *c, const char *url,
                                 const char *method)
{
	bool get = !strcmp(method, "GET") || !strcmp(method, "HEAD");
	bool del = !strcmp(method, "DELETE");
	const char *ep = "/v1/episodes/", *tk = "/v1/tasks/";
	const char *allow = allowed(url);
	if (!allow)
		return refuse(s, c, 404, &s->rejected_missing, "%s: no such endpoint (docs/SERVE.md "
		              "lists them)", url);
	if (!strcmp(url, "/healthz") && get)
		return get_health(s, c);
	if (!strcmp(url, "/metrics") && get)
		return get_metrics(s, c);
	if (!strcmp(url, "/v1/tasks") && get)
		return get_tasks(s, c);
	if (!strncmp(url, tk, strlen(tk)) && get)
		return get_task(s, c, url + strlen(tk));
	if (!strncmp(url, ep, strlen(ep)) && strcmp(allow, "POST") && (get || del))
		return episode_request(s, c, url + strlen(ep), del);
	return method_not_allowed(s, c, allow, "%s %s: method not allowed (%s takes %s; "
	                          "docs/SERVE.md lists the endpoints)", method, url, url, allow);
}

static enum MHD_Result post_body(struct server *s, struct MHD_Connection *c, const char *url,
                                 struct req *r)
{
	char id[64];
	if (r->too_large)
		return refuse(s, c, MHD_HTTP_CONTENT_TOO_LARGE, &s->rejected_large,
		              "the request body is over %zu bytes (--max-body)", s->o->max_body);
	/* JSON text is UTF-8; what is not would be stored and echoed as it came */
	if (!cua_utf8_valid(r->body ? r->body : "", r->len))
		return refuse(s, c, 400, &s->rejected_bad, "the body is not valid UTF-8 (JSON text "
		              "is UTF-8, without NUL bytes): send the source as UTF-8, or escape "
		              "what is not text");
	struct job j;
	memset(&j, 0, sizeof(j));
	j.http10 = r->http10;
	j.req = cJSON_ParseWithLength(r->body ? r->body : "", r->len);
	enum MHD_Result ret;
	if (!j.req) {
		const char *at = cJSON_GetErrorPtr();
		long off = at && r->body && at >= r->body && at <= r->body + r->len
		    ? (long)(at - r->body) : 0;
		ret = refuse(s, c, 400, &s->rejected_bad, "the body is not JSON (an error near "
		             "byte %ld of %zu)", off, r->len);
	} else if (!cJSON_IsObject(j.req)) {
		ret = refuse(s, c, 400, &s->rejected_bad, "the body must be a JSON object");
	} else if (!strcmp(url, "/v1/evaluate")) {
		j.kind = JOB_EVALUATE;
		ret = post_evaluate(s, c, &j);
	} else if (!strcmp(url, "/v1/episodes")) {
		j.kind = JOB_RESET;
		ret = post_episode(s, c, &j);
	} else {
		is_post_route(url, id, sizeof(id));
		j.kind = JOB_STEP;
		ret = post_step(s, c, &j, id);
	}
	cJSON_Delete(j.req);
	cJSON_Delete(j.reply);
	return ret;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *data,
                              size_t *size, void **ctx)
{
	struct server *s = cls;
	struct req *r = *ctx;
	char id[64];
	if (!r) {
		r = cua_xcalloc(1, sizeof(*r));
		*ctx = r;
		r->http10 = !strcmp(version, MHD_HTTP_VERSION_1_0);
		bool public_health = !strcmp(url, "/healthz");
		if (!public_health && !authorized(s, c))
			return refuse(s, c, MHD_HTTP_UNAUTHORIZED, &s->rejected_auth,
			              "a bearer token is required (Authorization: Bearer ...)");
		/* the path as libmicrohttpd decoded it (%XX): refused, never echoed, when
		 * it is not text */
		if (!cua_utf8_valid(url, strlen(url)))
			return refuse(s, c, 400, &s->rejected_bad, "the path is not valid UTF-8");
		if (strcmp(method, "POST") || !is_post_route(url, id, sizeof(id)))
			return route_now(s, c, url, method);
		const char *len = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
		if (len && strtoull(len, NULL, 10) > s->o->max_body)
			return refuse(s, c, MHD_HTTP_CONTENT_TOO_LARGE, &s->rejected_large,
			              "the request body is over %zu bytes (--max-body)",
			              s->o->max_body);
		return MHD_YES;            /* the body comes in the next calls */
	}
	if (*size) {
		if (!r->too_large && r->len + *size > s->o->max_body) {
			r->too_large = true;   /* chunked, without a length: said at the end */
			free(r->body);
			r->body = NULL;
			r->len = 0;
		}
		if (!r->too_large) {
			if (r->len + *size + 1 > r->cap) {
				r->cap = (r->len + *size + 1) * 2;
				r->body = cua_xrealloc(r->body, r->cap);
			}
			memcpy(r->body + r->len, data, *size);
			r->len += *size;
		}
		*size = 0;
		return MHD_YES;
	}
	return post_body(s, c, url, r);
}

static void completed(void *cls, struct MHD_Connection *c, void **ctx,
                      enum MHD_RequestTerminationCode toe)
{
	struct req *r = *ctx;
	if (r) {
		free(r->body);
		free(r);
		*ctx = NULL;
	}
}

/* ---- start and stop ------------------------------------------------------------ */

int cua_serve_parse_listen(const char *s, char *host, size_t hostlen, int *port, char *err,
                           size_t errlen)
{
	const char *colon, *given = s;
	size_t hl;
	if (!s || !*s)
		goto bad;
	if (s[0] == '[') {
		const char *end = strchr(s, ']');
		if (!end || end[1] != ':')
			goto bad;
		hl = (size_t)(end - s - 1);
		colon = end + 1;
		s++;
	} else {
		colon = strrchr(s, ':');
		if (!colon || memchr(s, ':', (size_t)(colon - s)))
			goto bad;
		hl = (size_t)(colon - s);
	}
	if (hl == 0 || hl >= hostlen)
		goto bad;
	memcpy(host, s, hl);
	host[hl] = '\0';
	char *end;
	long p = strtol(colon + 1, &end, 10);
	if (!colon[1] || *end || p < 0 || p > 65535)
		goto bad;
	*port = (int)p;
	return 0;
bad:
	cua_errf(err, errlen, "--listen '%s': expected HOST:PORT (127.0.0.1:8177, "
	         "0.0.0.0:8177, [::1]:8177); port 0 picks a free one", given ? given : "");
	return -1;
}

static bool loopback(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr) >> 24) == 127;
	const struct in6_addr *a = &((const struct sockaddr_in6 *)sa)->sin6_addr;
	if (IN6_IS_ADDR_V4MAPPED(a))
		return a->s6_addr[12] == 127;
	return IN6_IS_ADDR_LOOPBACK(a);
}

/* Reads the token: one line of at least 16 characters, in a file that only its
 * owner may read. */
static enum cua_status read_token(const char *path, char *tok, size_t len, char *err,
                                  size_t errlen)
{
	struct stat st;
	char *buf = NULL;
	size_t n = 0;
	if (stat(path, &st) != 0) {
		cua_errf(err, errlen, "--token-file %s: %s", path, strerror(errno));
		return CUA_E_USAGE;
	}
	if (st.st_mode & 077) {
		cua_errf(err, errlen, "--token-file %s: readable by others (mode %03o): chmod 600 "
		         "it", path, (unsigned)(st.st_mode & 0777));
		return CUA_E_USAGE;
	}
	enum cua_status s = cua_read_file(path, 4096, &buf, &n, err, errlen);
	if (s != CUA_OK)
		return CUA_E_USAGE;
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' ' ||
	             buf[n - 1] == '\t'))
		buf[--n] = '\0';
	bool printable = n > 0;
	for (size_t i = 0; i < n; i++)
		printable &= buf[i] > ' ' && buf[i] < 127;
	if (n < 16 || n >= len || !printable) {
		cua_errf(err, errlen, "--token-file %s: the token must be one line of 16 to %zu "
		         "printable characters without spaces", path, len - 1);
		free(buf);
		return CUA_E_USAGE;
	}
	memcpy(tok, buf, n + 1);
	free(buf);
	return CUA_OK;
}

static enum cua_status resolve(const char *host, int port, struct sockaddr_storage *ss,
                               socklen_t *sl, char *err, size_t errlen)
{
	struct addrinfo hints, *ai = NULL;
	char ps[16];
	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	snprintf(ps, sizeof(ps), "%d", port);
	int rc = getaddrinfo(host, ps, &hints, &ai);
	if (rc != 0 || !ai) {
		cua_errf(err, errlen, "--listen: %s: %s", host, gai_strerror(rc));
		return CUA_E_USAGE;
	}
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	*sl = ai->ai_addrlen;
	freeaddrinfo(ai);
	return CUA_OK;
}

static void free_server(struct server *s)
{
	while (s->episodes) {
		struct sepisode *e = s->episodes;
		s->episodes = e->next;
		free_episode(e);
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

/* Connections at once: asked (0: 4096), and below what this process may open,
 * leaving room for the judges, builds and results files; the soft descriptor
 * limit is raised to the hard one first. */
static unsigned connection_cap(int asked)
{
	struct rlimit rl;
	long cap = asked > 0 ? asked : 4096;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		if (rl.rlim_cur < rl.rlim_max) {
			rl.rlim_cur = rl.rlim_max;
			setrlimit(RLIMIT_NOFILE, &rl);
			getrlimit(RLIMIT_NOFILE, &rl);
		}
		long room = rl.rlim_cur == RLIM_INFINITY ? cap : (long)rl.rlim_cur - FD_RESERVE;
		if (cap > room)
			cap = room;
	}
	return cap < 16 ? 16 : (unsigned)cap;
}

enum cua_status cua_serve(const struct cua_serve_opts *o, char *err, size_t errlen)
{
	struct server s;
	char host[256];
	int port;
	struct sockaddr_storage ss;
	socklen_t sl;
	enum cua_status st;

	memset(&s, 0, sizeof(s));
	stopping = 0;
	s.t0 = cua_now();
	pthread_mutex_init(&s.lock, NULL);
	pthread_cond_init(&s.work, NULL);
	if (cua_serve_parse_listen(o->listen, host, sizeof(host), &port, err, errlen) != 0)
		st = CUA_E_USAGE;
	else
		st = resolve(host, port, &ss, &sl, err, errlen);
	if (st == CUA_OK && !loopback((struct sockaddr *)&ss) && !o->token_file) {
		cua_errf(err, errlen, "--listen %s is reachable beyond this machine: give "
		         "--token-file FILE (a bearer token; docs/SERVE.md)", o->listen);
		st = CUA_E_USAGE;
	}
	if (st == CUA_OK && o->token_file) {
		st = read_token(o->token_file, s.token, sizeof(s.token), err, errlen);
		s.auth = st == CUA_OK;
	}
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

	unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD |
	                 MHD_USE_POLL | MHD_USE_ERROR_LOG;
	if (ss.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	/* A peer may hold only so many connections (one flooding with half-sent
	 * requests cannot lock others out); one that sends nothing for
	 * --client-timeout-s is closed (a request waiting for its evaluation is not
	 * idle: libmicrohttpd does not time a connection while our handler runs);
	 * and all of them stay below the descriptors this process may open. */
	unsigned max_conn = connection_cap(o->max_connections);
	struct MHD_Daemon *d = started ? MHD_start_daemon(flags, (uint16_t)port, NULL, NULL,
	    handle, &s, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
	    MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
	    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)o->client_timeout_s,
	    MHD_OPTION_CONNECTION_LIMIT, max_conn,
	    MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)o->max_per_client,
	    MHD_OPTION_END) : NULL;
	if (!d) {
		cua_errf(err, errlen, "cannot listen on %s: %s", o->listen,
		         started ? strerror(errno) : "no builder thread started");
		st = CUA_E_SYSTEM;
		goto out;
	}
	const union MHD_DaemonInfo *di = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	int bound = di ? di->port : port;
	if (o->port_file) {
		char line[16];
		snprintf(line, sizeof(line), "%d\n", bound);
		if (cua_write_file(o->port_file, line, strlen(line), err, errlen) != CUA_OK) {
			st = CUA_E_IO;
			MHD_stop_daemon(d);
			goto out;
		}
	}
	fprintf(stderr, "cuarena serve: listening on http://%s%s%s:%d (%d GPU worker%s%s, %d "
	        "builders, queue %d, %s; %u connections, %d per client, idle %d s), results "
	        "in %s\n",
	        ss.ss_family == AF_INET6 ? "[" : "", host, ss.ss_family == AF_INET6 ? "]" : "",
	        bound, s.n_slots, s.n_slots == 1 ? "" : "s", s.gpu ? "" : " (no GPU here)",
	        s.n_builders, o->queue, s.auth ? "bearer token required" : "no token",
	        max_conn, o->max_per_client, o->client_timeout_s, s.dir);
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
	MHD_stop_daemon(d);
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
