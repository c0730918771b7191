/* writer.c — the one writer of a run folder (writer.h): its lock, its torn tails
 * cut, run.json composed and rewritten whole, every line built here and appended
 * whole or not at all. */
#include "results/writer.h"
#include "catalogue/catalogue.h"
#include "catalogue/task.h"
#include "judge/bstore.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>

struct cua_writer {
	char dir[CUA_PATH_LEN];
	int lock_fd;
	bool locked;                        /* lock_fd holds the lock */
	int fd[CUA_RESULTS_N_FILES];
	bool uncut[CUA_RESULTS_N_FILES];    /* a failed write could not be cut back yet */
	long keep[CUA_RESULTS_N_FILES];     /* ...to this size */
	pthread_mutex_t lock;               /* the files, the document, the failure */
	cJSON *run;                         /* run.json */
	bool dirty;                         /* changed since written */
	cJSON *segment;                     /* this invocation's, in run */
	char failure[256];                  /* "" when the last write succeeded */
	uint64_t failures;
};

/* ---- the folder ------------------------------------------------------------------ */

/* The lock file's line of the process that holds it, from fd (or ""). */
static void holder_of(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (!buf[0])
		snprintf(buf, len, "a process that has not written its pid yet");
}

bool cua_writer_held(const char *dir, char *holder, size_t len)
{
	char path[CUA_PATH_BUF];
	snprintf(path, sizeof(path), "%s/" CUA_RESULTS_LOCK, dir);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	bool held = flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
	if (held && holder)
		holder_of(fd, holder, len);
	close(fd);
	return held;
}

static enum cua_status take_lock(struct cua_writer *w, const char *who, char *err,
                                 size_t errlen)
{
	char path[CUA_PATH_BUF], line[512], host[256] = "";
	snprintf(path, sizeof(path), "%s/" CUA_RESULTS_LOCK, w->dir);
	/* close-on-exec: a judge or an agent that outlives us must not hold it */
	w->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (w->lock_fd < 0) {
		cua_errf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return CUA_E_IO;
	}
	if (flock(w->lock_fd, LOCK_EX | LOCK_NB) != 0) {
		if (errno != EWOULDBLOCK) {
			cua_errf(err, errlen, "%s: cannot lock: %s", path, strerror(errno));
			return CUA_E_IO;
		}
		holder_of(w->lock_fd, line, sizeof(line));
		cua_errf(err, errlen, "%s is being written by another cuarena (%s): one writer per "
		         "folder; stop it or give another folder", w->dir, line);
		return CUA_E_USAGE;
	}
	w->locked = true;
	gethostname(host, sizeof(host) - 1);
	int n = snprintf(line, sizeof(line), "pid %ld %s on %s\n", (long)getpid(), who,
	                 host[0] ? host : "?");
	if (ftruncate(w->lock_fd, 0) != 0 || pwrite(w->lock_fd, line, (size_t)n, 0) != n) {
		cua_errf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
		return CUA_E_IO;
	}
	return CUA_OK;
}

static enum cua_status open_dir(const char *dir, const char *who, bool files,
                                struct cua_writer **out, struct cua_writer_opened *opened,
                                char *err, size_t errlen);

enum cua_status cua_writer_open(const char *dir, const char *who, struct cua_writer **out,
                                struct cua_writer_opened *opened, char *err, size_t errlen)
{
	return open_dir(dir, who, true, out, opened, err, errlen);
}

enum cua_status cua_writer_lock(const char *dir, const char *who, struct cua_writer **out,
                                char *err, size_t errlen)
{
	return open_dir(dir, who, false, out, NULL, err, errlen);
}

