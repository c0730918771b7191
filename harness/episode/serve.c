/* serve.c — `cuarena serve`: HTTP/JSON on libmicrohttpd (one thread per
 * connection), a bounded queue of jobs, builder threads, one GPU lock per device
 * and the episode code of `run` and `env`; every evaluation appended to a
 * results folder (docs/SERVE.md, docs/RESULTS-FORMAT.md).
 *
 * Longer than the ~900 lines of STYLE on purpose: one server whose queue, builder
 * and GPU workers, episodes and routes share one state (struct server) and one
 * lock order; split, each part would need the whole of it.
 */
#include "episode/serve.h"
#include "episode/envproto.h"
#include "catalogue/prompts.h"
#include "results/results.h"
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
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include <microhttpd.h>

#define MAX_BUILDERS 256
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

	pthread_mutex_t wlock;              /* results files and run_json */
	char dir[CUA_PATH_LEN], workdir[CUA_PATH_LEN];
	int fd_evals, fd_traj, fd_base;
	cJSON *run_json;
	bool *listed;                       /* per task: in run.json's tasks */
	struct cua_device device;
	bool write_failed;
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

/* Appends one JSON object as a line and fsyncs it (the caller holds wlock). */
static void put_line(struct server *s, int fd, cJSON *obj)
{
	int e = cua_results_append(fd, obj);
	if (e && !s->write_failed)
		fprintf(stderr, "cuarena serve: cannot append to %s: %s\n", s->dir, strerror(e));
	if (e)
		s->write_failed = true;
}

static void write_run_json(struct server *s)
{
	char path[CUA_PATH_BUF], err[CUA_ERR_LEN];
	cJSON_DeleteItemFromObject(s->run_json, "device");
	cJSON_AddItemToObject(s->run_json, "device", cua_device_to_json(&s->device));
	char *txt = cJSON_Print(s->run_json);
	snprintf(path, sizeof(path), "%s/run.json", s->dir);
	if (cua_write_file(path, txt, strlen(txt), err, sizeof(err)) != CUA_OK)
		fprintf(stderr, "cuarena serve: %s\n", err);
	free(txt);
}

/* Names the task in run.json's "tasks" the first time it is evaluated, and the
 * GPU once it is known (wlock held). */
static void note_task(struct server *s, int ti, const struct cua_device *dev)
{
	bool dirty = false;
	if (ti >= 0 && !s->listed[ti]) {
		s->listed[ti] = true;
		cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(s->run_json, "tasks"),
		                     cJSON_CreateString(s->cat.tasks[ti]->id));
		dirty = true;
	}
	if (dev && dev->known && !s->device.known) {
		s->device = *dev;
		dirty = true;
	}
	if (dirty)
		write_run_json(s);
}

static cJSON *new_run_json(struct server *s, const char *when)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddNumberToObject(j, "schema", CUA_RESULTS_SCHEMA);
	const char *slash = strrchr(s->dir, '/');
	cJSON_AddStringToObject(j, "run_id", slash ? slash + 1 : s->dir);
	cJSON_AddStringToObject(j, "created", when);
	cJSON *h = cJSON_AddObjectToObject(j, "harness");
	cJSON_AddStringToObject(h, "version", CUA_VERSION);
	cJSON_AddStringToObject(h, "git", cua_git_sha);
	cJSON_AddStringToObject(j, "catalogue_hash", s->cat.hash);
	cJSON_AddNumberToObject(j, "catalogue_version", CUA_CATALOGUE_VERSION);
	const char *nv = cua_nvcc_version(s->o->eval.build.nvcc);
	cJSON_AddStringToObject(j, "nvcc", nv ? nv : "");
	cJSON *a = cJSON_AddObjectToObject(j, "agent");
	cJSON_AddStringToObject(a, "name", "serve");
	cJSON_AddStringToObject(a, "version", CUA_VERSION);
	cJSON_AddItemToObject(a, "config", cJSON_CreateObject());
	char prompts[65];
	if (cua_prompts_hash(s->o->root, prompts, NULL, 0) == CUA_OK)
		cJSON_AddStringToObject(a, "prompts_sha256", prompts);
	/* each request names its own turns and reward: these are the defaults */
	cJSON_AddNumberToObject(j, "turns", 8);
	cJSON_AddStringToObject(j, "reward", cua_reward_name(CUA_REWARD_CUDA_AGENT));
	cJSON_AddNumberToObject(j, "max_time_s", s->o->eval.max_time_s);
	cJSON *ps = cJSON_AddArrayToObject(j, "public_seeds");
	for (int i = 0; i < 3; i++)
		cJSON_AddItemToArray(ps, cJSON_CreateNumber((double)s->o->eval.seeds[i]));
	cJSON_AddArrayToObject(j, "tasks");
	return j;
}


