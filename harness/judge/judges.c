/* judges.c — the long-lived judges of this process (judges.h). */
#include "judge/judges.h"
#include "judge/runner.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#define MAX_JUDGES 16

struct judge {
	char vis[256];
	struct cua_sandbox_proc p;
	int jobs;                  /* answered by this process */
	pthread_mutex_t lock;
};

static struct judge g_judges[MAX_JUDGES];
static int g_n, g_started;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

static struct judge *judge_for(const char *vis)
{
	struct judge *j = NULL;
	pthread_mutex_lock(&g_lock);
	for (int i = 0; i < g_n && !j; i++)
		if (!strcmp(g_judges[i].vis, vis))
			j = &g_judges[i];
	if (!j && g_n < MAX_JUDGES) {
		j = &g_judges[g_n++];
		snprintf(j->vis, sizeof(j->vis), "%s", vis);
		cua_sandbox_proc_init(&j->p);
		pthread_mutex_init(&j->lock, NULL);
		if (g_n == 1)
			atexit(cua_judges_shutdown);
	}
	pthread_mutex_unlock(&g_lock);
	return j;
}

/* Reading a judge's answer: it is complete at its sealed "result" line. */
struct answer {
	const struct cua_channel_key *key;
	size_t at;       /* bytes of complete lines looked at */
	uint64_t seq;
	bool result, last;
};

static bool answer_done(void *ctx, const char *chan, size_t n)
{
	struct answer *a = ctx;
	while (a->at < n) {
		const char *nl = memchr(chan + a->at, '\n', n - a->at);
		if (!nl)
			break;
		size_t len = (size_t)(nl - (chan + a->at));
		const char *json;
		size_t jn;
		if (cua_channel_verify(a->key, a->seq, chan + a->at, len, &json, &jn)) {
			a->seq++;
			cJSON *ev = cJSON_ParseWithLength(json, jn);
			const cJSON *k = cJSON_GetObjectItemCaseSensitive(ev, "event");
			if (cJSON_IsString(k) && !strcmp(k->valuestring, "result")) {
				a->result = true;
				a->last = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ev, "last"));
			}
			cJSON_Delete(ev);
		}
		a->at += len + 1;
		if (a->result)
			return true;
	}
	return false;
}

static enum cua_status start(struct judge *j, const char *self_exe,
                             const struct cua_sandbox_opts *so, char *err, size_t errlen)
{
	char fd[16];
	snprintf(fd, sizeof(fd), "%d", so->channel_fd);
	const char *argv[] = { self_exe, "__judge", "--serve", "--fd", fd, NULL };
	enum cua_status st = cua_sandbox_spawn(argv, so, &j->p, err, errlen);
	if (st == CUA_OK) {
		j->jobs = 0;
		pthread_mutex_lock(&g_lock);
		g_started++;
		pthread_mutex_unlock(&g_lock);
	}
	return st;
}

enum cua_status cua_judges_run(const char *self_exe, const char *vis,
                               const struct cua_sandbox_opts *so, const char *job,
                               size_t n, double timeout_s,
                               const struct cua_channel_key *key,
                               struct cua_child_result *r, char *err, size_t errlen)
{
	struct judge *j = judge_for(vis ? vis : "");
	if (!j) {
		cua_errf(err, errlen, "judges: more than %d devices", MAX_JUDGES);
		return CUA_E_INVALID;
	}
	if (n >= CUA_JOB_MAX) {
		cua_errf(err, errlen, "judges: a job of %zu bytes (at most %d)", n, CUA_JOB_MAX - 1);
		return CUA_E_INVALID;
	}
	char *msg = cua_xmalloc(8 + n);
	uint32_t hdr[2] = { CUA_JOB_MAGIC, (uint32_t)n };
	memcpy(msg, hdr, 8);
	memcpy(msg + 8, job, n);

	enum cua_status st = CUA_OK;
	pthread_mutex_lock(&j->lock);
	for (int attempt = 0; attempt < 2; attempt++) {
		bool reused = j->p.child.pid > 0;
		if (!reused && (st = start(j, self_exe, so, err, errlen)) != CUA_OK)
			break;
		struct answer a = { .key = key };
		st = cua_sandbox_exchange(&j->p, msg, 8 + n, timeout_s, answer_done, &a, r, err,
		                          errlen);
		if (st != CUA_OK)
			break;
		/* A judge that died between two jobs (nothing said about this one):
		 * once more, with a fresh one. */
		if (reused && r->how != CUA_CHILD_ALIVE && r->how != CUA_CHILD_TIMEOUT &&
		    r->channel_len == 0 && attempt == 0) {
			cua_child_result_clear(r);
			continue;
		}
		j->jobs++;
		if (r->how == CUA_CHILD_ALIVE && a.last)
			cua_sandbox_end(&j->p);
		break;
	}
	pthread_mutex_unlock(&j->lock);
	memset(msg, 0, 8 + n);   /* it held the job's key and seeds */
	free(msg);
	return st;
}

void cua_judges_shutdown(void)
{
	pthread_mutex_lock(&g_lock);
	int n = g_n;
	pthread_mutex_unlock(&g_lock);
	for (int i = 0; i < n; i++) {
		struct judge *j = &g_judges[i];
		if (pthread_mutex_trylock(&j->lock) == 0) {
			cua_sandbox_end(&j->p);
			pthread_mutex_unlock(&j->lock);
		} else if (j->p.child.pid > 0) {
			/* mid-evaluation in another thread, as the process exits */
			kill(-j->p.child.pid, SIGKILL);
		}
	}
}

int cua_judges_started(void)
{
	pthread_mutex_lock(&g_lock);
	int n = g_started;
	pthread_mutex_unlock(&g_lock);
	return n;
}