static enum cua_status open_dir(const char *dir, const char *who, bool files,
                                struct cua_writer **out, struct cua_writer_opened *opened,
                                char *err, size_t errlen)
{
	struct cua_writer *w = cua_xcalloc(1, sizeof(*w));
	enum cua_status st;
	*out = NULL;
	if (opened)
		memset(opened, 0, sizeof(*opened));
	w->lock_fd = -1;
	for (int f = 0; f < CUA_RESULTS_N_FILES; f++)
		w->fd[f] = -1;
	pthread_mutex_init(&w->lock, NULL);
	/* a file-size limit (RLIMIT_FSIZE) must fail the write, not kill the writer */
	signal(SIGXFSZ, SIG_IGN);
	if ((st = cua_pathf(w->dir, sizeof(w->dir), err, errlen, "%s", dir)) != CUA_OK ||
	    (st = cua_mkdirs(w->dir, err, errlen)) != CUA_OK ||
	    (st = take_lock(w, who, err, errlen)) != CUA_OK)
		goto fail;
	for (int f = 0; files && f < CUA_RESULTS_N_FILES; f++) {
		char path[CUA_PATH_BUF];
		snprintf(path, sizeof(path), "%s/%s", w->dir, cua_results_file_names[f]);
		long cut = cua_results_drop_torn_tail(path);
		if (cut < 0) {
			cua_errf(err, errlen, "%s: cannot cut its torn last line: %s", path,
			         strerror((int)-cut));
			st = CUA_E_IO;
			goto fail;
		}
		if (opened)
			opened->cut[f] = cut;
		w->fd[f] = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (w->fd[f] < 0) {
			cua_errf(err, errlen, "%s: cannot open to append: %s", path, strerror(errno));
			st = CUA_E_IO;
			goto fail;
		}
	}
	*out = w;
	return CUA_OK;
fail:
	cua_writer_close(w);
	return st;
}

void cua_writer_close(struct cua_writer *w)
{
	if (!w)
		return;
	for (int f = 0; f < CUA_RESULTS_N_FILES; f++)
		if (w->fd[f] >= 0)
			close(w->fd[f]);
	if (w->lock_fd >= 0) {
		/* no holder any more: the file says nobody (and a folder is the same
		 * whoever wrote it last); failing, a stale line only misleads a reader */
		if (w->locked)
			(void)!ftruncate(w->lock_fd, 0);
		close(w->lock_fd);   /* the lock goes with it */
	}
	cJSON_Delete(w->run);
	pthread_mutex_destroy(&w->lock);
	free(w);
}

const char *cua_writer_dir(const struct cua_writer *w)
{
	return w->dir;
}

bool cua_writer_failing(struct cua_writer *w, char *reason, size_t len, uint64_t *failures)
{
	pthread_mutex_lock(&w->lock);
	bool failing = w->failure[0] != '\0';
	if (reason)
		snprintf(reason, len, "%s", w->failure);
	if (failures)
		*failures = w->failures;
	pthread_mutex_unlock(&w->lock);
	return failing;
}

/* ---- appending ---------------------------------------------------------------------- */

static void failed(struct cua_writer *w, const char *name, int e)
{
	snprintf(w->failure, sizeof(w->failure), "%s: %s", name, strerror(e));
	w->failures++;
}

/* Cuts file f back to keep bytes (its last whole line) and makes that durable. */
static int cut_back(struct cua_writer *w, enum cua_results_file f)
{
	if (ftruncate(w->fd[f], (off_t)w->keep[f]) != 0 || fsync(w->fd[f]) != 0) {
		w->uncut[f] = true;
		return errno ? errno : EIO;
	}
	w->uncut[f] = false;
	return 0;
}

/* Appends text[0..len) (whole lines) to file f, fsynced, or nothing. w->lock held. */
static enum cua_status put(struct cua_writer *w, enum cua_results_file f, const char *text,
                           size_t len, char *err, size_t errlen)
{
	const char *name = cua_results_file_names[f];
	int e;
	CUA_ASSERT(w->fd[f] >= 0);   /* not a writer of cua_writer_lock */
	if (w->uncut[f] && (e = cut_back(w, f)) != 0) {
		failed(w, name, e);
		cua_errf(err, errlen, "%s/%s: a failed write could not be cut back (%s): no line "
		         "is appended until it can", w->dir, name, strerror(e));
		return CUA_E_IO;
	}
	off_t end = lseek(w->fd[f], 0, SEEK_END);
	if (end < 0) {
		e = errno;
		failed(w, name, e);
		cua_errf(err, errlen, "%s/%s: %s", w->dir, name, strerror(e));
		return CUA_E_IO;
	}
	w->keep[f] = (long)end;
	/* One write() of the whole text: a short one is a full disk or a file-size
	 * limit, and what it wrote is cut off below. */
	size_t off = 0;
	e = 0;
	while (off < len) {
		ssize_t k = write(w->fd[f], text + off, len - off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			e = k < 0 ? errno : EIO;
			break;
		}
		off += (size_t)k;
	}
	if (!e && fsync(w->fd[f]) != 0)
		e = errno ? errno : EIO;
	if (!e) {
		w->failure[0] = '\0';
		return CUA_OK;
	}
	failed(w, name, e);
	int ce = cut_back(w, f);
	cua_errf(err, errlen, "%s/%s: cannot append a line: %s (%s)", w->dir, name, strerror(e),
	         ce ? "and it could not be cut back yet: no line is appended until it can"
	            : "the file was cut back to its last whole line");
	return CUA_E_IO;
}

