/* cmd-selftest.c — `cuarena selftest`: the catalogue validates itself.
 *
 *   cuarena selftest [TASK|PATTERN...] [--compile-only] [--jobs N] [--no-time]
 *                    [--max-time-s S] [--dump DIR] [--out FILE] [--json]
 *
 * Without a GPU (--compile-only, what CI runs): every task file loads, and every
 * reference and baseline compiles with nvcc and passes the static check.
 * On the GPU: for every task, the nvcc reference and each library baseline are
 * checked against the fp64 oracle at every shape set and timed, and the task is
 * proved non-degenerate from its oracle (zeros, a constant, another seed, each
 * input regenerated alone: each must leave the tolerance). --dump writes each
 * task's check-shape inputs and oracle outputs for tools/torch_check.py.
 * Prints one line per task and a final "N passed, N failed".
 */
#include "cli/cli.h"
#include "eval/precheck.h"

#include <fnmatch.h>
#include <math.h>
#include <pthread.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>

struct build_job {
	const struct cua_task *task;
	char src[CUA_PATH_BUF];
	char what[160];          /* "L1/019-relu reference" */
	const char *subject;     /* a baseline's name ("cublas/sgemm"); NULL: the reference */
	bool ok;
	char msg[1200];
};

struct pool {
	struct build_job *jobs;
	int n, next;
	pthread_mutex_t lock;
	const char *root, *cache;
};

/* The checks every kernel passes before it runs (cua_precheck): build, symbols,
 * and for a reference its SASS against the task's precision policy. */
static void build_one(struct pool *p, struct build_job *j)
{
	struct cua_eval_opts o;
	struct cua_build b;
	struct cua_eval e;
	char err[CUA_ERR_LEN];

	cua_eval_opts_init(&o, p->root, NULL, p->cache);
	cua_eval_init(&e, j->subject ? j->subject : "nvcc");
	enum cua_status st = cua_precheck(j->task, j->src,
	                                  j->subject ? CUA_SUBJECT_BASELINE : CUA_SUBJECT_REFERENCE,
	                                  e.subject, &o, NULL, &b, &e, err, sizeof(err));
	if (st != CUA_OK) {
		snprintf(j->msg, sizeof(j->msg), "%s", err);
	} else if (e.verdict == CUA_VERDICT_COMPILE_ERROR ||
	           e.verdict == CUA_VERDICT_COMPILE_TIMEOUT) {
		const char *log = e.compile_log ? e.compile_log : e.message;
		const char *first = strstr(log, "error");
		snprintf(j->msg, sizeof(j->msg), "does not compile: %.400s",
		         first ? first : log);
	} else if (e.verdict != CUA_VERDICT_OK) {
		snprintf(j->msg, sizeof(j->msg), "%s: %.1000s", cua_verdict_name(e.verdict),
		         e.message);
	} else {
		j->ok = true;
		snprintf(j->msg, sizeof(j->msg), "%s", b.cached ? "cached" : "built");
	}
	cua_build_clear(&b);
	cua_eval_clear(&e);
}

static void *build_worker(void *arg)
{
	struct pool *p = arg;
	for (;;) {
		pthread_mutex_lock(&p->lock);
		int i = p->next < p->n ? p->next++ : -1;
		pthread_mutex_unlock(&p->lock);
		if (i < 0)
			return NULL;
		build_one(p, &p->jobs[i]);
	}
}

static bool is_pattern(const char *s)
{
	return strpbrk(s, "*?[@") != NULL;
}

/* A name selects a task by id/folder/slug/number, or as a shell pattern matched
 * against the id and the folder ("0[5-9]*"). */