typedef void (*line_fn)(struct server *s, const cJSON *j, void *ctx);

struct walk {
	struct server *s;
	line_fn f;
	void *ctx;
};

static enum cua_status walk_line(void *ctx, const cJSON *j, const struct cua_results_at *at,
                                 char *err, size_t errlen)
{
	struct walk *w = ctx;
	w->f(w->s, j, w->ctx);
	return CUA_OK;
}

/* Calls f on every line of dir/name (missing: none), through the results
 * reader: the torn tail cut first (the server appends next), every line left
 * checked for JSON and its schema. */
static enum cua_status each_line(struct server *s, const char *name, line_fn f, void *ctx,
                                 char *err, size_t errlen)
{
	char path[CUA_PATH_BUF];
	struct walk w = {s, f, ctx};
	snprintf(path, sizeof(path), "%s/%s", s->dir, name);
	return cua_results_each_line(path, CUA_RESULTS_CUT_TORN, walk_line, &w, NULL, err,
	                             errlen);
}

static const char *str_of(const cJSON *j, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* baselines.jsonl: the last measurement of each (task, GPU) is in use again. */
static void prior_base(struct server *s, const cJSON *j, void *ctx)
{
	const char *task = str_of(j, "task");
	const struct cua_task *t = task ? cua_catalogue_find(&s->cat, task, NULL, 0) : NULL;
	int slot = slot_of(s, str_of(j, "gpu"));
	if (!t || slot < 0)
		return;
	int ti = task_index(s, t);
	struct cua_report *r = s->slot[slot].base[ti];
	struct cua_eval e;
	if (cua_eval_from_json(cJSON_GetObjectItemCaseSensitive(j, "eval"), &e, NULL, 0) != CUA_OK)
		return;
	if (!r || cua_report_find(r, e.subject) >= 0 || r->n_base >= (int)CUA_ARRAY_LEN(r->base)) {
		/* a later measurement of the same task replaces the earlier one */
		if (r) {
			cua_report_clear(r);
			free(r);
		}
		r = s->slot[slot].base[ti] = calloc(1, sizeof(*r));
		CUA_ASSERT(r);
		r->task = t;
		r->device = s->device;
	}
	r->base[r->n_base++] = e;
}

/* Baselines a restart found cut short (the server was killed between two of a
 * task's baselines lines) are measured again when next asked for. */
static void drop_cut_baselines(struct server *s)
{
	for (int g = 0; g < s->n_slots; g++)
		for (int ti = 0; ti < s->cat.n; ti++) {
			struct cua_report *r = s->slot[g].base[ti];
			char missing[128];
			if (!r || cua_report_complete(r->task, r, s->o->root,
			                              r->device.known ? r->device.name : NULL,
			                              missing, sizeof(missing)))
				continue;
			fprintf(stderr, "cuarena serve: %s: killed before its %s baseline was "
			        "written: its baselines are measured again\n", r->task->id, missing);
			cua_report_clear(r);
			free(r);
			s->slot[g].base[ti] = NULL;
		}
}

/* What a restart finds of the episodes: the "episode" lines, their steps (evals
 * lines with "episode" and request "step"), their "end" lines. */
struct prior_ep {
	char id[40], gpu[64];
	int task_index, turns, n;
	enum cua_reward_kind reward;
	bool ended;
	struct cua_step steps[CUA_MAX_TURNS];
};

struct prior {
	int n, cap;
	struct prior_ep *e;
};

static struct prior_ep *prior_find(struct prior *p, const char *id)
{
	for (int i = 0; id && i < p->n; i++)
		if (!strcmp(p->e[i].id, id))
			return &p->e[i];
	return NULL;
}

static void prior_traj(struct server *s, const cJSON *j, void *ctx)
{
	struct prior *p = ctx;
	const char *kind = str_of(j, "kind"), *id = str_of(j, "episode");
	if (!kind || !id)
		return;
	if (!strcmp(kind, "end")) {
		struct prior_ep *e = prior_find(p, id);
		if (e)
			e->ended = true;
		return;
	}
	if (strcmp(kind, "episode") || strlen(id) >= sizeof(p->e[0].id) || prior_find(p, id))
		return;
	const char *task = str_of(j, "task"), *rw = str_of(j, "reward");
	const cJSON *turns = cJSON_GetObjectItemCaseSensitive(j, "turns");
	const struct cua_task *t = task ? cua_catalogue_find(&s->cat, task, NULL, 0) : NULL;
	enum cua_reward_kind kind_rw;
	if (!t || !rw || !cua_reward_parse(rw, &kind_rw) || !cJSON_IsNumber(turns) ||
	    turns->valuedouble < 1 || turns->valuedouble > CUA_MAX_TURNS)
		return;
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 16;
		p->e = realloc(p->e, (size_t)p->cap * sizeof(*p->e));
		CUA_ASSERT(p->e);
	}
	struct prior_ep *e = &p->e[p->n++];
	memset(e, 0, sizeof(*e));
	snprintf(e->id, sizeof(e->id), "%s", id);
	const char *gpu = str_of(j, "gpu");
	snprintf(e->gpu, sizeof(e->gpu), "%s", gpu ? gpu : "");
	e->task_index = task_index(s, t);
	e->turns = (int)turns->valuedouble;
	e->reward = kind_rw;
}