/* obj (consumed) with its schema, as one line of file f. */
static enum cua_status put_json(struct cua_writer *w, enum cua_results_file f, cJSON *obj,
                                char *err, size_t errlen)
{
	cJSON_AddNumberToObject(obj, "schema", CUA_RESULTS_SCHEMA);
	char *txt = cJSON_PrintUnformatted(obj);
	cJSON_Delete(obj);
	CUA_ASSERT(txt);
	size_t n = strlen(txt);
	txt[n] = '\n';   /* in place of the NUL: n + 1 bytes go out */
	pthread_mutex_lock(&w->lock);
	enum cua_status st = put(w, f, txt, n + 1, err, errlen);
	pthread_mutex_unlock(&w->lock);
	free(txt);
	return st;
}

enum cua_status cua_writer_lines(struct cua_writer *w, enum cua_results_file f,
                                 const char *text, size_t len, char *err, size_t errlen)
{
	CUA_ASSERT(len == 0 || text[len - 1] == '\n');
	if (len == 0)
		return CUA_OK;
	pthread_mutex_lock(&w->lock);
	enum cua_status st = put(w, f, text, len, err, errlen);
	pthread_mutex_unlock(&w->lock);
	return st;
}

/* ---- the lines ----------------------------------------------------------------------- */

enum cua_status cua_writer_eval(struct cua_writer *w, const struct cua_eval_where *at,
                                cJSON *step, char *err, size_t errlen)
{
	cJSON_AddStringToObject(step, "task", at->task);
	cJSON_AddNumberToObject(step, "level", at->level);
	if (at->gpu && at->gpu[0])
		cJSON_AddStringToObject(step, "gpu", at->gpu);
	if (at->request)
		cJSON_AddStringToObject(step, "request", at->request);
	if (at->episode && at->episode[0])
		cJSON_AddStringToObject(step, "episode", at->episode);
	if (at->reward_kind)
		cJSON_AddStringToObject(step, "reward_kind", at->reward_kind);
	return put_json(w, CUA_RESULTS_F_EVALS, step, err, errlen);
}

enum cua_status cua_writer_baseline(struct cua_writer *w, const struct cua_task *t,
                                    const struct cua_eval *e, const char *gpu,
                                    const struct cua_bstore_origin *origin, char *err,
                                    size_t errlen)
{
	double flops, bytes;
	cua_results_task_work(t, &flops, &bytes);
	cJSON *l = cJSON_CreateObject();
	cJSON_AddStringToObject(l, "task", t->id);
	cJSON_AddNumberToObject(l, "level", t->level);
	if (!isnan(flops))
		cJSON_AddNumberToObject(l, "flops", flops);
	if (!isnan(bytes))
		cJSON_AddNumberToObject(l, "bytes", bytes);
	cJSON_AddItemToObject(l, "eval", cua_eval_to_json(e));
	if (gpu && gpu[0])
		cJSON_AddStringToObject(l, "gpu", gpu);
	cua_bstore_origin_to_json(l, origin);
	return put_json(w, CUA_RESULTS_F_BASELINES, l, err, errlen);
}

enum cua_status cua_writer_turn(struct cua_writer *w, const struct cua_turn_line *t, char *err,
                                size_t errlen)
{
	const char *shown = t->observation ? t->observation : "";
	char sha[65];
	if (!t->prompt_sha256)
		cua_sha256_hex(shown, strlen(shown), sha);
	cJSON *l = cJSON_CreateObject();
	cJSON_AddStringToObject(l, "kind", "turn");
	cJSON_AddStringToObject(l, "task", t->task);
	cJSON_AddNumberToObject(l, "turn", t->turn);
	cJSON_AddStringToObject(l, "prompt_sha256", t->prompt_sha256 ? t->prompt_sha256 : sha);
	cJSON_AddStringToObject(l, "observation", shown);
	cJSON_AddStringToObject(l, "reply", t->reply ? t->reply : "");
	if (t->code)
		cJSON_AddStringToObject(l, "code", t->code);
	else
		cJSON_AddNullToObject(l, "code");
	cJSON_AddStringToObject(l, "verdict", cua_verdict_name(t->verdict));
	cJSON_AddNumberToObject(l, "reward", t->reward);
	if (t->agent) {
		cJSON *tok = cJSON_AddObjectToObject(l, "tokens");
		cJSON_AddNumberToObject(tok, "prompt", t->prompt_tokens);
		cJSON_AddNumberToObject(tok, "completion", t->completion_tokens);
		cJSON_AddNumberToObject(l, "latency_s", t->latency_s);
	}
	if (t->recovered)
		cJSON_AddBoolToObject(l, "recovered", true);
	if (t->episode && t->episode[0])
		cJSON_AddStringToObject(l, "episode", t->episode);
	return put_json(w, CUA_RESULTS_F_TRAJ, l, err, errlen);
}

