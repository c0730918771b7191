/* test-run.c — the run engine without a GPU (harness/run.c): a replay agent whose
 * turns fail before the GPU stage (a compile error, then a forbidden symbol) runs
 * two tasks with two episodes in flight, and every results file says so. */
#include <criterion/criterion.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "compile.h"
#include "run.h"

static char tmp[4096];

static void setup(void)
{
	snprintf(tmp, sizeof(tmp), "/tmp/cuarena-test-run-XXXXXX");
	cr_assert_not_null(mkdtemp(tmp));
}

static void teardown(void)
{
	if (tmp[0])
		cua_rmtree(tmp);
}

TestSuite(run, .init = setup, .fini = teardown, .timeout = 180);

static void put(const char *rel, const char *text)
{
	char p[4400], err[CUA_ERR_LEN];
	snprintf(p, sizeof(p), "%s/%s", tmp, rel);
	cr_assert_eq(cua_write_file(p, text, strlen(text), err, sizeof(err)), CUA_OK, "%s",
	             err);
}

/* Lines of a results file, parsed. */
static int read_lines(const char *name, cJSON **out, int max)
{
	char p[4400], *buf = NULL;
	size_t len = 0;
	snprintf(p, sizeof(p), "%s/out/%s", tmp, name);
	cr_assert_eq(cua_read_file(p, 1 << 24, &buf, &len, NULL, 0), CUA_OK, "%s", p);
	int n = 0;
	for (char *s = buf, *nl; s && *s && n < max; s = nl ? nl + 1 : NULL) {
		nl = strchr(s, '\n');
		if (nl)
			*nl = '\0';
		out[n] = cJSON_Parse(s);
		cr_assert_not_null(out[n], "%s line %d is not JSON", name, n + 1);
		cr_expect_eq(cJSON_GetObjectItem(out[n], "schema")->valuedouble, 1);
		n++;
	}
	free(buf);
	return n;
}

static const char *str(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItem(o, k);
	return cJSON_IsString(v) ? v->valuestring : "";
}

