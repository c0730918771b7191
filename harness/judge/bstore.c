/* bstore.c — the baseline store (bstore.h): keys and their canonical text, one
 * entry file per key written atomically and read defensively, and the decision of
 * which baselines of a task are reused, measured, or re-timed as the drift check. */
#include "judge/bstore.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>

/* ---- keys ------------------------------------------------------------------------ */

void cua_bstore_key_set(struct cua_bstore_key *k, const char *name, const char *fmt, ...)
{
	char v[sizeof(k->f[0].value) + 1];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(v, sizeof(v), fmt, ap);
	va_end(ap);
	CUA_ASSERT(n >= 0 && (size_t)n < sizeof(k->f[0].value));
	CUA_ASSERT(strlen(name) < sizeof(k->f[0].name) && name[0] && !strchr(name, '='));
	int i = 0;
	while (i < k->n && strcmp(k->f[i].name, name))
		i++;
	if (i == k->n) {
		CUA_ASSERT(k->n < CUA_BSTORE_KEY_FIELDS);
		k->n++;
		snprintf(k->f[i].name, sizeof(k->f[i].name), "%s", name);
	}
	memcpy(k->f[i].value, v, (size_t)n + 1);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

char *cua_bstore_key_text(const struct cua_bstore_key *k)
{
	const char *names[CUA_BSTORE_KEY_FIELDS];
	for (int i = 0; i < k->n; i++)
		names[i] = k->f[i].name;
	qsort(names, (size_t)k->n, sizeof(names[0]), by_name);
	struct cua_buf b = {0};
	cua_buf_printf(&b, "cuarena-baseline-key\n");
	for (int i = 0; i < k->n; i++) {
		const char *v = NULL;
		for (int j = 0; j < k->n; j++)
			if (k->f[j].name == names[i])
				v = k->f[j].value;
		cua_buf_printf(&b, "%s=", names[i]);
		for (; *v; v++) {
			if (*v == '\\')
				cua_buf_printf(&b, "\\\\");
			else if (*v == '\n')
				cua_buf_printf(&b, "\\n");
			else
				cua_buf_printf(&b, "%c", *v);
		}
		cua_buf_printf(&b, "\n");
	}
	return b.s;
}

void cua_bstore_key_sha256(const struct cua_bstore_key *k, char out[65])
{
	char *t = cua_bstore_key_text(k);
	cua_sha256_hex(t, strlen(t), out);
	free(t);
}

static cJSON *key_to_json(const struct cua_bstore_key *k)
{
	cJSON *o = cJSON_CreateObject();
	for (int i = 0; i < k->n; i++)
		cJSON_AddStringToObject(o, k->f[i].name, k->f[i].value);
	return o;
}

/* ---- origins ------------------------------------------------------------------------ */

const char *cua_bstore_how_name(enum cua_bstore_how h)
{
	return h == CUA_BSTORE_REUSED ? "reused" : h == CUA_BSTORE_MEASURED ? "measured" : "";
}

void cua_bstore_origin_to_json(cJSON *line, const struct cua_bstore_origin *o)
{
	if (!o || o->how == CUA_BSTORE_NONE)
		return;
	cJSON *s = cJSON_AddObjectToObject(line, "store");
	cJSON_AddStringToObject(s, "how", cua_bstore_how_name(o->how));
	if (o->key_sha256[0])
		cJSON_AddStringToObject(s, "key_sha256", o->key_sha256);
	if (o->drift_check) {
		cJSON *d = cJSON_AddObjectToObject(s, "drift_check");
		cJSON_AddNumberToObject(d, "stored_ms", o->stored_ms);
		if (isfinite(o->retimed_ms))
			cJSON_AddNumberToObject(d, "retimed_ms", o->retimed_ms);
		else
			cJSON_AddNullToObject(d, "retimed_ms");
		cJSON_AddNumberToObject(d, "tolerance", CUA_BSTORE_DRIFT_TOL);
		cJSON_AddBoolToObject(d, "drifted", o->drifted);
	}
}

/* ---- the store ------------------------------------------------------------------------ */

struct cua_bstore *cua_bstore_new(const char *dir, bool fresh, char *err, size_t errlen)
{
	if (!dir[0] || strlen(dir) >= CUA_PATH_LEN) {
		cua_errf(err, errlen, "the baseline store's folder: %s", dir[0] ? "too long a path"
		         : "an empty path");
		return NULL;
	}
	struct cua_bstore *s = cua_xcalloc(1, sizeof(*s));
	snprintf(s->dir, sizeof(s->dir), "%s", dir);
	s->fresh = fresh;
	s->log = stderr;
	pthread_mutex_init(&s->lock, NULL);
	return s;
}

void cua_bstore_free(struct cua_bstore *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->n_devices; i++)
		pthread_mutex_destroy(&s->devices[i].lock);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

struct cua_bstore_device *cua_bstore_device(struct cua_bstore *s, const char *gpu)
{
	const char *g = gpu ? gpu : "";
	struct cua_bstore_device *d = NULL;
	pthread_mutex_lock(&s->lock);
	for (int i = 0; i < s->n_devices && !d; i++)
		if (!strcmp(s->devices[i].gpu, g))
			d = &s->devices[i];
	if (!d) {
		/* a run has at most CUA_MAX_GPUS (16) devices, serve likewise */
		CUA_ASSERT(s->n_devices < (int)CUA_ARRAY_LEN(s->devices));
		d = &s->devices[s->n_devices++];
		memset(d, 0, sizeof(*d));
		snprintf(d->gpu, sizeof(d->gpu), "%s", g);
		pthread_mutex_init(&d->lock, NULL);
	}
	pthread_mutex_unlock(&s->lock);
	return d;
}

static void entry_path(const struct cua_bstore *s, const char *sha, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s.json", s->dir, sha);
}

static void warn(struct cua_bstore *s, const char *path, const char *why)
{
	if (s->log)
		fprintf(s->log, "cuarena: baseline store: %s: %s: ignored (measured again)\n",
		        path, why);
}

bool cua_bstore_get(struct cua_bstore *s, const struct cua_bstore_key *k,
                    const char *subject, struct cua_eval *e)
{
	char sha[65], path[CUA_PATH_BUF], why[CUA_ERR_LEN] = "";
	char *buf = NULL, *want = NULL, *have = NULL;
	size_t len = 0;
	bool hit = false;
	cJSON *j = NULL;

	cua_eval_init(e, subject);
	cua_bstore_key_sha256(k, sha);
	entry_path(s, sha, path, sizeof(path));
	if (access(path, F_OK) != 0)
		return false;   /* a miss, nothing to say */
	if (cua_read_file(path, CUA_BSTORE_ENTRY_MAX, &buf, &len, why, sizeof(why)) != CUA_OK)
		goto out;
	j = cJSON_ParseWithLength(buf, len);
	if (!cJSON_IsObject(j)) {
		snprintf(why, sizeof(why), "not a JSON object (corrupt or truncated, %zu bytes)",
		         len);
		goto out;
	}
	const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(j, "store");
	if (!cJSON_IsNumber(fmt) || fmt->valuedouble != CUA_BSTORE_FORMAT) {
		snprintf(why, sizeof(why), "\"store\" is not %d", CUA_BSTORE_FORMAT);
		goto out;
	}
	/* the key it holds must be this one, field for field (a file copied or
	 * renamed into place is never taken for another key's) */
	const cJSON *ko = cJSON_GetObjectItemCaseSensitive(j, "key");
	struct cua_bstore_key got = {0};
	const cJSON *f;
	bool key_ok = cJSON_IsObject(ko);
	cJSON_ArrayForEach(f, ko) {
		if (!key_ok)
			break;
		key_ok = cJSON_IsString(f) && f->string[0] && !strchr(f->string, '=') &&
		         strlen(f->string) < sizeof(got.f[0].name) &&
		         strlen(f->valuestring) < sizeof(got.f[0].value) &&
		         got.n < CUA_BSTORE_KEY_FIELDS;
		if (key_ok)
			cua_bstore_key_set(&got, f->string, "%s", f->valuestring);
	}
	want = cua_bstore_key_text(k);
	have = key_ok ? cua_bstore_key_text(&got) : NULL;
	if (!have || strcmp(want, have)) {
		snprintf(why, sizeof(why), "its \"key\" is not the key it is filed under");
		goto out;
	}
	if (cua_eval_from_json(cJSON_GetObjectItemCaseSensitive(j, "eval"), e, why,
	                       sizeof(why)) != CUA_OK)
		goto out;
	if (strcmp(e->subject, subject)) {
		snprintf(why, sizeof(why), "holds subject \"%.60s\", not \"%.60s\"", e->subject,
		         subject);
		goto out;
	}
	const struct cua_stats *ts = cua_timing_stats(&e->timing);
	if (e->verdict != CUA_VERDICT_OK || e->imported || !e->timing.done ||
	    !(ts->median > 0) || !isfinite(ts->median)) {
		snprintf(why, sizeof(why), "not a correct, timed measurement");
		goto out;
	}
	hit = true;
out:
	if (!hit) {
		if (why[0])
			warn(s, path, why);
		cua_eval_clear(e);
		cua_eval_init(e, subject);
	}
	cJSON_Delete(j);
	free(buf);
	free(want);
	free(have);
	return hit;
}

enum cua_status cua_bstore_put(struct cua_bstore *s, const struct cua_bstore_key *k,
                               const struct cua_eval *e, char *err, size_t errlen)
{
	char sha[65], path[CUA_PATH_BUF], tmp[CUA_PATH_BUF], stamp[32];
	enum cua_status st = CUA_OK;
	char *text = NULL;
	int fd = -1;

	if (e->verdict != CUA_VERDICT_OK || e->imported || !e->timing.done ||
	    !(cua_timing_stats(&e->timing)->median > 0)) {
		cua_errf(err, errlen, "%s: only a correct, timed measurement is stored", e->subject);
		return CUA_E_INVALID;
	}
	if ((st = cua_mkdirs(s->dir, err, errlen)) != CUA_OK)
		return st;
	cua_bstore_key_sha256(k, sha);
	entry_path(s, sha, path, sizeof(path));
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	cJSON *j = cJSON_CreateObject();
	cJSON_AddNumberToObject(j, "store", CUA_BSTORE_FORMAT);
	cJSON_AddStringToObject(j, "key_sha256", sha);
	cJSON_AddItemToObject(j, "key", key_to_json(k));
	cJSON_AddStringToObject(j, "stored", stamp);
	cJSON_AddStringToObject(j, "harness", cua_git_sha);
	cJSON_AddItemToObject(j, "eval", cua_eval_to_json(e));
	text = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	CUA_ASSERT(text);
	/* a temporary name of this writer's own (several threads and processes may
	 * store the same key at once: each renames a whole file over it) */
	snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", s->dir, sha);
	fd = mkstemp(tmp);
	if (fd < 0) {
		cua_errf(err, errlen, "%s: cannot write: %s", tmp, strerror(errno));
		st = CUA_E_IO;
		goto out;
	}
	size_t left = strlen(text);
	const char *p = text;
	while (left > 0) {
		ssize_t w = write(fd, p, left);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			cua_errf(err, errlen, "%s: write failed: %s", tmp, strerror(errno));
			st = CUA_E_IO;
			goto out;
		}
		p += w;
		left -= (size_t)w;
	}
	if (fchmod(fd, 0644) != 0 || fsync(fd) != 0) {
		cua_errf(err, errlen, "%s: %s", tmp, strerror(errno));
		st = CUA_E_IO;
		goto out;
	}
	int rc = close(fd);
	fd = -1;
	if (rc != 0 || rename(tmp, path) != 0) {
		cua_errf(err, errlen, "%s: cannot finish writing: %s", path, strerror(errno));
		st = CUA_E_IO;
		goto out;
	}
	tmp[0] = '\0';
	int dfd = open(s->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);   /* the rename itself durable; a failure here loses only a cache entry */
		close(dfd);
	}
	pthread_mutex_lock(&s->lock);
	s->stored++;
	pthread_mutex_unlock(&s->lock);