enum cua_status cua_writer_end(struct cua_writer *w, const struct cua_end_line *e, char *err,
                               size_t errlen)
{
	cJSON *l = cJSON_CreateObject();
	cJSON_AddStringToObject(l, "kind", "end");
	cJSON_AddStringToObject(l, "task", e->task);
	if (e->episode && e->episode[0])
		cJSON_AddStringToObject(l, "episode", e->episode);
	cJSON_AddNumberToObject(l, "turns", e->turns);
	cJSON_AddStringToObject(l, "reason", e->reason ? e->reason : "");
	cJSON_AddNumberToObject(l, "best_turn", e->best_turn);
	cJSON_AddNumberToObject(l, "final_turn", e->turns);
	cJSON *rw = cJSON_AddArrayToObject(l, "rewards");
	for (int i = 0; e->rewards && i < e->turns; i++)
		cJSON_AddItemToArray(rw, cJSON_CreateNumber(e->rewards[i]));
	return put_json(w, CUA_RESULTS_F_TRAJ, l, err, errlen);
}

enum cua_status cua_writer_episode(struct cua_writer *w, const struct cua_episode_line *e,
                                   char *err, size_t errlen)
{
	cJSON *l = cJSON_CreateObject();
	cJSON_AddStringToObject(l, "kind", "episode");
	cJSON_AddStringToObject(l, "task", e->task);
	cJSON_AddStringToObject(l, "episode", e->episode);
	cJSON_AddNumberToObject(l, "turns", e->turns);
	cJSON_AddStringToObject(l, "reward", e->reward);
	if (e->gpu && e->gpu[0])
		cJSON_AddStringToObject(l, "gpu", e->gpu);
	return put_json(w, CUA_RESULTS_F_TRAJ, l, err, errlen);
}

/* ---- run.json ------------------------------------------------------------------------ */

static void replace(cJSON *o, const char *key, cJSON *v)
{
	cJSON_DeleteItemFromObjectCaseSensitive(o, key);
	cJSON_AddItemToObject(o, key, v);
}

void cua_writer_run_new(struct cua_writer *w, const struct cua_run_meta *m)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddNumberToObject(j, "schema", CUA_RESULTS_SCHEMA);
	cJSON_AddStringToObject(j, "run_id", m->run_id);
	cJSON_AddStringToObject(j, "created", m->created);
	cJSON *h = cJSON_AddObjectToObject(j, "harness");
	cJSON_AddStringToObject(h, "version", CUA_VERSION);
	cJSON_AddStringToObject(h, "git", cua_git_sha);
	cJSON_AddStringToObject(j, "catalogue_hash", m->catalogue_hash);
	cJSON_AddNumberToObject(j, "catalogue_version", m->catalogue_version ? m->catalogue_version : 1);
	cJSON_AddStringToObject(j, "nvcc", m->nvcc ? m->nvcc : "");
	cJSON *a = cJSON_AddObjectToObject(j, "agent");
	cJSON_AddStringToObject(a, "name", m->agent);
	cJSON_AddStringToObject(a, "version", m->agent_version ? m->agent_version : "");
	cJSON_AddItemToObject(a, "config", m->agent_config ? cJSON_Duplicate(m->agent_config, true)
	                                                   : cJSON_CreateObject());
	if (m->prompts_sha256)
		cJSON_AddStringToObject(a, "prompts_sha256", m->prompts_sha256);
	cJSON_AddNumberToObject(j, "turns", m->turns);
	cJSON_AddStringToObject(j, "reward", m->reward);
	cJSON_AddNumberToObject(j, "max_time_s", m->max_time_s);
	cJSON *ps = cJSON_AddArrayToObject(j, "public_seeds");
	for (int i = 0; i < 3; i++)
		cJSON_AddItemToArray(ps, cJSON_CreateNumber((double)m->public_seeds[i]));
	cJSON *tl = cJSON_AddArrayToObject(j, "tasks");
	for (int i = 0; i < m->n_tasks; i++)
		cJSON_AddItemToArray(tl, cJSON_CreateString(m->tasks[i]));
	pthread_mutex_lock(&w->lock);
	cJSON_Delete(w->run);
	w->run = j;
	w->segment = NULL;
	w->dirty = true;
	pthread_mutex_unlock(&w->lock);
}