static bool selected(const struct cua_task *t, int n_names, char **names,
                     const struct cua_catalogue *cat)
{
	if (n_names == 0)
		return true;
	const char *folder = strrchr(t->id, '/');
	folder = folder ? folder + 1 : t->id;
	for (int i = 0; i < n_names; i++) {
		if (is_pattern(names[i])) {
			if (!fnmatch(names[i], t->id, FNM_EXTMATCH) ||
			    !fnmatch(names[i], folder, FNM_EXTMATCH))
				return true;
		} else if (cua_catalogue_find(cat, names[i], NULL, 0) == t)
			return true;
	}
	return false;
}

/* Builds every reference and baseline of the selected tasks on `jobs` threads
 * and runs the static check. quiet: only failures are printed (the GPU selftest
 * warms the build cache this way, so no build waits on the GPU). */
static int compile_only(struct cua_cli *cli, const struct cua_catalogue *cat,
                        int n_names, char **names, int jobs, bool quiet)
{
	struct pool p;
	int passed = 0, failed = 0;

	memset(&p, 0, sizeof(p));
	pthread_mutex_init(&p.lock, NULL);
	p.root = cli->root;
	p.cache = cli->cache;
	p.jobs = calloc((size_t)cat->n * (CUA_MAX_BASELINES + 1) + 1, sizeof(*p.jobs));
	CUA_ASSERT(p.jobs);
	for (int i = 0; i < cat->n; i++) {
		const struct cua_task *t = cat->tasks[i];
		if (!selected(t, n_names, names, cat))
			continue;
		struct build_job *j = &p.jobs[p.n++];
		j->task = t;
		snprintf(j->src, sizeof(j->src), "%s/reference.cu", t->dir);
		snprintf(j->what, sizeof(j->what), "%s reference", t->id);
		for (int k = 0; k < t->n_baselines; k++) {
			j = &p.jobs[p.n++];
			j->task = t;
			cua_baseline_path(cli->root, t->baselines[k], j->src, sizeof(j->src));
			snprintf(j->what, sizeof(j->what), "%s %s", t->id, t->baselines[k]);
			j->subject = t->baselines[k];
		}
	}
	pthread_t th[64];
	/* Probe nvcc once before the workers start, from a single thread. */
	const char *nvcc = cua_find_nvcc();
	if (!nvcc || !cua_nvcc_version(nvcc)) {
		printf("FAIL nvcc: %s\n", nvcc ? "`nvcc --version` does not run" : "not found");
		printf("0 passed, 1 failed\n");
		free(p.jobs);
		pthread_mutex_destroy(&p.lock);
		return CUA_EXIT_ENV;
	}
	if (jobs < 1)
		jobs = 1;
	if (jobs > 64)
		jobs = 64;
	double t0 = cua_now();
	int started = 0;
	for (int i = 0; i < jobs; i++)
		if (pthread_create(&th[started], NULL, build_worker, &p) == 0)
			started++;
	if (!started)
		build_worker(&p);
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < p.n; i++) {
		struct build_job *j = &p.jobs[i];
		if (!quiet || !j->ok) {
			printf("%s %s: ", j->ok ? "PASS" : "FAIL", j->what);
			cua_fput_term(stdout, j->msg);   /* the compiler's words */
			fputs("\n", stdout);
		}
		if (j->ok)
			passed++;
		else
			failed++;
	}
	if (!quiet) {
		printf("selftest --compile-only: %d objects in %.1f s with %d jobs\n", p.n,
		       cua_now() - t0, jobs);
		printf("%d passed, %d failed\n", passed, failed);
	} else
		printf("selftest: %d objects built in %.1f s with %d jobs\n", p.n,
		       cua_now() - t0, jobs);
	free(p.jobs);
	pthread_mutex_destroy(&p.lock);
	return failed ? CUA_EXIT_FAILED : CUA_EXIT_OK;
}

