/* test-resume.c — nothing lost, nothing repeated: a run killed with SIGKILL at 20
 * random moments and resumed each time must end with exactly the evaluations of an
 * uninterrupted run (harness/episode/run.c, `cuarena run --resume`). No GPU is needed: the
 * replayed turns fail at the compile or static-check stage. */
#include <criterion/criterion.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "compile/compile.h"
#include "episode/run.h"
#include "cuarena-test.h"

TestSuite(resume, .init = tmp_make, .fini = tmp_remove, .timeout = 600);

static const char *bad_syntax =
	"#include \"cuarena.h\"\nint cua_solve(const struct cua_tensor *i, int a, struct "
	"cua_tensor *o, int b, cudaStream_t s) { return this is not C; }\n";
static const char *forbidden =
	"#include \"cuarena.h\"\n#include <stdlib.h>\nint cua_solve(const struct cua_tensor *i, "
	"int a, struct cua_tensor *o, int b, cudaStream_t s) { return system(\"true\"); }\n";
static const char *forbidden2 =
	"#include \"cuarena.h\"\n#include <stdio.h>\nint cua_solve(const struct cua_tensor *i, "
	"int a, struct cua_tensor *o, int b, cudaStream_t s) { return fopen(\"x\", \"r\") != 0; }\n";

static const char *const tasks[] = {"X/002-vector-add", "L1/019-relu",
                                    "L1/047-sum-reduction-over-a-dimension"};

static void make_replay(void)
{
	char p[4400], err[CUA_ERR_LEN];
	const char *turns[] = {bad_syntax, forbidden, forbidden2};
	for (size_t t = 0; t < 3; t++)
		for (int k = 0; k < 3; k++) {
			snprintf(p, sizeof(p), "%s/replay/%s/turn-%d.cu", tmp, tasks[t], k + 1);
			cr_assert_eq(cua_write_file(p, turns[k], strlen(turns[k]), err, sizeof(err)),
			             CUA_OK, "%s", err);
		}
}

/* Runs (or resumes) the run in dir in a child process; kill_after_us > 0 kills it
 * with SIGKILL then. Returns true when the child finished on its own. */
static bool run_child(const char *dir, bool resume, long kill_after_us)
{
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		char cache[4200], exe[4200], cfgtxt[4400], err[CUA_ERR_LEN];
		snprintf(cache, sizeof(cache), "%s/cache", tmp);
		snprintf(exe, sizeof(exe), "%s/cuarena", build_dir());
		snprintf(cfgtxt, sizeof(cfgtxt), "{\"dir\": \"%s/replay\"}", tmp);
		cJSON *cfg = cJSON_Parse(cfgtxt);
		struct cua_run_opts o;
		cua_run_opts_init(&o, root(), exe, cache);
		o.agent = cua_agent_find("replay");
		o.agent_config = cfg;
		o.turns = 4;
		o.jobs = 2;
		o.out_dir = dir;
		o.require_gpu = false;
		o.task_ids = tasks;
		o.n_task_ids = 3;
		o.resume = resume;
		struct cua_run_summary sum;
		enum cua_status st = cua_run(&o, &sum, err, sizeof(err));
		if (st != CUA_OK)
			fprintf(stderr, "run: %s\n", err);
		_exit(st == CUA_OK ? 0 : 1);
	}
	if (kill_after_us > 0) {
		usleep((useconds_t)kill_after_us);
		kill(pid, SIGKILL);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	if (WIFEXITED(status))
		cr_assert_eq(WEXITSTATUS(status), 0, "the run failed");
	return WIFEXITED(status);
}

