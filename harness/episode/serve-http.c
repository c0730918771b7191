/* serve-http.c — `cuarena serve`'s HTTP side on libmicrohttpd (one thread per
 * connection): the routes and their replies, the bearer token, /healthz and
 * /metrics, a request waiting on its connection for its job, and listening
 * (docs/SERVE.md). The queue and the workers it hands jobs to are serve.c's.
 *
 * Longer than docs/CODE-STYLE.md's ~900 lines on purpose: every endpoint answers
 * through the same reply, refusal and counting helpers and one route table picks
 * between them; a file per endpoint would export those helpers for a few lines
 * each.
 */
#include "episode/serve-int.h"
#include "catalogue/prompts.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netdb.h>
#include <poll.h>
#include <stdarg.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <microhttpd.h>

#define FD_RESERVE 256            /* descriptors kept for judges, builds, results files */
#define WAIT_POLL_MS 100          /* how often a waiting request looks at its client */

/* ---- replies and the token ----------------------------------------------------- */

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

/* ---- a request waiting for its job ------------------------------------------- */

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
	if (serve_stopping()) {
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
	serve_queue_push(s, j);
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
		serve_queue_cancel(s, j);
	}
	bool cancelled = j->cancel && !serve_stopping();
	pthread_mutex_unlock(&s->lock);
	pthread_cond_destroy(&j->done);
	if (cancelled || !j->reply)
		return MHD_NO;             /* nobody to answer: close the connection */
	cJSON *reply = j->reply;
	j->reply = NULL;
	return send_json(c, j->http, reply, j->retry_after, NULL);
}

/* ---- the endpoints ----------------------------------------------------------- */

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
	if (!serve_episode_room(s)) {
		pthread_mutex_unlock(&s->lock);
		free(se);
		return refuse(s, c, MHD_HTTP_TOO_MANY_REQUESTS, &s->rejected_episodes,
		              "%d episodes are open (--max-episodes): DELETE /v1/episodes/ID the "
		              "ones you are done with", s->o->max_episodes);
	}
	serve_episode_add(s, se);
	pthread_mutex_unlock(&s->lock);
	j->ep = se;
	enum MHD_Result ret = run_job(s, c, j);
	bool orphan = se->begun && j->cancel && !serve_stopping();
	if (orphan) {
		/* begun for a client that left: nobody knows its id, so it ends here */
		cua_episode_end(&se->ep, "closed");
		serve_record_end(s, se, "closed");
		cua_rmtree(se->ep.workdir);
	}
	pthread_mutex_lock(&s->lock);
	if (!se->begun || orphan) {    /* refused, cancelled or failed: no episode */
		serve_episode_unlink(s, se);
		serve_episode_free(se);
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

/* Finds episode id for a request and marks it busy; NULL after refusing. */
static struct sepisode *claim_episode(struct server *s, struct MHD_Connection *c,
                                      const char *id, enum MHD_Result *ret)
{
	pthread_mutex_lock(&s->lock);
	struct sepisode *se = serve_episode_find(s, id);
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
		serve_mark(&se->ep, &m);
		if (!se->ep.done)
			cua_episode_end(&se->ep, "closed");
		bool kept = serve_record_end(s, se, se->ep.end_reason);
		if (!kept)
			serve_rewind(&se->ep, &m);   /* still open, on disk and here */
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
		serve_episode_unlink(s, se);
		pthread_mutex_unlock(&s->lock);
		serve_episode_free(se);
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
	bool stopping = serve_stopping();
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

/* ---- routes ------------------------------------------------------------------ */

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

/* ---- listening ----------------------------------------------------------------- */

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

enum cua_status serve_http_prepare(struct server *s, const struct cua_serve_opts *o,
                                   struct serve_listener *l, char *err, size_t errlen)
{
	enum cua_status st;
	if (cua_serve_parse_listen(o->listen, l->host, sizeof(l->host), &l->port, err,
	                           errlen) != 0)
		st = CUA_E_USAGE;
	else
		st = resolve(l->host, l->port, &l->ss, &l->sl, err, errlen);
	if (st == CUA_OK && !loopback((struct sockaddr *)&l->ss) && !o->token_file) {
		cua_errf(err, errlen, "--listen %s is reachable beyond this machine: give "
		         "--token-file FILE (a bearer token; docs/SERVE.md)", o->listen);
		st = CUA_E_USAGE;
	}
	if (st == CUA_OK && o->token_file) {
		st = read_token(o->token_file, s->token, sizeof(s->token), err, errlen);
		s->auth = st == CUA_OK;
	}
	return st;
}

enum cua_status serve_http_start(struct server *s, struct serve_listener *l, bool builders,
                                 char *err, size_t errlen)
{
	const struct cua_serve_opts *o = s->o;
	unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD |
	                 MHD_USE_POLL | MHD_USE_ERROR_LOG;
	if (l->ss.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	/* A peer may hold only so many connections (one flooding with half-sent
	 * requests cannot lock others out); one that sends nothing for
	 * --client-timeout-s is closed (a request waiting for its evaluation is not
	 * idle: libmicrohttpd does not time a connection while our handler runs);
	 * and all of them stay below the descriptors this process may open. */
	unsigned max_conn = connection_cap(o->max_connections);
	l->d = builders ? MHD_start_daemon(flags, (uint16_t)l->port, NULL, NULL,
	    handle, s, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&l->ss,
	    MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
	    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)o->client_timeout_s,
	    MHD_OPTION_CONNECTION_LIMIT, max_conn,
	    MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)o->max_per_client,
	    MHD_OPTION_END) : NULL;
	if (!l->d) {
		cua_errf(err, errlen, "cannot listen on %s: %s", o->listen,
		         builders ? strerror(errno) : "no builder thread started");
		return CUA_E_SYSTEM;
	}
	const union MHD_DaemonInfo *di = MHD_get_daemon_info(l->d, MHD_DAEMON_INFO_BIND_PORT);
	int bound = di ? di->port : l->port;
	if (o->port_file) {
		char line[16];
		snprintf(line, sizeof(line), "%d\n", bound);
		if (cua_write_file(o->port_file, line, strlen(line), err, errlen) != CUA_OK) {
			serve_http_stop(l);
			return CUA_E_IO;
		}
	}
	bool v6 = l->ss.ss_family == AF_INET6;
	fprintf(stderr, "cuarena serve: listening on http://%s%s%s:%d (%d GPU worker%s%s, %d "
	        "builders, queue %d, %s; %u connections, %d per client, idle %d s), results "
	        "in %s\n",
	        v6 ? "[" : "", l->host, v6 ? "]" : "",
	        bound, s->n_slots, s->n_slots == 1 ? "" : "s", s->gpu ? "" : " (no GPU here)",
	        s->n_builders, o->queue, s->auth ? "bearer token required" : "no token",
	        max_conn, o->max_per_client, o->client_timeout_s, s->dir);
	return CUA_OK;
}

void serve_http_stop(struct serve_listener *l)
{
	if (l->d)
		MHD_stop_daemon(l->d);
	l->d = NULL;
}