static void prior_eval(struct server *s, const cJSON *j, void *ctx)
{
	struct prior *p = ctx;
	const char *req = str_of(j, "request");
	s->recorded++;
	struct prior_ep *e = prior_find(p, str_of(j, "episode"));
	if (!e || !req || strcmp(req, "step") || e->n >= CUA_MAX_TURNS)
		return;
	struct cua_step st;
	if (cua_step_from_json(j, &st, NULL, 0) != CUA_OK)
		return;
	for (int k = 0; k < e->n; k++)
		if (e->steps[k].turn == st.turn) {
			cua_step_clear(&st);   /* never a turn twice */
			return;
		}
	e->steps[e->n++] = st;
}

static struct cua_report *empty_report(const struct cua_task *t)
{
	struct cua_report *r = calloc(1, sizeof(*r));
	CUA_ASSERT(r);
	r->task = t;
	return r;
}

/* Opens the episodes a killed or stopped server left open, where they were. */
static void restore_episodes(struct server *s, struct prior *p)
{
	int restored = 0, lost = 0;
	for (int i = 0; i < p->n; i++) {
		struct prior_ep *e = &p->e[i];
		int slot = slot_of(s, e->gpu);
		if (e->ended)
			continue;
		struct cua_report **b = slot >= 0 ? &s->slot[slot].base[e->task_index] : NULL;
		if (b && !*b && !s->gpu)
			*b = empty_report(s->cat.tasks[e->task_index]);
		if (!b || !*b) {
			lost++;      /* its GPU is not served now, or its baselines are gone */
			continue;
		}
		struct sepisode *se = calloc(1, sizeof(*se));
		CUA_ASSERT(se);
		snprintf(se->id, sizeof(se->id), "%s", e->id);
		se->slot = slot;
		se->task_index = e->task_index;
		struct cua_env_reset r = {.task = s->cat.tasks[e->task_index], .turns = e->turns,
		                          .reward = e->reward};
		struct cua_eval_opts eo;
		slot_opts(s, slot, &eo);
		char dir[CUA_PATH_BUF], err[CUA_ERR_LEN];
		snprintf(dir, sizeof(dir), "%s/%s", s->workdir, se->id);
		if (cua_env_begin(&se->ep, &r, &eo, *b, dir, &s->slot[slot].gpu, err,
		                  sizeof(err)) != CUA_OK) {
			free(se);
			lost++;
			continue;
		}
		/* steps in turn order */
		for (int a = 1; a < e->n; a++)
			for (int k = a; k > 0 && e->steps[k - 1].turn > e->steps[k].turn; k--) {
				struct cua_step tmp = e->steps[k];
				e->steps[k] = e->steps[k - 1];
				e->steps[k - 1] = tmp;
			}
		cua_episode_restore(&se->ep, e->steps, e->n);
		se->begun = true;
		se->seq = ++s->seq;
		se->next = s->episodes;
		s->episodes = se;
		s->n_episodes++;
		restored++;
	}
	if (restored || lost)
		fprintf(stderr, "cuarena serve: %d open episode(s) restored from %s%s\n", restored,
		        s->dir, lost ? " (some could not be: their GPU is not served now)" : "");
}

