/* lines.c — the lines of a run folder's files, both ways (results.h): the one walk
 * that every reader of them goes through (one schema check, one torn-tail rule),
 * run.json's check, the one append rule, the torn-tail cut and the baselines line. */
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

/* Length of a line without its trailing newline and blanks. */
static size_t trimmed(const char *buf, size_t n)
{
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' ' ||
	                 buf[n - 1] == '\t'))
		n--;
	return n;
}

enum cua_status cua_results_each_line(const char *path, enum cua_results_tail tail,
                                      cua_results_line_fn fn, void *ctx, int *torn,
                                      char *err, size_t errlen)
{
	struct cua_results_at at = {.path = path};
	long cut = 0;
	if (torn)
		*torn = 0;
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
	int bad_line = 0;
	bool followed = false;   /* a non-blank line came after the bad one */
	for (;;) {
		long off = ftell(f);
		if ((n = getline(&buf, &cap, f)) < 0)
			break;
		at.line++;
		size_t k = trimmed(buf, (size_t)n);
		if (k == 0)
			continue;
		if (bad_line) {
			followed = true;
			break;
		}
		cJSON *o = cJSON_ParseWithLength(buf, k);
		if (!o) {
			bad_line = at.line;
			if (tail == CUA_RESULTS_CUT_TORN)
				break;   /* it ended in a newline: not torn by a kill */
			continue;
		}
		at.offset = off;
		at.text = buf;
		at.len = k;
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
	if (bad_line && (followed || tail == CUA_RESULTS_CUT_TORN)) {
		at.line = bad_line;
		st = cua_results_line_err(&at, err, errlen, "not valid JSON");
		goto out;
	}
	if (torn)
		*torn = cut > 0 ? at.line + 1 : bad_line;
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
	snprintf(path, sizeof(path), "%s/run.json", dir);
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

/* ---- writing ------------------------------------------------------------------ */

int cua_results_append(int fd, cJSON *obj)
{
	cJSON_AddNumberToObject(obj, "schema", CUA_RESULTS_SCHEMA);
	char *txt = cJSON_PrintUnformatted(obj);
	cJSON_Delete(obj);
	CUA_ASSERT(txt);
	size_t n = strlen(txt);
	txt[n] = '\n';   /* in place of the NUL: n + 1 bytes go out */
	int e = 0;
	for (size_t off = 0; off < n + 1;) {
		ssize_t k = write(fd, txt + off, n + 1 - off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			e = k < 0 ? errno : EIO;
			break;
		}
		off += (size_t)k;
	}
	fsync(fd);
	free(txt);
	return e;
}

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

cJSON *cua_results_baseline_line(const struct cua_task *t, const struct cua_eval *e,
                                 const char *gpu)
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
	if (gpu)
		cJSON_AddStringToObject(l, "gpu", gpu);
	return l;
}
