/* lines.c — the lines of a run folder's files (results.h): the one walk that every
 * reader of them goes through (one schema check, one rule for torn lines),
 * run.json's check, the torn-tail cut and a task's flops and bytes. */
#include "results/results.h"
#include "catalogue/task.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>

static enum cua_status vline_err(const struct cua_results_at *at, char *err, size_t errlen,
                                 const char *fmt, va_list ap)
{
	char what[CUA_ERR_LEN];
	vsnprintf(what, sizeof(what), fmt, ap);
	if (at->line > 0)
		cua_errf(err, errlen, "%s: line %d: %s", at->path, at->line, what);
	else
		cua_errf(err, errlen, "%s: %s", at->path, what);
	return CUA_E_PARSE;
}

enum cua_status cua_results_line_err(const struct cua_results_at *at, char *err,
                                     size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	enum cua_status st = vline_err(at, err, errlen, fmt, ap);
	va_end(ap);
	return st;
}

/* The one schema check: an object whose "schema" is an integer this cuarena reads. */
static enum cua_status check_schema(const struct cua_results_at *at, const cJSON *o,
                                    char *err, size_t errlen)
{
	if (!cJSON_IsObject(o))
		return cua_results_line_err(at, err, errlen, "expected a JSON object");
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, "schema");
	if (!s)
		return cua_results_line_err(at, err, errlen, "no \"schema\" (every object "
		                            "carries \"schema\": %d)", CUA_RESULTS_SCHEMA);
	if (!cJSON_IsNumber(s) || s->valuedouble < 1 || s->valuedouble != floor(s->valuedouble) ||
	    s->valuedouble > 1e6)
		return cua_results_line_err(at, err, errlen, "schema: expected a positive integer");
	if ((int)s->valuedouble > CUA_RESULTS_SCHEMA)
		return cua_results_line_err(at, err, errlen, "schema %d is newer than this "
		                            "cuarena (%d)", (int)s->valuedouble, CUA_RESULTS_SCHEMA);
	return CUA_OK;
}

const char *const cua_results_file_names[CUA_RESULTS_N_FILES] = {
	[CUA_RESULTS_F_EVALS] = CUA_RESULTS_EVALS,
	[CUA_RESULTS_F_TRAJ] = CUA_RESULTS_TRAJ,
	[CUA_RESULTS_F_BASELINES] = CUA_RESULTS_BASELINES,
};

/* Length of a line without its trailing newline and blanks. */
static size_t trimmed(const char *buf, size_t n)
{
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' ' ||
	                 buf[n - 1] == '\t'))
		n--;
	return n;
}

static void add_tear(struct cua_results_tears *t, int line, long bytes, bool tail, bool glued)
{
	if (!t)
		return;
	if (t->n < CUA_RESULTS_TEARS)
		t->at[t->n] = (struct cua_results_tear){line, bytes, tail, glued};
	t->n++;
	t->bytes += bytes;
}

const char *cua_results_tear_text(const char *path, const struct cua_results_tear *t,
                                  char *buf, size_t len)
{
	if (t->tail)
		snprintf(buf, len, "%s: line %d: torn last line skipped (%ld bytes: its writer was "
		         "stopped while writing it)", path, t->line, t->bytes);
	else
		snprintf(buf, len, "%s: line %d: %ld bytes torn by a failed write (an older cuarena "
		         "did not cut them back) skipped%s", path, t->line, t->bytes,
		         t->glued ? "; the whole line glued after them is read" : "");
	return buf;
}

/* buf[0..n) as one JSON value and nothing after it (cJSON alone would take a
 * value and leave what follows unread: two records on one line are no record). */
static cJSON *parse_whole(const char *buf, size_t n)
{
	const char *end = NULL;
	cJSON *o = cJSON_ParseWithLengthOpts(buf, n, &end, false);
	if (o && end != buf + n) {
		cJSON_Delete(o);
		o = NULL;
	}
	return o;
}

/* The whole record an older writer glued after a failed append's torn bytes:
 * the earliest '{' from which the rest of the line parses as one object (a
 * torn prefix cannot itself close before the record does). Its offset in
 * buf[0..n), or 0 when there is none; *o is the record. */
static size_t glued_record(const char *buf, size_t n, cJSON **o)
{
	*o = NULL;
	for (size_t k = 1; k < n; k++) {
		if (buf[k] != '{')
			continue;
		cJSON *x = parse_whole(buf + k, n - k);
		if (cJSON_IsObject(x)) {
			*o = x;
			return k;
		}
		cJSON_Delete(x);
	}
	return 0;
}