enum cua_status cua_writer_run_continue(struct cua_writer *w, const char *when, char *err,
                                        size_t errlen)
{
	cJSON *j;
	enum cua_status st = cua_results_read_run_json(w->dir, &j, err, errlen);
	if (st != CUA_OK)
		return st;
	cJSON *res = cJSON_GetObjectItemCaseSensitive(j, "resumed");
	if (!cJSON_IsArray(res)) {
		cJSON_DeleteItemFromObjectCaseSensitive(j, "resumed");
		res = cJSON_AddArrayToObject(j, "resumed");
	}
	cJSON_AddItemToArray(res, cJSON_CreateString(when));
	pthread_mutex_lock(&w->lock);
	cJSON_Delete(w->run);
	w->run = j;
	w->segment = NULL;
	w->dirty = true;
	pthread_mutex_unlock(&w->lock);
	return CUA_OK;
}

const cJSON *cua_writer_run(const struct cua_writer *w)
{
	return w->run;
}

void cua_writer_run_device(struct cua_writer *w, const struct cua_device *d)
{
	pthread_mutex_lock(&w->lock);
	cJSON *v = cua_device_to_json(d);
	if (!cJSON_Compare(v, cJSON_GetObjectItemCaseSensitive(w->run, "device"), true)) {
		replace(w->run, "device", v);
		w->dirty = true;
	} else
		cJSON_Delete(v);
	pthread_mutex_unlock(&w->lock);
}

bool cua_writer_run_task(struct cua_writer *w, const char *id)
{
	pthread_mutex_lock(&w->lock);
	cJSON *tasks = cJSON_GetObjectItemCaseSensitive(w->run, "tasks");
	if (!cJSON_IsArray(tasks)) {
		cJSON_DeleteItemFromObjectCaseSensitive(w->run, "tasks");
		tasks = cJSON_AddArrayToObject(w->run, "tasks");
	}
	bool have = false;
	const cJSON *x;
	cJSON_ArrayForEach(x, tasks)
		have |= cJSON_IsString(x) && !strcmp(x->valuestring, id);
	if (!have) {
		cJSON_AddItemToArray(tasks, cJSON_CreateString(id));
		w->dirty = true;
	}
	pthread_mutex_unlock(&w->lock);
	return !have;
}

void cua_writer_run_gpus(struct cua_writer *w, const char (*names)[64], int n)
{
	cJSON *gl = cJSON_CreateArray();
	for (int g = 0; g < n; g++)
		cJSON_AddItemToArray(gl, cJSON_CreateString(names[g]));
	pthread_mutex_lock(&w->lock);
	replace(w->run, "gpus", gl);
	w->dirty = true;
	pthread_mutex_unlock(&w->lock);
}

void cua_writer_run_shard(struct cua_writer *w, cJSON *shard)
{
	pthread_mutex_lock(&w->lock);
	replace(w->run, "shard", shard);
	w->dirty = true;
	pthread_mutex_unlock(&w->lock);
}

void cua_writer_run_max_time(struct cua_writer *w, double s)
{
	pthread_mutex_lock(&w->lock);
	const cJSON *mt = cJSON_GetObjectItemCaseSensitive(w->run, "max_time_s");
	if (!(cJSON_IsNumber(mt) && mt->valuedouble > 0)) {
		replace(w->run, "max_time_s", cJSON_CreateNumber(s));
		w->dirty = true;
	}
	pthread_mutex_unlock(&w->lock);
}

/* Where a segment ran: the host, and under Slurm the job and array task (a
 * preempted shard's segments then say which attempt measured what). */