/* Creates or continues the results folder. */
static enum cua_status open_results(struct server *s, char *err, size_t errlen)
{
	char when[64], path[CUA_PATH_BUF];
	time_t now = time(NULL);
	struct tm tmv;
	gmtime_r(&now, &tmv);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tmv);
	char id[64];
	strftime(id, sizeof(id), "%Y%m%d-%H%M%S", &tmv);
	enum cua_status st = s->o->results
	                     ? cua_pathf(s->dir, sizeof(s->dir), err, errlen, "%s", s->o->results)
	                     : cua_pathf(s->dir, sizeof(s->dir), err, errlen, "%s/results/%s-serve",
	                                 s->o->root, id);
	/* every episode's folder is built from this one, so it is checked once here */
	if (st == CUA_OK)
		st = cua_pathf(s->workdir, sizeof(s->workdir), err, errlen, "%s/work", s->dir);
	if (st == CUA_OK)
		st = cua_mkdirs(s->dir, err, errlen);
	if (st != CUA_OK)
		return st;
	s->listed = calloc((size_t)s->cat.n + 1, sizeof(*s->listed));
	CUA_ASSERT(s->listed);
	snprintf(path, sizeof(path), "%s/run.json", s->dir);
	if (access(path, F_OK) == 0) {
		if ((st = cua_results_read_run_json(s->dir, &s->run_json, err, errlen)) != CUA_OK)
			return st;
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(s->run_json, "agent");
		const char *name = str_of(a, "name");
		if (!cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(s->run_json, "tasks")) ||
		    !name || strcmp(name, "serve")) {
			cua_errf(err, errlen, "%s: not a folder of `cuarena serve` (agent.name \"%s\", "
			         "tasks): give a new or a serve results folder", path,
			         name ? name : "");
			return CUA_E_USAGE;
		}
		const cJSON *x;
		cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(s->run_json, "tasks"))
		{
			const struct cua_task *t = cJSON_IsString(x)
			    ? cua_catalogue_find(&s->cat, x->valuestring, NULL, 0) : NULL;
			if (t)
				s->listed[task_index(s, t)] = true;
		}
		cua_device_from_json(cJSON_GetObjectItemCaseSensitive(s->run_json, "device"),
		                     &s->device);
		cJSON *res = cJSON_GetObjectItemCaseSensitive(s->run_json, "resumed");
		if (!cJSON_IsArray(res))
			res = cJSON_AddArrayToObject(s->run_json, "resumed");
		cJSON_AddItemToArray(res, cJSON_CreateString(when));
	} else
		s->run_json = new_run_json(s, when);
	write_run_json(s);

	struct prior p = {0};
	if ((st = each_line(s, "baselines.jsonl", prior_base, NULL, err, errlen)) != CUA_OK ||
	    (st = each_line(s, "trajectories.jsonl", prior_traj, &p, err, errlen)) != CUA_OK ||
	    (st = each_line(s, "evals.jsonl", prior_eval, &p, err, errlen)) != CUA_OK)
		goto out;
	drop_cut_baselines(s);
	restore_episodes(s, &p);
	static const char *const names[] = {"evals.jsonl", "trajectories.jsonl",
	                                    "baselines.jsonl"};
	int *fds[] = {&s->fd_evals, &s->fd_traj, &s->fd_base};
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", s->dir, names[i]);
		*fds[i] = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (*fds[i] < 0) {
			cua_errf(err, errlen, "%s: %s", path, strerror(errno));
			st = CUA_E_IO;
			goto out;
		}
	}
out:
	for (int i = 0; i < p.n; i++)
		for (int k = 0; k < p.e[i].n; k++)
			cua_step_clear(&p.e[i].steps[k]);
	free(p.e);
	return st;
}

