/* latency.c — end-to-end latency of one candidate, and run-to-run timing spread.
 *
 *   make bench        (on the GPU machine; results also in $OUT/bench.json)
 *
 * Latency: for each of ReLU and SGEMM, 5 fresh candidates (the reference source
 * with a unique comment, so every build misses the cache) are each evaluated the
 * way `cuarena eval` does it: the candidate's nvcc build overlaps the baselines'
 * GPU runs, then the candidate is checked and timed. Reported per candidate:
 * compile, check and timing seconds of its own pipeline, and the whole
 * invocation's wall time. Targets: ReLU median <= 3 s for the candidate.
 * Spread: the same (cached) kernel evaluated in 5 separate invocations; the
 * spread of its timed median, (max - min) / median, target <= 1 %.
 */
#include "eval/report.h"
#include "catalogue/catalogue.h"

#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#define RUNS 5

static double median5(double *v, int n)
{
	struct cua_stats s;
	cua_stats_compute(v, n, &s);
	return s.median;
}

static int bench_task(const struct cua_task *t, const struct cua_eval_opts *o,
                      cJSON *out)
{
	char ref[4200], tmpdir[] = "/tmp/cuarena-bench-XXXXXX", src[4300], err[CUA_ERR_LEN];
	char *text = NULL;
	size_t len = 0;
	double comp[RUNS], check[RUNS], timing[RUNS], cand[RUNS], wall[RUNS], med[RUNS];
	int failures = 0;

	snprintf(ref, sizeof(ref), "%s/reference.cu", t->dir);
	if (!mkdtemp(tmpdir) || cua_read_file(ref, 1 << 20, &text, &len, err, sizeof(err))) {
		fprintf(stderr, "bench: cannot prepare %s\n", t->id);
		return 1;
	}
	cJSON *j = cJSON_AddObjectToObject(out, t->id);
	cJSON *runs = cJSON_AddArrayToObject(j, "latency");
	for (int i = 0; i < RUNS; i++) {
		/* A unique comment: a cache miss, as for every new agent proposal. */
		char nonce[128];
		snprintf(nonce, sizeof(nonce), "\n// bench nonce %d %.9f %d\n", i, cua_now(),
		         (int)getpid());
		snprintf(src, sizeof(src), "%s/cand-%d.cu", tmpdir, i);
		FILE *f = fopen(src, "w");
		if (!f)
			return 1;
		fwrite(text, 1, len, f);
		fputs(nonce, f);
		fclose(f);
		struct cua_report r;
		double t0 = cua_now();
		enum cua_status st = cua_report_run(t, src, o, &r, err, sizeof(err));
		wall[i] = cua_now() - t0;
		const struct cua_eval *c = &r.candidate;
		if (st != CUA_OK || c->verdict != CUA_VERDICT_OK || c->cache_hit) {
			fprintf(stderr, "bench: %s run %d: %s %s %s\n", t->id, i,
			        st ? err : "", cua_verdict_name(c->verdict), c->message);
			failures++;
		}
		comp[i] = c->compile_s;
		check[i] = c->check_s;
		timing[i] = c->timing_s;
		cand[i] = c->compile_s + c->run_s;
		cJSON *o1 = cJSON_CreateObject();
		cJSON_AddNumberToObject(o1, "compile_s", comp[i]);
		cJSON_AddNumberToObject(o1, "check_s", check[i]);
		cJSON_AddNumberToObject(o1, "timing_s", timing[i]);
		cJSON_AddNumberToObject(o1, "process_s", c->run_s);
		cJSON_AddNumberToObject(o1, "candidate_s", cand[i]);
		cJSON_AddNumberToObject(o1, "invocation_s", wall[i]);
		cJSON_AddItemToArray(runs, o1);
		unlink(src);
		cua_report_clear(&r);
	}
	printf("%-20s compile %.2f s  check %.2f s  timing %.2f s  candidate %.2f s  "
	       "whole eval %.2f s   (medians of %d)\n", t->id, median5(comp, RUNS),
	       median5(check, RUNS), median5(timing, RUNS), median5(cand, RUNS),
	       median5(wall, RUNS), RUNS);
	cJSON_AddNumberToObject(j, "candidate_s_median", median5(cand, RUNS));
	cJSON_AddNumberToObject(j, "invocation_s_median", median5(wall, RUNS));

	/* Spread: the same kernel (now cached) in RUNS separate evaluations. */
	snprintf(src, sizeof(src), "%s/reference.cu", t->dir);
	for (int i = 0; i < RUNS; i++) {
		struct cua_eval e;
		cua_eval_source(t, src, CUA_SUBJECT_CANDIDATE, "candidate", o, &e, NULL, err,
		                sizeof(err));
		med[i] = e.verdict == CUA_VERDICT_OK ? cua_timing_stats(&e.timing)->median : 0;
		cua_eval_clear(&e);
	}
	double lo = med[0], hi = med[0];
	for (int i = 1; i < RUNS; i++) {
		lo = med[i] < lo ? med[i] : lo;
		hi = med[i] > hi ? med[i] : hi;
	}
	double m = median5(med, RUNS);
	double spread = m > 0 ? (hi - lo) / m * 100 : 100;
	printf("%-20s timed median over %d invocations: %.4f ms, min %.4f, max %.4f, "
	       "spread %.2f %%\n", t->id, RUNS, m, lo, hi, spread);
	cJSON *sp = cJSON_AddObjectToObject(j, "spread");
	cJSON *a = cJSON_AddArrayToObject(sp, "medians_ms");
	for (int i = 0; i < RUNS; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(med[i]));
	cJSON_AddNumberToObject(sp, "spread_pct", spread);
	free(text);
	rmdir(tmpdir);
	return failures;
}

int main(int argc, char **argv)
{
	char self[4096], exe[4200], root[4096], cache[4200], err[CUA_ERR_LEN];
	struct cua_catalogue cat;

	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return 2;
	self[n] = '\0';
	*strrchr(self, '/') = '\0';
	snprintf(exe, sizeof(exe), "%s/cuarena", self);
	snprintf(root, sizeof(root), "%s", self);
	*strrchr(root, '/') = '\0';
	if (access("/dev/nvidiactl", F_OK) != 0) {
		printf("bench: no NVIDIA GPU here; run `make bench` on the GPU machine\n");
		return 0;
	}
	if (cua_catalogue_load(root, &cat, err, sizeof(err)) != CUA_OK) {
		fprintf(stderr, "bench: %s\n", err);
		return 1;
	}
	snprintf(cache, sizeof(cache), "%s/cache", self);
	struct cua_eval_opts o;
	cua_eval_opts_init(&o, root, exe, getenv("CUARENA_CACHE") ? getenv("CUARENA_CACHE") : cache);
	cJSON *out = cJSON_CreateObject();
	int failures = 0;
	const char *names[] = {"relu", "square-matrix-multiplication"};   /* L1/019, L1/001 */
	for (int i = 0; i < 2; i++) {
		const struct cua_task *t = cua_catalogue_find(&cat, names[i], err, sizeof(err));
		if (!t) {
			fprintf(stderr, "bench: %s\n", err);
			return 1;
		}
		failures += bench_task(t, &o, out);
	}
	const char *od = getenv("OUT");
	if (od) {
		char p[4200];
		snprintf(p, sizeof(p), "%s/bench.json", od);
		char *s = cJSON_Print(out);
		cua_write_file(p, s, strlen(s), NULL, 0);
		free(s);
	}
	cJSON_Delete(out);
	cua_catalogue_clear(&cat);
	return failures ? 1 : 0;
}