static void add_where(cJSON *seg)
{
	char host[256] = "";
	if (gethostname(host, sizeof(host) - 1) == 0 && host[0])
		cJSON_AddStringToObject(seg, "host", host);
	static const char *const env[][2] = {
		{"SLURM_JOB_ID", "job"}, {"SLURM_ARRAY_JOB_ID", "array_job"},
		{"SLURM_ARRAY_TASK_ID", "array_task"}, {"SLURM_RESTART_COUNT", "restart"},
	};
	cJSON *sl = NULL;
	for (size_t i = 0; i < CUA_ARRAY_LEN(env); i++) {
		const char *v = getenv(env[i][0]);
		if (!v || !*v || strlen(v) > 64)
			continue;
		if (!sl)
			sl = cJSON_AddObjectToObject(seg, "slurm");
		cJSON_AddStringToObject(sl, env[i][1], v);
	}
}

/* The segments array; a run.json from before segments gets its summary as the
 * first one. w->lock held. */
static cJSON *segments(cJSON *run)
{
	cJSON *segs = cJSON_GetObjectItemCaseSensitive(run, "segments");
	if (segs)
		return segs;
	segs = cJSON_AddArrayToObject(run, "segments");
	const cJSON *old = cJSON_GetObjectItemCaseSensitive(run, "summary");
	if (cJSON_IsObject(old)) {
		cJSON *g = cJSON_CreateObject();
		const cJSON *c = cJSON_GetObjectItemCaseSensitive(run, "created");
		cJSON_AddStringToObject(g, "started", cJSON_IsString(c) ? c->valuestring : "");
		static const char *const keys[] = {"gpus", "wall_s", "evaluations", "gpu_busy_s",
		                                   "interrupted"};
		for (size_t k = 0; k < CUA_ARRAY_LEN(keys); k++) {
			const cJSON *v = cJSON_GetObjectItemCaseSensitive(old, keys[k]);
			if (v)
				cJSON_AddItemToObject(g, keys[k], cJSON_Duplicate(v, true));
		}
		cJSON_AddItemToArray(segs, g);
	}
	return segs;
}

static cJSON *store_json(const struct cua_run_store *s)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddBoolToObject(o, "on", s->on);
	if (!s->on)
		return o;
	cJSON_AddBoolToObject(o, "fresh_baselines", s->fresh);
	cJSON_AddNumberToObject(o, "measured", s->measured);
	cJSON_AddNumberToObject(o, "reused", s->reused);
	cJSON_AddNumberToObject(o, "stored", s->stored);
	cJSON *d = cJSON_AddObjectToObject(o, "drift_checks");
	cJSON_AddNumberToObject(d, "passed", s->drift_passed);
	cJSON_AddNumberToObject(d, "drifted", s->drift_drifted);
	return o;
}

static int count_of(const cJSON *o, const char *key)
{
	double v = cua_json_num(o, key);
	return v >= 0 && v < 1e9 ? (int)v : 0;
}

/* The summary's "baseline_store": the segments' summed ("on" and
 * "fresh_baselines" true when any segment's is), or NULL when no segment has one
 * (a run.json from before it). Read defensively: a shard's run.json is input. */
static cJSON *store_totals(const cJSON *segs)
{
	struct cua_run_store t = {0};
	bool any = false;
	const cJSON *g;
	cJSON_ArrayForEach(g, segs) {
		const cJSON *b = cJSON_GetObjectItemCaseSensitive(g, "baseline_store");
		if (!cJSON_IsObject(b))
			continue;
		any = true;
		if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(b, "on")))
			continue;
		const cJSON *d = cJSON_GetObjectItemCaseSensitive(b, "drift_checks");
		t.on = true;
		t.fresh |= cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(b, "fresh_baselines"));
		t.measured += count_of(b, "measured");
		t.reused += count_of(b, "reused");
		t.stored += count_of(b, "stored");
		t.drift_passed += count_of(d, "passed");
		t.drift_drifted += count_of(d, "drifted");
	}
	return any ? store_json(&t) : NULL;
}

void cua_writer_run_segment(struct cua_writer *w, const struct cua_run_segment *s)
{
	pthread_mutex_lock(&w->lock);
	cJSON *g = w->segment;
	if (!g) {
		cJSON *segs = segments(w->run);
		g = w->segment = cJSON_CreateObject();
		cJSON_AddStringToObject(g, "started", s->started);
		add_where(g);
		cJSON_AddNumberToObject(g, "gpus", s->gpus);
		if (!cJSON_IsArray(segs)) {
			/* cua_prior_segments refuses such a run.json before it gets here */
			cJSON_DeleteItemFromObjectCaseSensitive(w->run, "segments");
			segs = cJSON_AddArrayToObject(w->run, "segments");
		}
		cJSON_AddItemToArray(segs, g);
	}
	replace(g, "wall_s", cJSON_CreateNumber(s->wall_s));
	replace(g, "evaluations", cJSON_CreateNumber(s->evaluations));
	replace(g, "gpu_busy_s", cJSON_CreateNumber(s->gpu_busy_s));
	replace(g, "candidate_gpu_s", cJSON_CreateNumber(s->candidate_gpu_s));
	replace(g, "interrupted", cJSON_CreateBool(s->interrupted));
	if (s->store)
		replace(g, "baseline_store", store_json(s->store));
	w->dirty = true;
	pthread_mutex_unlock(&w->lock);
}