/* An evals line (and the trajectory's turn line) for one evaluation. */
static void record_eval(struct server *s, const struct job *j, const struct cua_task *t,
                        const struct cua_step *st, const char *episode,
                        const char *observation)
{
	const char *gpu = s->slot[j->slot].name;
	cJSON *ev = cua_step_to_json(st);
	cJSON_AddStringToObject(ev, "task", t->id);
	cJSON_AddNumberToObject(ev, "level", t->level);
	if (gpu[0])
		cJSON_AddStringToObject(ev, "gpu", gpu);
	cJSON_AddStringToObject(ev, "request", kind_name[j->kind]);
	if (episode && episode[0])
		cJSON_AddStringToObject(ev, "episode", episode);
	cJSON_AddStringToObject(ev, "reward_kind", cua_reward_name(j->kind == JOB_STEP
	                        ? j->ep->ep.reward_kind : j->reset.reward));

	cJSON *tl = cJSON_CreateObject();
	char sha[65];
	cua_sha256_hex(observation, strlen(observation), sha);
	cJSON_AddStringToObject(tl, "kind", "turn");
	cJSON_AddStringToObject(tl, "task", t->id);
	cJSON_AddNumberToObject(tl, "turn", st->turn);
	cJSON_AddStringToObject(tl, "prompt_sha256", sha);
	cJSON_AddStringToObject(tl, "observation", observation);
	cJSON_AddStringToObject(tl, "reply", "");
	const char *code = j->kind == JOB_STEP
	    ? str_of(j->req, "code") : j->code;
	if (code)
		cJSON_AddStringToObject(tl, "code", code);
	else
		cJSON_AddNullToObject(tl, "code");
	cJSON_AddStringToObject(tl, "verdict", cua_verdict_name(st->eval.verdict));
	cJSON_AddNumberToObject(tl, "reward", st->reward);
	if (episode && episode[0])
		cJSON_AddStringToObject(tl, "episode", episode);

	pthread_mutex_lock(&s->wlock);
	note_task(s, task_index(s, t), NULL);
	put_line(s, s->fd_evals, ev);
	put_line(s, s->fd_traj, tl);
	pthread_mutex_unlock(&s->wlock);
}

static void record_end(struct server *s, struct sepisode *se, const char *reason)
{
	const struct cua_episode *ep = &se->ep;
	cJSON *l = cJSON_CreateObject();
	cJSON_AddStringToObject(l, "kind", "end");
	cJSON_AddStringToObject(l, "task", ep->task->id);
	cJSON_AddStringToObject(l, "episode", se->id);
	cJSON_AddNumberToObject(l, "turns", ep->turn);
	cJSON_AddStringToObject(l, "reason", reason);
	cJSON_AddNumberToObject(l, "best_turn", ep->best_turn);
	cJSON_AddNumberToObject(l, "final_turn", ep->turn);
	cJSON *rw = cJSON_AddArrayToObject(l, "rewards");
	for (int i = 0; i < ep->turn; i++)
		cJSON_AddItemToArray(rw, cJSON_CreateNumber(ep->rewards[i]));
	pthread_mutex_lock(&s->wlock);
	put_line(s, s->fd_traj, l);
	pthread_mutex_unlock(&s->wlock);
	se->ended = true;
}

/* ---- the work ---------------------------------------------------------------- */

static void count_gpu(struct server *s, int slot, double seconds)
{
	pthread_mutex_lock(&s->lock);
	s->slot[slot].busy_s += seconds;
	pthread_mutex_unlock(&s->lock);
}

/* The task's baselines on a GPU: measured on first use (or on remeasure) and
 * recorded; kept for later requests. *how: "measured", "cached" or "none" (no
 * GPU here: nothing is timed, as in `env`). NULL with err on failure. */
