/* serve-int.h — private to `cuarena serve`'s two files: the state they share
 * (struct server and what it holds), and what each calls of the other's.
 * serve.c has the queue, the builder and GPU workers, the episodes and the
 * results folder; serve-http.c the libmicrohttpd side (routes, auth, metrics,
 * listening). Not the library's API: nothing outside those two includes it. The
 * lock order: server.lock is never held while a slot's gpu or task_lock is
 * taken. */
#ifndef CUA_SERVE_INT_H
#define CUA_SERVE_INT_H

#include "episode/serve.h"
#include "episode/envproto.h"
#include "episode/run.h"               /* CUA_MAX_GPUS */
#include "results/writer.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/socket.h>
#include <cjson/cJSON.h>

#define MAX_BUILDERS 256

/* Why a request was answered 503: a trainer retries each (docs/SERVE.md). */
#define WHY_HARNESS "harness_error"     /* the harness failed, not the kernel */
#define WHY_UNRECORDED "unrecorded"     /* evaluated, but the results could not be written */
#define WHY_STOPPING "stopping"
#define RETRY_S 5                       /* Retry-After of a harness failure or a full disk */
/* After a record failed, requests are refused for this long before one is
 * evaluated again: a full disk does not make every request cost a GPU's time. */
#define UNWRITABLE_HOLD_S 2.0

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

/* The index of t in the catalogue, -1 when it is not there. */
static inline int task_index(const struct server *s, const struct cua_task *t)
{
	for (int i = 0; i < s->cat.n; i++)
		if (s->cat.tasks[i] == t)
			return i;
	return -1;
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

/* ---- serve.c: the queue, the workers, the episodes ------------------------------ */

/* Whether cua_serve_stop() was called (read under server.lock where it decides
 * what a request is answered). */
bool serve_stopping(void);

/* Queues j at the tail and wakes a builder (server.lock held; the caller has
 * seen room in the queue). */
void serve_queue_push(struct server *s, struct job *j);

/* Cancels j for a client that left (server.lock held): a queued job leaves the
 * queue, never evaluated (done at once); a running one has its build stopped (a
 * kernel already on the GPU finishes there and is recorded). */
void serve_queue_cancel(struct server *s, struct job *j);

/* The episodes kept (server.lock held, or before the workers start): find by id
 * (NULL: none), add at the head (counted, in creation order), unlink (not freed),
 * free (one that never began too), and room for one more
 * (false when every kept episode is open; the oldest ended one goes). */
struct sepisode *serve_episode_find(struct server *s, const char *id);
void serve_episode_add(struct server *s, struct sepisode *se);
void serve_episode_unlink(struct server *s, struct sepisode *se);
void serve_episode_free(struct sepisode *se);
bool serve_episode_room(struct server *s);

/* What a step or a close changes in an episode, and putting it back (m's copies
 * are taken by serve_rewind; what is left of m the caller frees). */
void serve_mark(const struct cua_episode *ep, struct ep_mark *m);
void serve_rewind(struct cua_episode *ep, struct ep_mark *m);

/* The episode's end line; false (the episode stays open) when it could not be
 * written. */
bool serve_record_end(struct server *s, struct sepisode *se, const char *reason);

/* ---- serve-http.c: listening ------------------------------------------------------ */

struct MHD_Daemon;

/* Where the server listens, and the daemon once it does. */
struct serve_listener {
	char host[256];
	int port;                           /* asked for; 0 = a free one */
	struct sockaddr_storage ss;
	socklen_t sl;
	struct MHD_Daemon *d;
};

/* o's --listen resolved into l, and the token read into s when o names one: a
 * public address without --token-file is refused (CUA_E_USAGE). */
enum cua_status serve_http_prepare(struct server *s, const struct cua_serve_opts *o,
                                   struct serve_listener *l, char *err, size_t errlen);

/* Starts the daemon on l (one thread per connection, its connection limits),
 * writes the bound port to --port-file and says in the log where it listens.
 * builders: whether any builder thread started (else nothing listens).
 * CUA_E_SYSTEM: it cannot listen; CUA_E_IO: the port file (l->d stopped). */
enum cua_status serve_http_start(struct server *s, struct serve_listener *l, bool builders,
                                 char *err, size_t errlen);

/* Stops the daemon: every connection closed. */
void serve_http_stop(struct serve_listener *l);

#endif /* CUA_SERVE_INT_H */