static cJSON *totals_json(const struct cua_run_totals *t)
{
	cJSON *s = cJSON_CreateObject();
	cJSON_AddNumberToObject(s, "tasks_done", t->tasks_done);
	cJSON_AddNumberToObject(s, "tasks_correct", t->tasks_correct);
	cJSON_AddNumberToObject(s, "evaluations", t->evaluations);
	cJSON_AddNumberToObject(s, "wall_s", t->wall_s);
	cJSON_AddNumberToObject(s, "gpu_busy_s", t->gpu_busy_s);
	cJSON_AddNumberToObject(s, "gpu_s", t->gpu_s);
	if (t->candidate_gpu_s >= 0)
		cJSON_AddNumberToObject(s, "candidate_gpu_s", t->candidate_gpu_s);
	cJSON_AddNumberToObject(s, "segments", t->segments);
	cJSON_AddNumberToObject(s, "gpus", t->gpus);
	if (t->elapsed_s >= 0)
		cJSON_AddNumberToObject(s, "elapsed_s", t->elapsed_s);
	cJSON_AddBoolToObject(s, "interrupted", t->interrupted);
	return s;
}

/* The summary object t with the segments' baseline store added. */
static cJSON *summary_json(const struct cua_run_totals *t, const cJSON *segs)
{
	cJSON *s = totals_json(t);
	cJSON *b = store_totals(segs);
	if (b)
		cJSON_AddItemToObject(s, "baseline_store", b);
	return s;
}

void cua_writer_run_summary(struct cua_writer *w, const struct cua_run_totals *t)
{
	pthread_mutex_lock(&w->lock);
	replace(w->run, "summary",
	        summary_json(t, cJSON_GetObjectItemCaseSensitive(w->run, "segments")));
	w->dirty = true;
	pthread_mutex_unlock(&w->lock);
}

static const char *jstr(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static time_t iso_time(const char *s)
{
	struct tm tm;
	memset(&tm, 0, sizeof(tm));
	const char *e = s ? strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm) : NULL;
	return e && !*e ? timegm(&tm) : (time_t)-1;
}