/* "task turn verdict code_sha" per evaluation, sorted, one per line; counts. */
static char *summarise(const char *dir, int *n_evals, int *n_turn_lines, int *n_final_ends)
{
	char p[4400], *buf = NULL;
	char *lines[64];
	int n = 0;
	*n_evals = *n_turn_lines = *n_final_ends = 0;
	snprintf(p, sizeof(p), "%s/evals.jsonl", dir);
	if (cua_read_file(p, 1 << 24, &buf, NULL, NULL, 0) == CUA_OK) {
		for (char *l = strtok(buf, "\n"); l && n < 64; l = strtok(NULL, "\n")) {
			cJSON *j = cJSON_Parse(l);
			cr_assert_not_null(j, "a torn line survived in evals.jsonl: %s", l);
			char *s = malloc(256);
			snprintf(s, 256, "%s %d %s %.16s",
			         cJSON_GetObjectItem(j, "task")->valuestring,
			         (int)cJSON_GetObjectItem(j, "turn")->valuedouble,
			         cJSON_GetObjectItem(cJSON_GetObjectItem(j, "eval"), "verdict")->valuestring,
			         cJSON_GetObjectItem(j, "code_sha256")->valuestring);
			lines[n++] = s;
			cJSON_Delete(j);
		}
		free(buf);
	}
	*n_evals = n;
	for (int a = 1; a < n; a++)
		for (int b = a; b > 0 && strcmp(lines[b - 1], lines[b]) > 0; b--) {
			char *t = lines[b];
			lines[b] = lines[b - 1];
			lines[b - 1] = t;
		}
	char *out = calloc(1, 64 * 256);
	for (int i = 0; i < n; i++) {
		strcat(out, lines[i]);
		strcat(out, "\n");
		free(lines[i]);
	}
	snprintf(p, sizeof(p), "%s/trajectories.jsonl", dir);
	buf = NULL;
	if (cua_read_file(p, 1 << 24, &buf, NULL, NULL, 0) == CUA_OK) {
		for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n")) {
			cJSON *j = cJSON_Parse(l);
			cr_assert_not_null(j, "a torn line survived in trajectories.jsonl");
			const char *kind = cJSON_GetObjectItem(j, "kind")->valuestring;
			if (!strcmp(kind, "turn"))
				(*n_turn_lines)++;
			else if (strcmp(cJSON_GetObjectItem(j, "reason")->valuestring, "interrupted"))
				(*n_final_ends)++;
			cJSON_Delete(j);
		}
		free(buf);
	}
	return out;
}

Test(resume, a_run_killed_at_20_random_moments_loses_and_repeats_nothing)
{
	if (!cua_find_nvcc())
		cr_skip_test("no nvcc: the resume test builds candidates");
	make_replay();
	char ref_dir[4200];
	snprintf(ref_dir, sizeof(ref_dir), "%s/uninterrupted", tmp);
	double t0 = cua_now();
	cr_assert(run_child(ref_dir, false, 0));   /* also warms the build cache */
	t0 = cua_now();
	snprintf(ref_dir, sizeof(ref_dir), "%s/uninterrupted2", tmp);
	cr_assert(run_child(ref_dir, false, 0));
	double full_us = (cua_now() - t0) * 1e6;
	int ne, nt, nend;
	char *want = summarise(ref_dir, &ne, &nt, &nend);
	cr_assert_eq(ne, 9, "3 tasks x 3 turns");
	cr_assert_eq(nt, 9);
	cr_assert_eq(nend, 3);

	unsigned seed = 12345;
	for (int k = 0; k < 20; k++) {
		char dir[4200];
		snprintf(dir, sizeof(dir), "%s/killed-%d", tmp, k);
		long at = (long)(full_us * (0.02 + 0.9 * (rand_r(&seed) % 1000) / 1000.0));
		char runjson[4400];
		snprintf(runjson, sizeof(runjson), "%s/run.json", dir);
		bool finished = run_child(dir, false, at);
		if (!finished && access(runjson, F_OK) != 0)
			continue;   /* killed before the run existed: nothing to resume */
		/* resuming a finished run must repeat nothing either */
		cr_assert(run_child(dir, true, 0), "resume %d did not finish", k);
		int e2, t2, end2;
		char *got = summarise(dir, &e2, &t2, &end2);
		cr_expect_str_eq(got, want, "kill %d after %ld us: the evaluations differ", k, at);
		cr_expect_eq(t2, 9, "kill %d: one turn line per evaluation", k);
		cr_expect_eq(end2, 3, "kill %d: every episode ended once", k);
		free(got);
	}
	free(want);
}
