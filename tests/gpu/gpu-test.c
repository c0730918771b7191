/* gpu-test.c — the GPU suite, a plain runner (no Criterion on the GPU machine).
 *
 *   make gpu-test            (or: build/gpu-test [--only SUBSTRING])
 *
 * 1. Every task: its reference submitted as a candidate, evaluated with the nvcc
 *    reference and every library baseline in one invocation: all must pass the
 *    fp64 oracle at every shape set, and the self-speedup must be 1.00 +- 0.02.
 * 2. Every file in tests/gpu/candidates/: header lines say the task, the verdict
 *    it must get, and optionally a message substring, a minimum speedup, a timeout.
 * The harness (this process) must survive all of them. Prints one line per test
 * and a final "N passed, N failed"; details go to $OUT/gpu-test.jsonl when OUT is set.
 */
#include "eval.h"
#include "task.h"
#include "verdict.h"

#include <dirent.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>

static int passed, failed;
static FILE *details;

static void result(bool ok, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void result(bool ok, const char *name, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printf("%s %s: %s\n", ok ? "PASS" : "FAIL", name, msg);
	fflush(stdout);
	if (ok)
		passed++;
	else
		failed++;
}

static void log_report(const char *name, const struct cua_report *r)
{
	if (!details)
		return;
	cJSON *o = cua_report_to_json(r);
	cJSON_AddStringToObject(o, "test", name);
	char *s = cJSON_PrintUnformatted(o);
	fprintf(details, "%s\n", s);
	fflush(details);
	free(s);
	cJSON_Delete(o);
}

static void test_task(const struct cua_task *t, const struct cua_eval_opts *o)
{
	char src[4200], err[CUA_ERR_LEN], name[128];
	struct cua_report r;

	snprintf(src, sizeof(src), "%s/reference.cu", t->dir);
	double t0 = cua_now();
	enum cua_status st = cua_report_run(t, src, o, &r, err, sizeof(err));
	if (st != CUA_OK) {
		result(false, t->id, "harness error: %s", err);
		cua_report_free(&r);
		return;
	}
	log_report(t->id, &r);
	for (int i = 0; i < r.n_base; i++) {
		const struct cua_eval *b = &r.base[i];
		double ma = 0;
		for (int k = 0; k < b->n_cases; k++)
			if (b->cases[k].max_abs > ma)
				ma = b->cases[k].max_abs;
		snprintf(name, sizeof(name), "%s %s matches the oracle", t->id, b->subject);
		if (b->verdict == CUA_VERDICT_OK)
			result(true, name, "%d cases, max abs err %.3g, median %.4f ms, %.1f%% SOL",
			       b->n_cases, ma, b->timing.event_ms.median, b->pct_sol);
		else
			result(false, name, "%s: %s", cua_verdict_name(b->verdict), b->message);
	}
	snprintf(name, sizeof(name), "%s reference as a candidate has self-speedup 1.00", t->id);
	double s = cua_speedup(&r.base[0], &r.candidate);
	if (r.candidate.verdict != CUA_VERDICT_OK)
		result(false, name, "%s: %s", cua_verdict_name(r.candidate.verdict),
		       r.candidate.message);
	else
		result(s >= 0.98 && s <= 1.02, name, "%.4fx (nvcc %.4f ms, candidate %.4f ms; "
		       "whole task %.1f s)", s, r.base[0].timing.event_ms.median,
		       r.candidate.timing.event_ms.median, cua_now() - t0);
	cua_report_free(&r);
}

struct expect {
	char task[64], verdict[64], message[128], speedup_vs[64];
	double speedup_min, timeout_s;
};

static void read_expect(const char *path, struct expect *x)
{
	char line[512];
	FILE *f = fopen(path, "r");
	memset(x, 0, sizeof(*x));
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && !strncmp(line, "//", 2)) {
		line[strcspn(line, "\n")] = '\0';
		sscanf(line, "// task: %63s", x->task);
		sscanf(line, "// expect: %63s", x->verdict);
		sscanf(line, "// expect-speedup: %63s %lf", x->speedup_vs, &x->speedup_min);
		sscanf(line, "// timeout-s: %lf", &x->timeout_s);
		if (!strncmp(line, "// expect-message: ", 19))
			snprintf(x->message, sizeof(x->message), "%.127s", line + 19);
	}
	fclose(f);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static void test_candidates(const struct cua_catalogue *cat, const char *root,
                            const struct cua_eval_opts *base, const char *only)
{
	char dir[4200], path[4400], err[CUA_ERR_LEN];
	struct dirent **names;

	snprintf(dir, sizeof(dir), "%s/tests/gpu/candidates", root);
	int n = scandir(dir, &names, NULL, by_name);
	for (int i = 0; i < n; i++) {
		const char *fn = names[i]->d_name;
		size_t len = strlen(fn);
		if (len < 4 || strcmp(fn + len - 3, ".cu") || (only && !strstr(fn, only))) {
			free(names[i]);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, fn);
		struct expect x;
		read_expect(path, &x);
		const struct cua_task *t = cua_catalogue_find(cat, x.task, err, sizeof(err));
		enum cua_verdict want;
		if (!t || !cua_verdict_parse(x.verdict, &want)) {
			result(false, fn, "bad header (task '%s', expect '%s')", x.task, x.verdict);
			free(names[i]);
			continue;
		}
		struct cua_eval_opts o = *base;
		if (x.timeout_s > 0)
			o.run_timeout_s = x.timeout_s;
		struct cua_report r;
		double t0 = cua_now();
		enum cua_status st = cua_report_run(t, path, &o, &r, err, sizeof(err));
		double dt = cua_now() - t0;
		if (st != CUA_OK) {
			result(false, fn, "harness error: %s", err);
			cua_report_free(&r);
			free(names[i]);
			continue;
		}
		log_report(fn, &r);
		const struct cua_eval *c = &r.candidate;
		bool ok = c->verdict == want;
		if (ok && x.message[0] && !strstr(c->message, x.message))
			ok = false;
		double sp = 0;
		if (ok && x.speedup_vs[0]) {
			for (int k = 0; k < r.n_base; k++)
				if (!strcmp(r.base[k].subject, x.speedup_vs))
					sp = cua_speedup(&r.base[k], c);
			ok = sp > x.speedup_min;
		}
		char extra[160] = "";
		if (x.speedup_vs[0])
			snprintf(extra, sizeof(extra), ", %.2fx vs %s", sp, x.speedup_vs);
		result(ok, fn, "want %s, got %s%s (%.1f s): %s", x.verdict,
		       cua_verdict_name(c->verdict), extra, dt, c->message);
		cua_report_free(&r);
		free(names[i]);
	}
	free(names);
}

int main(int argc, char **argv)
{
	char self[4096], exe[4200], root[4096], err[CUA_ERR_LEN];
	const char *only = NULL;
	struct cua_catalogue cat;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--only") && i + 1 < argc)
			only = argv[++i];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return 2;
	self[n] = '\0';
	*strrchr(self, '/') = '\0';                       /* build/ */
	snprintf(exe, sizeof(exe), "%s/cuarena", self);
	snprintf(root, sizeof(root), "%s", getenv("CUARENA_ROOT") ? getenv("CUARENA_ROOT") : self);
	if (!getenv("CUARENA_ROOT"))
		*strrchr(root, '/') = '\0';                   /* repo root */
	if (access("/dev/nvidiactl", F_OK) != 0 && access("/dev/nvidia0", F_OK) != 0) {
		printf("SKIP gpu-test: no NVIDIA GPU on this machine; run it on the GPU machine\n");
		printf("0 passed, 0 failed, 1 skipped\n");
		return 0;
	}
	const char *out = getenv("OUT");
	if (out) {
		char p[4200];
		snprintf(p, sizeof(p), "%s/gpu-test.jsonl", out);
		details = fopen(p, "w");
	}
	enum cua_status st = cua_catalogue_load(root, &cat, err, sizeof(err));
	if (st != CUA_OK) {
		printf("FAIL catalogue: %s%s\n", err, cat.errors ? cat.errors : "");
		failed++;
	}
	char cache[4200];
	snprintf(cache, sizeof(cache), "%s/cache", self);
	struct cua_eval_opts o;
	cua_eval_opts_init(&o, root, exe, getenv("CUARENA_CACHE") ? getenv("CUARENA_CACHE") : cache);
	o.max_time_s = 2;

	double t0 = cua_now();
	for (int i = 0; i < cat.n; i++)
		if (!only || strstr(cat.tasks[i]->id, only))
			test_task(cat.tasks[i], &o);
	test_candidates(&cat, root, &o, only);
	printf("gpu-test: %.1f s on the GPU machine\n", cua_now() - t0);
	printf("%d passed, %d failed\n", passed, failed);
	if (details)
		fclose(details);
	cua_catalogue_free(&cat);
	return failed ? 1 : 0;
}