Test(run, replayed_failures_are_recorded_turn_by_turn)
{
	if (!cua_find_nvcc())
		cr_skip_test("no nvcc: the run engine test builds candidates");
	const char *bad_syntax = "#include \"cuarena.h\"\nint cua_solve(const struct cua_tensor "
	                         "*i, int a, struct cua_tensor *o, int b, cudaStream_t s) "
	                         "{ return this is not C; }\n";
	const char *forbidden = "#include \"cuarena.h\"\n#include <stdlib.h>\nint cua_solve("
	                        "const struct cua_tensor *i, int a, struct cua_tensor *o, int b, "
	                        "cudaStream_t s) { return system(\"true\"); }\n";
	put("replay/L1/021-relu/turn-1.cu", bad_syntax);
	put("replay/L1/021-relu/turn-2.cu", forbidden);
	put("replay/L1/020-vector-add/turn-1.cu", bad_syntax);
	put("replay/L1/020-vector-add/turn-2.cu", forbidden);

	char cache[4200], out[4200], cfgtxt[4400], exe[4200], err[CUA_ERR_LEN] = "";
	const char *build = getenv("CUARENA_BUILD");
	cr_assert_not_null(build, "CUARENA_BUILD must name the build directory");
	snprintf(exe, sizeof(exe), "%s/cuarena", build);
	snprintf(cache, sizeof(cache), "%s/cache", tmp);
	snprintf(out, sizeof(out), "%s/out", tmp);
	snprintf(cfgtxt, sizeof(cfgtxt), "{\"dir\": \"%s/replay\"}", tmp);
	cJSON *cfg = cJSON_Parse(cfgtxt);
	struct cua_run_opts o;
	cua_run_opts_init(&o, getenv("CUARENA_ROOT"), exe, cache);
	o.agent = cua_agent_find("replay");
	o.agent_config = cfg;
	o.agent_version = "test-1";
	o.tasks_glob = "0[2][01]-*";        /* 020-vector-add, 021-relu */
	o.turns = 4;
	o.jobs = 2;
	o.out_dir = out;
	o.require_gpu = false;
	struct cua_run_summary sum;
	cr_assert_eq(cua_run(&o, &sum, err, sizeof(err)), CUA_OK, "%s", err);
	cJSON_Delete(cfg);
	cr_expect_eq(sum.tasks, 2);
	cr_expect_eq(sum.tasks_done, 2);
	cr_expect_eq(sum.tasks_correct, 0);
	cr_expect_eq(sum.evaluations, 4);

	cJSON *run = NULL;
	{
		char p[4400], *buf = NULL;
		snprintf(p, sizeof(p), "%s/run.json", out);
		cr_assert_eq(cua_read_file(p, 1 << 20, &buf, NULL, NULL, 0), CUA_OK);
		run = cJSON_Parse(buf);
		free(buf);
	}
	cr_assert_not_null(run);
	cr_expect_str_eq(str(cJSON_GetObjectItem(run, "agent"), "name"), "replay");
	cr_expect_str_eq(str(cJSON_GetObjectItem(run, "agent"), "version"), "test-1");
	cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(run, "tasks")), 2);
	cr_expect_str_eq(str(run, "reward"), "cuda-agent");
	cr_expect_eq(strlen(str(run, "catalogue_hash")), 64u);
	cJSON_Delete(run);

	cJSON *ev[16];
	int ne = read_lines("evals.jsonl", ev, 16);
	cr_expect_eq(ne, 4);
	int compile = 0, forbid = 0;
	for (int i = 0; i < ne; i++) {
		const cJSON *e = cJSON_GetObjectItem(ev[i], "eval");
		const char *v = str(e, "verdict");
		int turn = (int)cJSON_GetObjectItem(ev[i], "turn")->valuedouble;
		compile += !strcmp(v, "compile_error") && turn == 1;
		forbid += !strcmp(v, "forbidden_symbol") && turn == 2;
		cr_expect_eq(cJSON_GetObjectItem(ev[i], "reward")->valuedouble, -1);
		cJSON_Delete(ev[i]);
	}
	cr_expect_eq(compile, 2, "turn 1 of each task is a compile error");
	cr_expect_eq(forbid, 2, "turn 2 of each task calls system()");

	cJSON *tr[16];
	int nt = read_lines("trajectories.jsonl", tr, 16);
	int turns = 0, ends = 0;
	for (int i = 0; i < nt; i++) {
		if (!strcmp(str(tr[i], "kind"), "turn")) {
			turns++;
			cr_expect(strlen(str(tr[i], "code")) > 0);
			cr_expect_eq(strlen(str(tr[i], "prompt_sha256")), 64u);
		} else if (!strcmp(str(tr[i], "kind"), "end")) {
			ends++;
			cr_expect_str_eq(str(tr[i], "reason"), "agent stopped");
			cr_expect_eq(cJSON_GetObjectItem(tr[i], "turns")->valuedouble, 2);
			cr_expect_eq(cJSON_GetObjectItem(tr[i], "best_turn")->valuedouble, 0);
		}
		cJSON_Delete(tr[i]);
	}
	cr_expect_eq(turns, 4);
	cr_expect_eq(ends, 2);

	cJSON *bl[16];
	int nb = read_lines("baselines.jsonl", bl, 16);
	cr_expect_geq(nb, 2, "at least the nvcc reference of each task");
	for (int i = 0; i < nb; i++)
		cJSON_Delete(bl[i]);
}

Test(run, an_unknown_task_pattern_is_a_usage_error)
{
	struct cua_run_opts o;
	struct cua_run_summary sum;
	char err[CUA_ERR_LEN] = "";
	cua_run_opts_init(&o, getenv("CUARENA_ROOT"), "/nonexistent/cuarena", tmp);
	o.agent = cua_agent_find("reference");
	o.tasks_glob = "no-such-task-*";
	o.require_gpu = false;
	cr_expect_eq(cua_run(&o, &sum, err, sizeof(err)), CUA_E_USAGE);
	cr_expect(strstr(err, "no-such-task-*") != NULL, "%s", err);
}

Test(run, without_a_gpu_a_real_run_refuses_to_start)
{
	if (access("/dev/nvidiactl", F_OK) == 0)
		cr_skip_test("this machine has a GPU");
	struct cua_run_opts o;
	struct cua_run_summary sum;
	char err[CUA_ERR_LEN] = "";
	cua_run_opts_init(&o, getenv("CUARENA_ROOT"), "/nonexistent/cuarena", tmp);
	o.agent = cua_agent_find("reference");
	cr_expect_eq(cua_run(&o, &sum, err, sizeof(err)), CUA_E_NO_GPU);
	cr_expect(strstr(err, "GPU") != NULL, "%s", err);
}