out:
	if (fd >= 0)
		close(fd);
	if (st != CUA_OK && tmp[0])
		unlink(tmp);
	free(text);
	return st;
}

/* ---- the decision ------------------------------------------------------------------------ */

static void store_one(struct cua_bstore *s, struct cua_bstore_item *it)
{
	char err[CUA_ERR_LEN];
	const struct cua_eval *e = it->e;
	if (!it->key.n || it->no_store || e->verdict != CUA_VERDICT_OK || !e->timing.done)
		return;
	if (cua_bstore_put(s, &it->key, e, err, sizeof(err)) != CUA_OK && s->log)
		fprintf(s->log, "cuarena: baseline store: %s: not stored: %s\n", it->subject, err);
}

/* d has drifted: nothing is reused on it again; counted once per device. d->lock held. */
static void mark_drifted(struct cua_bstore *s, struct cua_bstore_device *d)
{
	if (d->drifted)
		return;
	d->drifted = true;
	pthread_mutex_lock(&s->lock);
	s->drift_drifted++;
	pthread_mutex_unlock(&s->lock);
}

static enum cua_status measure_one(struct cua_bstore *s, struct cua_bstore_device *d,
                                   struct cua_bstore_item *it, int i,
                                   cua_bstore_measure_fn measure, void *ctx, char *err,
                                   size_t errlen)
{
	cua_eval_clear(it->e);
	cua_eval_init(it->e, it->subject);
	it->no_store = false;
	enum cua_status st = measure(ctx, i, it, err, errlen);
	if (st != CUA_OK)
		return st;
	it->origin.how = CUA_BSTORE_MEASURED;
	if (it->no_store)
		mark_drifted(s, d);  /* measured on another device than the keys name:
		                      * nothing keyed by that one is reused here again */
	pthread_mutex_lock(&s->lock);
	s->measured++;
	pthread_mutex_unlock(&s->lock);
	store_one(s, it);
	return CUA_OK;
}