void cua_writer_run_merged(struct cua_writer *w, const struct cua_merge_part *parts, int n,
                           const char *run_id, const cJSON *tasks)
{
	CUA_ASSERT(n > 0 && parts[0].run);
	cJSON *m = cJSON_Duplicate(parts[0].run, true);
	static const char *const drop[] = {"shard", "gpus", "resumed", "segments", "summary",
	                                   "device", "devices", "merged", "run_id", "tasks",
	                                   "created"};
	for (size_t k = 0; k < CUA_ARRAY_LEN(drop); k++)
		cJSON_DeleteItemFromObjectCaseSensitive(m, drop[k]);
	const char *created = NULL;
	for (int i = 0; i < n; i++) {
		const char *c = jstr(parts[i].run, "created");
		if (c && (!created || strcmp(c, created) < 0))
			created = c;
	}
	cJSON_AddStringToObject(m, "run_id", run_id);
	cJSON_AddStringToObject(m, "created", created ? created : "");
	cJSON_AddItemToObject(m, "tasks", cJSON_Duplicate(tasks, true));
	cJSON *dev = NULL, *devs = cJSON_CreateArray(), *segs = cJSON_CreateArray();
	cJSON *res = cJSON_CreateArray(), *from = cJSON_CreateArray();
	struct cua_run_totals t = {.elapsed_s = -1};
	bool cand_known = true;
	time_t t0 = (time_t)-1, t1 = (time_t)-1;
	for (int i = 0; i < n; i++) {
		const struct cua_merge_part *p = &parts[i];
		const char *id = jstr(p->run, "run_id");
		const cJSON *d = cJSON_GetObjectItemCaseSensitive(p->run, "device");
		if (!dev && jstr(d, "name"))
			dev = cJSON_Duplicate(d, true);
		cJSON *o = cJSON_CreateObject();
		if (p->shard >= 0)
			cJSON_AddNumberToObject(o, "shard", p->shard);
		cJSON_AddStringToObject(o, "run_id", id ? id : "");
		cJSON_AddItemToObject(o, "device", d ? cJSON_Duplicate(d, true) : cJSON_CreateNull());
		cJSON_AddItemToArray(devs, o);
		cJSON *f = cJSON_CreateObject();
		if (p->shard >= 0)
			cJSON_AddNumberToObject(f, "shard", p->shard);
		cJSON_AddStringToObject(f, "run_id", id ? id : "");
		cJSON_AddNumberToObject(f, "tasks", p->n_tasks);
		cJSON_AddItemToArray(from, f);
		const cJSON *g, *r;
		int last_gpus = 1;
		cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(p->run, "segments")) {
			cJSON *c = cJSON_Duplicate(g, true);
			if (p->shard >= 0)
				cJSON_AddNumberToObject(c, "shard", p->shard);
			cJSON_AddItemToArray(segs, c);
			double ws = cua_json_num(g, "wall_s"), b = cua_json_num(g, "gpu_busy_s");
			double k = cua_json_num(g, "gpus"), cg = cua_json_num(g, "candidate_gpu_s");
			ws = ws > 0 ? ws : 0;
			last_gpus = k >= 1 ? (int)k : 1;
			t.wall_s += ws;
			t.gpu_busy_s += b > 0 ? b : 0;
			t.gpu_s += ws * last_gpus;
			if (cg >= 0)
				t.candidate_gpu_s += cg;
			else
				cand_known = false;
			time_t a = iso_time(jstr(g, "started"));
			if (a != (time_t)-1) {
				t0 = t0 == (time_t)-1 || a < t0 ? a : t0;
				time_t e = a + (time_t)(ws + 0.5);
				t1 = t1 == (time_t)-1 || e > t1 ? e : t1;
			}
		}
		cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(p->run, "resumed"))
			cJSON_AddItemToArray(res, cJSON_Duplicate(r, true));
		t.gpus += last_gpus;
		t.tasks_done += p->tasks_done;
		t.tasks_correct += p->tasks_correct;
		t.evaluations += p->evaluations;
		t.interrupted |= p->open;
	}
	if (!cand_known)
		t.candidate_gpu_s = -1;
	t.segments = cJSON_GetArraySize(segs);
	if (t0 != (time_t)-1)
		t.elapsed_s = (double)(t1 - t0);
	cJSON_AddItemToObject(m, "device", dev ? dev : cJSON_CreateObject());
	cJSON_AddItemToObject(m, "devices", devs);
	cJSON_AddItemToObject(m, "segments", segs);
	if (cJSON_GetArraySize(res))
		cJSON_AddItemToObject(m, "resumed", res);
	else
		cJSON_Delete(res);
	cJSON *mg = cJSON_AddObjectToObject(m, "merged");
	cJSON_AddNumberToObject(mg, "shards", n);
	cJSON_AddItemToObject(mg, "from", from);
	cJSON_AddItemToObject(m, "summary", summary_json(&t, segs));
	pthread_mutex_lock(&w->lock);
	cJSON_Delete(w->run);
	w->run = m;
	w->segment = NULL;
	w->dirty = true;
	pthread_mutex_unlock(&w->lock);
}

enum cua_status cua_writer_run_save(struct cua_writer *w, char *err, size_t errlen)
{
	char path[CUA_PATH_BUF];
	enum cua_status st = CUA_OK;
	pthread_mutex_lock(&w->lock);
	if (w->run && w->dirty) {
		char *txt = cJSON_Print(w->run);
		CUA_ASSERT(txt);
		snprintf(path, sizeof(path), "%s/" CUA_RESULTS_RUN_JSON, w->dir);
		/* a temporary file renamed over it: the old one stays whole on failure */
		st = cua_write_file(path, txt, strlen(txt), err, errlen);
		free(txt);
		if (st == CUA_OK) {
			w->dirty = false;
			w->failure[0] = '\0';
		} else {
			snprintf(w->failure, sizeof(w->failure), CUA_RESULTS_RUN_JSON ": cannot be "
			         "rewritten (full disk or file-size limit?)");
			w->failures++;
		}
	}
	pthread_mutex_unlock(&w->lock);
	return st;
}