static const struct cua_report *baselines(struct server *s, int slot, int ti, bool remeasure,
                                          const char **how, char *err, size_t errlen)
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
		if (st == CUA_OK) {
			double g0 = cua_now();
			st = cua_report_run(t, NULL, &eo, fresh, err, errlen);
			pthread_mutex_unlock(&g->gpu);
			count_gpu(s, slot, cua_now() - g0);
		} else
			cua_errf(err, errlen, "the server stopped before the baselines of %s were "
			         "measured", t->id);
		if (st != CUA_OK) {
			cua_report_clear(fresh);
			free(fresh);
			pthread_mutex_unlock(&g->task_lock[ti]);
			return NULL;
		}
		pthread_mutex_lock(&s->wlock);
		note_task(s, ti, &fresh->device);
		for (int i = 0; i < fresh->n_base; i++)
			put_line(s, s->fd_base, cua_results_baseline_line(t, &fresh->base[i],
			                                                  g->name[0] ? g->name : NULL));
		pthread_mutex_unlock(&s->wlock);
		*how = "measured";
		pthread_mutex_lock(&s->lock);
		s->baselines_measured++;
		pthread_mutex_unlock(&s->lock);
	}
	if (r) {
		/* open episodes still borrow the old report: kept until the end */
		pthread_mutex_lock(&s->lock);
		s->retired = realloc(s->retired, (size_t)(s->n_retired + 1) * sizeof(*s->retired));
		CUA_ASSERT(s->retired);
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

/* A failed step or measurement: 503 when it was stopped, 500 otherwise. */
static void job_failed(struct server *s, struct job *j, enum cua_status st, const char *err)
{
	if (st == CUA_E_INTERRUPTED) {
		job_error(j, MHD_HTTP_SERVICE_UNAVAILABLE, err);
		return;
	}
	job_error(j, MHD_HTTP_INTERNAL_SERVER_ERROR, err);
	pthread_mutex_lock(&s->lock);
	s->harness_errors++;
	pthread_mutex_unlock(&s->lock);
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
	const char *how;
	const struct cua_report *base = baselines(s, j->slot, j->task_index, false, &how, err,
	                                          sizeof(err));
	if (!base)
		return job_failed(s, j, stopping ? CUA_E_INTERRUPTED : CUA_E_SYSTEM, err);
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
	if (st == CUA_OK) {
		record_eval(s, j, j->reset.task, &step, j->label, "");
		count_step(s, j->slot, &step);
		j->reply = cua_env_step_reply(&ep, &step);
		/* the earlier turns are not ours to settle: no "rewards" of the episode */
		cJSON_DeleteItemFromObject(j->reply, "rewards");
		cJSON_AddStringToObject(j->reply, "task", j->reset.task->id);
		if (j->label[0])
			cJSON_AddStringToObject(j->reply, "episode", j->label);
		cJSON_AddStringToObject(j->reply, "baselines", how);
		j->http = MHD_HTTP_OK;
	} else
		job_failed(s, j, st, err);
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
	const char *how;
	struct sepisode *se = j->ep;
	const struct cua_report *base = baselines(s, j->slot, j->task_index, j->reset.remeasure,
	                                          &how, err, sizeof(err));
	if (!base)
		return job_failed(s, j, stopping ? CUA_E_INTERRUPTED : CUA_E_SYSTEM, err);
	struct cua_eval_opts eo;
	slot_opts(s, j->slot, &eo);
	snprintf(dir, sizeof(dir), "%s/%s", s->workdir, se->id);
	enum cua_status st = cua_env_begin(&se->ep, &j->reset, &eo, base, dir,
	                                   &s->slot[j->slot].gpu, err, sizeof(err));
	if (st != CUA_OK)
		return job_failed(s, j, st, err);
	se->begun = true;
	se->slot = j->slot;
	cJSON *l = cJSON_CreateObject();
	cJSON_AddStringToObject(l, "kind", "episode");
	cJSON_AddStringToObject(l, "task", j->reset.task->id);
	cJSON_AddStringToObject(l, "episode", se->id);
	cJSON_AddNumberToObject(l, "turns", j->reset.turns);
	cJSON_AddStringToObject(l, "reward", cua_reward_name(j->reset.reward));
	if (s->slot[j->slot].name[0])
		cJSON_AddStringToObject(l, "gpu", s->slot[j->slot].name);
	pthread_mutex_lock(&s->wlock);
	note_task(s, j->task_index, NULL);
	put_line(s, s->fd_traj, l);
	pthread_mutex_unlock(&s->wlock);
	j->reply = cua_env_reset_reply(&se->ep, how, s->gpu);
	cJSON_AddStringToObject(j->reply, "episode", se->id);
	j->http = MHD_HTTP_CREATED;
}

/* POST /v1/episodes/ID/step. */
static void do_step(struct server *s, struct job *j)
{
	char err[CUA_ERR_LEN];
	struct sepisode *se = j->ep;
	struct cua_step step;
	char *shown = strdup(se->ep.obs_text ? se->ep.obs_text : "");
	CUA_ASSERT(shown);
	se->ep.own.build.stop = &j->cancel;
	se->ep.stop = &j->cancel;
	enum cua_status st = cua_env_step(&se->ep, j->req, &step, err, sizeof(err));
	se->ep.own.build.stop = NULL;
	se->ep.stop = NULL;
	if (st == CUA_OK) {
		record_eval(s, j, se->ep.task, &step, se->id, shown);
		count_step(s, j->slot, &step);
		if (se->ep.done) {
			record_end(s, se, se->ep.end_reason[0] ? se->ep.end_reason : "turn limit");
			cua_rmtree(se->ep.workdir);
		}
		j->reply = cua_env_step_reply(&se->ep, &step);
		cJSON_AddStringToObject(j->reply, "episode", se->id);
		j->http = MHD_HTTP_OK;
	} else
		job_failed(s, j, st, err);
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
};

static enum MHD_Result send_text(struct MHD_Connection *c, int code, char *txt,
                                 const char *type, int retry_after)
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
	if (code == MHD_HTTP_UNAUTHORIZED)
		MHD_add_response_header(r, "WWW-Authenticate", "Bearer realm=\"cuarena\"");
	enum MHD_Result ret = MHD_queue_response(c, (unsigned)code, r);
	MHD_destroy_response(r);
	return ret;
}