enum cua_status cua_bstore_obtain(struct cua_bstore *s, struct cua_bstore_device *d,
                                  bool fresh, const char *task,
                                  struct cua_bstore_item *items, int n,
                                  cua_bstore_measure_fn measure, void *ctx, char *err,
                                  size_t errlen)
{
	enum cua_status st = CUA_OK;
	bool *done = cua_xcalloc((size_t)(n > 0 ? n : 1), sizeof(bool));
	pthread_mutex_lock(&d->lock);
	int retime = -1;
	for (int i = 0; i < n; i++) {
		struct cua_bstore_item *it = &items[i];
		memset(&it->origin, 0, sizeof(it->origin));
		it->origin.how = CUA_BSTORE_MEASURED;
		if (it->key.n)
			cua_bstore_key_sha256(&it->key, it->origin.key_sha256);
		if (!it->key.n || fresh || s->fresh || d->drifted)
			continue;
		cua_eval_clear(it->e);
		if (!cua_bstore_get(s, &it->key, it->subject, it->e))
			continue;
		it->origin.how = CUA_BSTORE_REUSED;
		done[i] = true;
		if (!d->checked && (retime < 0 ||
		                    cua_timing_stats(&it->e->timing)->median <
		                        cua_timing_stats(&items[retime].e->timing)->median))
			retime = i;
	}
	if (retime >= 0) {
		/* the drift check: this device's first reuse in this invocation */
		struct cua_bstore_item *it = &items[retime];
		double stored = cua_timing_stats(&it->e->timing)->median;
		d->checked = true;
		if ((st = measure_one(s, d, it, retime, measure, ctx, err, errlen)) != CUA_OK)
			goto out;
		const struct cua_eval *e = it->e;
		double now = e->verdict == CUA_VERDICT_OK && e->timing.done
		             ? cua_timing_stats(&e->timing)->median : NAN;
		it->origin.drift_check = true;
		it->origin.stored_ms = stored;
		it->origin.retimed_ms = now;
		it->origin.drifted = it->no_store ||
		                     !(fabs(now / stored - 1.0) <= CUA_BSTORE_DRIFT_TOL);
		if (s->log)
			fprintf(s->log, "cuarena: baseline store: drift check on GPU %s: %s %s "
			        "stored %.4f ms, now %.4f ms (%+.2f %%): %s\n",
			        d->gpu[0] ? d->gpu : "(default)", task, it->subject, stored,
			        now, 100.0 * (now / stored - 1.0),
			        it->origin.drifted ? "outside 2 %, every baseline is measured again"
			                           : "within 2 %, stored baselines are reused");
		if (it->origin.drifted) {
			mark_drifted(s, d);
			for (int i = 0; i < n; i++)
				if (i != retime && items[i].origin.how == CUA_BSTORE_REUSED)
					done[i] = false;
		} else {
			pthread_mutex_lock(&s->lock);
			s->drift_passed++;
			pthread_mutex_unlock(&s->lock);
		}
	}
	for (int i = 0; i < n; i++) {
		if (done[i] || i == retime)
			continue;
		if ((st = measure_one(s, d, &items[i], i, measure, ctx, err, errlen)) != CUA_OK)
			goto out;
	}
	pthread_mutex_lock(&s->lock);
	for (int i = 0; i < n; i++)
		s->reused += items[i].origin.how == CUA_BSTORE_REUSED;
	pthread_mutex_unlock(&s->lock);
out:
	pthread_mutex_unlock(&d->lock);
	free(done);
	return st;
}