static cJSON *eval_summary(const struct cua_eval *e)
{
	cJSON *o = cJSON_CreateObject();
	double ma, mr;
	cua_eval_max_errors(e, &ma, &mr);
	cJSON_AddStringToObject(o, "subject", e->subject);
	cJSON_AddStringToObject(o, "verdict", cua_verdict_name(e->verdict));
	cJSON_AddStringToObject(o, "message", e->message);
	cJSON_AddNumberToObject(o, "cases", e->n_cases);
	cJSON_AddNumberToObject(o, "max_abs", ma);
	cJSON_AddNumberToObject(o, "max_rel", mr);
	if (e->timing.done) {
		cJSON_AddNumberToObject(o, "median_ms", cua_timing_stats(&e->timing)->median);
		cJSON_AddNumberToObject(o, "iqr_ms", cua_timing_stats(&e->timing)->iqr);
		cJSON_AddNumberToObject(o, "n", cua_timing_stats(&e->timing)->n);
	}
	if (e->sol_ms > 0) {
		cJSON_AddNumberToObject(o, "sol_ms", e->sol_ms);
		cJSON_AddNumberToObject(o, "pct_sol", e->pct_sol);
	}
	struct cua_accuracy_summary a;
	cua_eval_accuracy(e, &a);
	if (a.judged) {   /* correct fp32 code against the rounding the task forbids */
		cJSON *j = cJSON_AddObjectToObject(o, "accuracy");
		cJSON_AddStringToObject(j, "vs", a.vs);
		cJSON_AddNumberToObject(j, "judged", a.judged);
		cJSON_AddNumberToObject(j, "exposed", a.exposed);
		cJSON_AddNumberToObject(j, "max_rho", a.max_rho);
		cJSON_AddNumberToObject(j, "max_explained", a.max_explained);
		cJSON_AddNumberToObject(j, "max_err_ratio", a.max_err_ratio);
		cJSON_AddNumberToObject(j, "max_err_ratio_exposed", a.max_err_ratio_exposed);
	}
	return o;
}