/* Sends a JSON object (freed) with a trailing newline. */
static enum MHD_Result send_json(struct MHD_Connection *c, int code, cJSON *o,
                                 int retry_after)
{
	char *txt = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	CUA_ASSERT(txt);
	size_t n = strlen(txt);
	char *line = realloc(txt, n + 2);
	CUA_ASSERT(line);
	line[n] = '\n';
	line[n + 1] = '\0';
	return send_text(c, code, line, "application/json", retry_after);
}

/* A 4xx/5xx with {"ok":false,"error":...}, counted. */
static enum MHD_Result refuse(struct server *s, struct MHD_Connection *c, int code,
                              uint64_t *counter, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static enum MHD_Result refuse(struct server *s, struct MHD_Connection *c, int code,
                              uint64_t *counter, const char *fmt, ...)
{
	char msg[1200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	int retry = 0;
	pthread_mutex_lock(&s->lock);
	if (counter)
		(*counter)++;
	if (code == MHD_HTTP_TOO_MANY_REQUESTS || code == MHD_HTTP_SERVICE_UNAVAILABLE) {
		/* about when a place frees: one job's time, at least a second */
		double est = s->job_s * (s->depth + 1) / (s->n_builders ? s->n_builders : 1);
		retry = est < 1 ? 1 : est > 60 ? 60 : (int)ceil(est);
	}
	pthread_mutex_unlock(&s->lock);
	return send_json(c, code, cua_env_error(msg), retry);
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

static bool client_gone(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
	    MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	if (!ci)
		return false;
	struct pollfd p = {.fd = ci->connect_fd, .events = POLLRDHUP};
	return poll(&p, 1, 0) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR));
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
		return refuse(s, c, MHD_HTTP_SERVICE_UNAVAILABLE, &s->rejected_stopping,
		              "the server is stopping");
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
		if (j->state == JOB_DONE || j->cancel || !client_gone(c))
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
	return send_json(c, j->http, reply, 0);
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
	if (delete && !se->ep.done)
		cua_episode_end(&se->ep, "closed");
	if (delete && !se->ended) {
		record_end(s, se, se->ep.end_reason);
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
	return send_json(c, MHD_HTTP_OK, o, 0);
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
	return send_json(c, MHD_HTTP_OK, o, 0);
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
	return send_json(c, MHD_HTTP_OK, o, 0);
}

static enum MHD_Result get_health(struct server *s, struct MHD_Connection *c)
{
	cJSON *o = cJSON_CreateObject();
	pthread_mutex_lock(&s->lock);
	cJSON_AddBoolToObject(o, "ok", !stopping);
	cJSON_AddStringToObject(o, "version", CUA_VERSION);
	cJSON_AddNumberToObject(o, "gpus", s->n_slots);
	cJSON_AddBoolToObject(o, "gpu_present", s->gpu);
	cJSON_AddNumberToObject(o, "queue", s->depth);
	cJSON_AddNumberToObject(o, "queue_capacity", s->o->queue);
	cJSON_AddNumberToObject(o, "running", s->running);
	cJSON_AddNumberToObject(o, "episodes", s->n_episodes);
	cJSON_AddNumberToObject(o, "evaluations_recorded", (double)s->recorded);
	cJSON_AddStringToObject(o, "results", s->dir);
	pthread_mutex_unlock(&s->lock);
	return send_json(c, stopping ? MHD_HTTP_SERVICE_UNAVAILABLE : MHD_HTTP_OK, o, 0);
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
	metric(&b, "cuarena_harness_errors_total", "counter",
	       "Requests the harness could not work (answered 500).");
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
	return send_text(c, MHD_HTTP_OK, b.s, "text/plain; version=0.0.4", 0);
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

/* Everything but a POST body: routes answered at once. */
static enum MHD_Result route_now(struct server *s, struct MHD_Connection *c, const char *url,
                                 const char *method)
{
	bool get = !strcmp(method, "GET") || !strcmp(method, "HEAD");
	bool del = !strcmp(method, "DELETE");
	const char *ep = "/v1/episodes/", *tk = "/v1/tasks/";
	if (!strcmp(url, "/healthz") && get)
		return get_health(s, c);
	if (!strcmp(url, "/metrics") && get)
		return get_metrics(s, c);
	if (!strcmp(url, "/v1/tasks") && get)
		return get_tasks(s, c);
	if (!strncmp(url, tk, strlen(tk)) && url[strlen(tk)] && get)
		return get_task(s, c, url + strlen(tk));
	if (!strncmp(url, ep, strlen(ep)) && url[strlen(ep)] && !strchr(url + strlen(ep), '/') &&
	    (get || del))
		return episode_request(s, c, url + strlen(ep), del);
	char id[64];
	bool known = !strcmp(url, "/healthz") || !strcmp(url, "/metrics") ||
	             !strncmp(url, "/v1/tasks", 9) || is_post_route(url, id, sizeof(id)) ||
	             !strncmp(url, ep, strlen(ep));
	if (known)
		return refuse(s, c, MHD_HTTP_METHOD_NOT_ALLOWED, &s->rejected_bad,
		              "%s %s: method not allowed (docs/SERVE.md lists the endpoints)", method,
		              url);
	return refuse(s, c, 404, &s->rejected_missing, "%s: no such endpoint (docs/SERVE.md "
	              "lists them)", url);
}

static enum MHD_Result post_body(struct server *s, struct MHD_Connection *c, const char *url,
                                 struct req *r)
{
	char id[64];
	if (r->too_large)
		return refuse(s, c, MHD_HTTP_CONTENT_TOO_LARGE, &s->rejected_large,
		              "the request body is over %zu bytes (--max-body)", s->o->max_body);
	struct job j;
	memset(&j, 0, sizeof(j));
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
		r = calloc(1, sizeof(*r));
		if (!r)
			return MHD_NO;
		*ctx = r;
		bool public_health = !strcmp(url, "/healthz");
		if (!public_health && !authorized(s, c))
			return refuse(s, c, MHD_HTTP_UNAUTHORIZED, &s->rejected_auth,
			              "a bearer token is required (Authorization: Bearer ...)");
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
				char *nb = realloc(r->body, r->cap);
				if (!nb)
					return MHD_NO;
				r->body = nb;
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
	int *fds[] = {&s->fd_evals, &s->fd_traj, &s->fd_base};
	for (int i = 0; i < 3; i++)
		if (*fds[i] > 0)
			close(*fds[i]);
	cJSON_Delete(s->run_json);
	free(s->listed);
	cua_catalogue_clear(&s->cat);
	pthread_mutex_destroy(&s->lock);
	pthread_mutex_destroy(&s->wlock);
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
	char host[256];
	int port;
	struct sockaddr_storage ss;
	socklen_t sl;
	enum cua_status st;

	memset(&s, 0, sizeof(s));
	stopping = 0;
	s.t0 = cua_now();
	pthread_mutex_init(&s.lock, NULL);
	pthread_mutex_init(&s.wlock, NULL);
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
	struct MHD_Daemon *d = started ? MHD_start_daemon(flags, (uint16_t)port, NULL, NULL,
	    handle, &s, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
	    MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
	    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)120,
	    MHD_OPTION_CONNECTION_LIMIT, (unsigned)4096,
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
	        "builders, queue %d, %s), results in %s\n",
	        ss.ss_family == AF_INET6 ? "[" : "", host, ss.ss_family == AF_INET6 ? "]" : "",
	        bound, s.n_slots, s.n_slots == 1 ? "" : "s", s.gpu ? "" : " (no GPU here)",
	        s.n_builders, o->queue, s.auth ? "bearer token required" : "no token",
	        s.dir);
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
	pthread_mutex_lock(&s.wlock);
	write_run_json(&s);
	pthread_mutex_unlock(&s.wlock);
	if (s.write_failed) {
		cua_errf(err, errlen, "appending to %s failed (see above)", s.dir);
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