enum cua_status cua_results_each_line(const char *path, enum cua_results_tail tail,
                                      cua_results_line_fn fn, void *ctx,
                                      struct cua_results_tears *tears, char *err,
                                      size_t errlen)
{
	struct cua_results_at at = {.path = path};
	long cut = 0;
	if (tears)
		memset(tears, 0, sizeof(*tears));
	if (tail == CUA_RESULTS_CUT_TORN && (cut = cua_results_drop_torn_tail(path)) < 0) {
		cua_errf(err, errlen, "%s: cannot cut its torn last line: %s", path,
		         strerror((int)-cut));
		return CUA_E_IO;
	}
	FILE *f = fopen(path, "rb");
	if (!f) {
		if (errno == ENOENT)
			return CUA_OK;
		cua_errf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return CUA_E_IO;
	}
	enum cua_status st = CUA_OK;
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;
	for (;;) {
		long off = ftell(f);
		if ((n = getline(&buf, &cap, f)) < 0)
			break;
		at.line++;
		size_t k = trimmed(buf, (size_t)n);
		if (k == 0)
			continue;
		size_t skip = 0;
		cJSON *o = parse_whole(buf, k);
		if (!o) {
			/* only the last line can lack its newline */
			if (buf[n - 1] != '\n') {
				add_tear(tears, at.line, (long)n, true, false);
				continue;
			}
			skip = glued_record(buf, k, &o);
			add_tear(tears, at.line, (long)(o ? skip : k), false, o != NULL);
			if (!o)
				continue;
		}
		at.offset = off + (long)skip;
		at.text = buf + skip;
		at.len = k - skip;
		st = check_schema(&at, o, err, errlen);
		if (st == CUA_OK)
			st = fn(ctx, o, &at, err, errlen);
		cJSON_Delete(o);
		if (st != CUA_OK)
			goto out;
	}
	if (ferror(f)) {
		cua_errf(err, errlen, "%s: read error: %s", path, strerror(errno));
		st = CUA_E_IO;
		goto out;
	}
	if (cut > 0)
		add_tear(tears, at.line + 1, cut, true, false);
out:
	free(buf);
	fclose(f);
	return st;
}

enum cua_status cua_results_read_run_json(const char *dir, cJSON **out, char *err,
                                          size_t errlen)
{
	char path[CUA_PATH_BUF], why[CUA_ERR_LEN];
	char *text = NULL;
	struct cua_results_at at = {.path = path};
	*out = NULL;
	snprintf(path, sizeof(path), "%s/" CUA_RESULTS_RUN_JSON, dir);
	enum cua_status st = cua_read_file(path, 64u << 20, &text, NULL, why, sizeof(why));
	if (st != CUA_OK) {
		cua_errf(err, errlen, "%s", why);
		return st == CUA_E_IO ? CUA_E_NOT_FOUND : st;
	}
	cJSON *o = cJSON_Parse(text);
	free(text);
	if (!o)
		return cua_results_line_err(&at, err, errlen, "not valid JSON");
	if ((st = check_schema(&at, o, err, errlen)) != CUA_OK)
		goto fail;
	const cJSON *agent = cJSON_GetObjectItemCaseSensitive(o, "agent");
	if (!cJSON_IsObject(agent)) {
		st = cua_results_line_err(&at, err, errlen, "agent: expected an object with "
		                          "\"name\"");
		goto fail;
	}
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(agent, "name");
	if (!cJSON_IsString(name) || !name->valuestring[0]) {
		st = cua_results_line_err(&at, err, errlen, "agent.name: expected a non-empty "
		                          "string");
		goto fail;
	}
	*out = o;
	return CUA_OK;
fail:
	cJSON_Delete(o);
	return st;
}

/* ---- the torn tail -------------------------------------------------------------- */

long cua_results_drop_torn_tail(const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	off_t size = lseek(fd, 0, SEEK_END), keep = size;
	long cut = 0;
	char c;
	while (keep > 0 && pread(fd, &c, 1, keep - 1) == 1 && c != '\n')
		keep--;
	if (keep != size) {
		if (ftruncate(fd, keep) == 0 && fsync(fd) == 0)
			cut = (long)(size - keep);
		else
			cut = -errno;
	}
	close(fd);
	return cut;
}

void cua_results_task_work(const struct cua_task *t, double *flops, double *bytes)
{
	int s = cua_task_timed_shape(t);
	int64_t v;
	/* exact as JSON numbers up to 2^53 (9e15): far above any task's */
	*flops = t->flops && cua_task_eval(t, s, t->flops, &v, NULL, 0) == CUA_OK && v >= 0
	             ? (double)v : NAN;
	*bytes = t->bytes && cua_task_eval(t, s, t->bytes, &v, NULL, 0) == CUA_OK && v >= 0
	             ? (double)v : NAN;
}