int cmd_selftest(struct cua_cli *cli, int argc, char **argv)
{
	struct cua_catalogue cat;
	char err[CUA_ERR_LEN];
	bool compile = false, timing = true;
	const char *dump = NULL, *out = NULL;
	double max_time = 1.0;
	int jobs = cua_cpus();
	char **names = calloc((size_t)argc + 1, sizeof(char *));
	int n_names = 0, passed = 0, failed = 0;

	CUA_ASSERT(names);
	for (int i = 1; i < argc; i++) {
		char *end = NULL;
		if (!strcmp(argv[i], "--compile-only"))
			compile = true;
		else if (!strcmp(argv[i], "--no-time"))
			timing = false;
		else if (!strcmp(argv[i], "--dump") && i + 1 < argc)
			dump = argv[++i];
		else if (!strcmp(argv[i], "--out") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "--jobs") && i + 1 < argc) {
			jobs = (int)strtol(argv[++i], &end, 10);
			if (*end || jobs < 1) {
				free(names);
				return cua_cli_usage("selftest");
			}
		} else if (!strcmp(argv[i], "--max-time-s") && i + 1 < argc) {
			max_time = strtod(argv[++i], &end);
			if (*end || !(max_time > 0)) {
				free(names);
				return cua_cli_usage("selftest");
			}
		} else if (argv[i][0] == '-') {
			free(names);
			return cua_cli_usage("selftest");
		} else
			names[n_names++] = argv[i];
	}
	enum cua_status st = cua_catalogue_load(cli->root, &cat, err, sizeof(err));
	if (st != CUA_OK && st != CUA_E_PARSE) {
		fprintf(stderr, "cuarena selftest: %s\n", err);
		free(names);
		return CUA_EXIT_ENV;
	}
	if (cat.errors && n_names == 0) {
		/* every bad task file is a failure of the whole catalogue's selftest */
		char *dup = strdup(cat.errors), *save = NULL;
		for (char *l = strtok_r(dup, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			printf("FAIL %s\n", l);
			failed++;
		}
		free(dup);
	} else if (cat.errors)
		fprintf(stderr, "cuarena selftest: (other tasks failed to load)\n%s", cat.errors);
	for (int i = 0; i < n_names; i++)
		if (!is_pattern(names[i]) && !cua_catalogue_find(&cat, names[i], err, sizeof(err))) {
			fprintf(stderr, "cuarena selftest: %s\n", err);
			cua_catalogue_clear(&cat);
			free(names);
			return CUA_EXIT_USAGE;
		}
	if (compile) {
		int rc = compile_only(cli, &cat, n_names, names, jobs, false);
		if (failed) {
			printf("(and %d task file(s) failed to load, above)\n", failed);
			rc = CUA_EXIT_FAILED;
		}
		cua_catalogue_clear(&cat);
		free(names);
		return rc;
	}
	if (!cua_have_gpu()) {
		fprintf(stderr, "cuarena selftest: no NVIDIA GPU on this machine (no "
		                "/dev/nvidia*): use --compile-only here.\n");
		cua_catalogue_clear(&cat);
		free(names);
		return CUA_EXIT_ENV;
	}

	/* Every build first, in parallel: GPU work never waits for nvcc. A failed
	 * build shows up again, as a verdict, when its task runs. */
	compile_only(cli, &cat, n_names, names, jobs, true);
	fflush(stdout);

	struct cua_eval_opts o;
	cua_cli_eval_opts(cli, &o, NULL);
	o.time = timing;
	o.max_time_s = max_time;
	cJSON *doc = cJSON_CreateObject();
	cJSON_AddNumberToObject(doc, "schema", 1);
	cJSON_AddStringToObject(doc, "catalogue_hash", cat.hash);
	cJSON_AddNumberToObject(doc, "catalogue_version", cat.version);
	{
		char when[64];
		time_t now = time(NULL);
		struct tm tmv;
		gmtime_r(&now, &tmv);
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tmv);
		cJSON_AddStringToObject(doc, "date", when);
	}
	cJSON *arr = cJSON_AddArrayToObject(doc, "tasks");
	struct cua_device dev;
	memset(&dev, 0, sizeof(dev));
	double t0 = cua_now();
	for (int i = 0; i < cat.n; i++) {
		const struct cua_task *t = cat.tasks[i];
		if (!selected(t, n_names, names, &cat))
			continue;
		struct cua_report r;
		struct cua_eval de;
		struct cua_degeneracy d;
		char dump_dir[CUA_PATH_BUF];
		double ts = cua_now();
		st = cua_report_run(t, NULL, &o, &r, err, sizeof(err));
		if (st != CUA_OK) {
			printf("FAIL %s: harness error: %s\n", t->id, err);
			failed++;
			cua_report_clear(&r);
			continue;
		}
		if (r.device.known)
			dev = r.device;
		if (dump) {
			const char *folder = strrchr(t->dir, '/');
			snprintf(dump_dir, sizeof(dump_dir), "%s/%s", dump,
			         folder ? folder + 1 : t->dir);
		}
		st = cua_eval_degeneracy(t, &o, dump ? dump_dir : NULL, &de, &d, NULL, err,
		                         sizeof(err));
		if (st != CUA_OK) {
			printf("FAIL %s: harness error: %s\n", t->id, err);
			failed++;
			cua_report_clear(&r);
			continue;
		}
		bool ok = de.verdict == CUA_VERDICT_OK;
		const struct cua_eval *bad = ok ? NULL : &de;
		for (int k = 0; k < r.n_base; k++)
			if (r.base[k].verdict != CUA_VERDICT_OK && ok) {
				ok = false;
				bad = &r.base[k];
			}
		char line[1024];
		size_t off = 0;
		for (int k = 0; k < r.n_base && off < sizeof(line); k++) {
			const struct cua_eval *b = &r.base[k];
			struct cua_accuracy_summary a;
			cua_eval_accuracy(b, &a);
			if (b->verdict == CUA_VERDICT_OK && b->timing.done)
				off += (size_t)snprintf(line + off, sizeof(line) - off,
				                        "%s %.4f ms (%.0f%% SOL", b->subject,
				                        cua_timing_stats(&b->timing)->median, b->pct_sol);
			if (b->verdict == CUA_VERDICT_OK && b->timing.done && off < sizeof(line))
				off += (size_t)(a.judged
				    ? snprintf(line + off, sizeof(line) - off,
				               ", |rho| <= %.3f, error <= %.3g of %s rounding's, "
				               "%d/%d exposed); ", a.max_rho, a.max_err_ratio, a.vs,
				               a.exposed, a.judged)
				    : snprintf(line + off, sizeof(line) - off, "); "));
		}
		if (off < sizeof(line))
			snprintf(line + off, sizeof(line) - off, "%d non-degeneracy checks",
			         d.n);
		if (ok) {
			printf("PASS %s: %s (%.1f s)\n", t->id, line, cua_now() - ts);
			passed++;
		} else {
			printf("FAIL %s: %s: %s: ", t->id, bad->subject,
			       cua_verdict_name(bad->verdict));
			cua_fput_term(stdout, bad->message);
			fputs("\n", stdout);
			failed++;
		}
		fflush(stdout);
		cJSON *tj = cJSON_CreateObject();
		cJSON_AddStringToObject(tj, "id", t->id);
		char th[65];
		if (cua_catalogue_task_hash(t, th, err, sizeof(err)) == CUA_OK)
			cJSON_AddStringToObject(tj, "task_hash", th);
		cJSON_AddBoolToObject(tj, "ok", ok);
		cJSON *bs = cJSON_AddArrayToObject(tj, "baselines");
		for (int k = 0; k < r.n_base; k++)
			cJSON_AddItemToArray(bs, eval_summary(&r.base[k]));
		cJSON *dj = cJSON_AddObjectToObject(tj, "degeneracy");
		cJSON_AddStringToObject(dj, "verdict", cua_verdict_name(de.verdict));
		cJSON_AddStringToObject(dj, "message", de.message);
		cJSON *cs = cJSON_AddArrayToObject(dj, "checks");
		for (int k = 0; k < d.n; k++) {
			cJSON *c = cJSON_CreateObject();
			cJSON_AddStringToObject(c, "shape", d.c[k].shape);
			cJSON_AddStringToObject(c, "check", d.c[k].check);
			cJSON_AddStringToObject(c, "output", d.c[k].output);
			cJSON_AddNumberToObject(c, "differ", d.c[k].differ);
			cJSON_AddBoolToObject(c, "ok", d.c[k].ok);
			cJSON_AddItemToArray(cs, c);
		}
		cJSON_AddItemToArray(arr, tj);
		cua_eval_clear(&de);
		cua_report_clear(&r);
		if (out) {
			/* rewritten after every task: a run cut short keeps what it measured */
			cJSON_DeleteItemFromObject(doc, "device");
			cJSON_AddItemToObject(doc, "device", cua_device_to_json(&dev));
			char *txt = cJSON_Print(doc);
			cua_write_file(out, txt, strlen(txt), NULL, 0);
			free(txt);
		}
	}
	cJSON_DeleteItemFromObject(doc, "device");
	cJSON_AddItemToObject(doc, "device", cua_device_to_json(&dev));
	cJSON_AddNumberToObject(doc, "seconds", cua_now() - t0);
	printf("selftest: %.1f s on %s\n", cua_now() - t0, dev.known ? dev.name : "?");
	printf("%d passed, %d failed\n", passed, failed);
	if (out) {
		char *s = cJSON_Print(doc);
		if (cua_write_file(out, s, strlen(s), err, sizeof(err)) != CUA_OK)
			fprintf(stderr, "cuarena selftest: %s\n", err);
		free(s);
	}
	if (cli->json) {
		char *s = cJSON_Print(doc);
		printf("%s\n", s);
		free(s);
	}
	cJSON_Delete(doc);
	cua_catalogue_clear(&cat);
	free(names);
	return failed ? CUA_EXIT_FAILED : CUA_EXIT_OK;
}
