/* test-run.c — the run engine without a GPU (harness/episode/run.c): a replay agent whose
 * turns fail before the GPU stage (a compile error, then a forbidden symbol) runs
 * two tasks with two episodes in flight, and every results file says so. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "catalogue/catalogue.h"
#include "compile/compile.h"
#include "eval/eval.h"
#include "episode/run.h"
#include "results/results.h"
#include "results/writer.h"
#include "cuarena-test.h"

TestSuite(run, .init = tmp_make, .fini = tmp_remove, .timeout = 180);

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
		cr_expect_eq(cJSON_GetObjectItem(out[n], "schema")->valuedouble, CUA_RESULTS_SCHEMA);
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

static const char bad_syntax[] = "#include \"cuarena.h\"\nint cua_solve(const struct "
                                 "cua_tensor *i, int a, struct cua_tensor *o, int b, "
                                 "cudaStream_t s) { return this is not C; }\n";

/* Options of a replay run over L1/019-relu and X/002-vector-add (in catalogue order:
 * relu first) from tmp/replay into
 * tmp/out, two episodes in flight, no GPU required; *cfg is the agent config
 * (cJSON_Delete it). */
static struct cua_run_opts replay_opts(cJSON **cfg)
{
	static char cache[4200], out[4200], exe[4200];
	char cfgtxt[4400];
	snprintf(exe, sizeof(exe), "%s/cuarena", build_dir());
	snprintf(cache, sizeof(cache), "%s/cache", tmp);
	snprintf(out, sizeof(out), "%s/out", tmp);
	snprintf(cfgtxt, sizeof(cfgtxt), "{\"dir\": \"%s/replay\"}", tmp);
	*cfg = cJSON_Parse(cfgtxt);
	struct cua_run_opts o;
	cua_run_opts_init(&o, root(), exe, cache);
	o.agent = cua_agent_find("replay");
	o.agent_config = *cfg;
	o.tasks_glob = "@(L1/019-relu|X/002-vector-add)";
	o.jobs = 2;
	o.out_dir = out;
	o.require_gpu = false;
	return o;
}

/* replay_opts for a run of `turns` turns that each fail to compile, in both tasks. */
static struct cua_run_opts failing_opts(cJSON **cfg, int turns)
{
	for (int k = 1; k <= turns; k++) {
		char p[64];
		snprintf(p, sizeof(p), "replay/X/002-vector-add/turn-%d.cu", k);
		tmp_write(p, bad_syntax);
		snprintf(p, sizeof(p), "replay/L1/019-relu/turn-%d.cu", k);
		tmp_write(p, bad_syntax);
	}
	struct cua_run_opts o = replay_opts(cfg);
	o.turns = turns;
	return o;
}

/* A finished run of one such turn per task; its options are returned for more. */
static struct cua_run_opts failed_run(cJSON **cfg, struct cua_run_summary *sum)
{
	char err[CUA_ERR_LEN] = "";
	struct cua_run_opts o = failing_opts(cfg, 1);
	cr_assert_eq(cua_run(&o, sum, err, sizeof(err)), CUA_OK, "%s", err);
	return o;
}

Test(run, replayed_failures_are_recorded_turn_by_turn)
{
	if (!cua_find_nvcc())
		cr_skip_test("no nvcc: the run engine test builds candidates");
	const char *forbidden = "#include \"cuarena.h\"\n#include <stdlib.h>\nint cua_solve("
	                        "const struct cua_tensor *i, int a, struct cua_tensor *o, int b, "
	                        "cudaStream_t s) { return system(\"true\"); }\n";
	tmp_write("replay/L1/019-relu/turn-1.cu", bad_syntax);
	tmp_write("replay/L1/019-relu/turn-2.cu", forbidden);
	tmp_write("replay/X/002-vector-add/turn-1.cu", bad_syntax);
	tmp_write("replay/X/002-vector-add/turn-2.cu", forbidden);

	char err[CUA_ERR_LEN] = "";
	cJSON *cfg;
	struct cua_run_opts o = replay_opts(&cfg);
	const char *out = o.out_dir;
	o.agent_version = "test-1";
	o.turns = 4;
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
	const cJSON *cv = cJSON_GetObjectItem(run, "catalogue_version");
	cr_expect(cJSON_IsNumber(cv) && cv->valueint == 2,
	          "run.json names its catalogue's version (this checkout's tasks/VERSION: 2)");
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
	for (int i = 0; i < nb; i++) {
		/* built before the GPU was taken, though this run's cache began empty */
		const cJSON *c = cJSON_GetObjectItem(cJSON_GetObjectItem(bl[i], "eval"), "compile");
		cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(c, "cache_hit")),
		          "%s %s: measured from a prebuilt object", str(bl[i], "task"),
		          str(cJSON_GetObjectItem(bl[i], "eval"), "subject"));
		cJSON_Delete(bl[i]);
	}
}

Test(run, an_unknown_task_pattern_is_a_usage_error)
{
	struct cua_run_opts o;
	struct cua_run_summary sum;
	char err[CUA_ERR_LEN] = "";
	cua_run_opts_init(&o, root(), "/nonexistent/cuarena", tmp);
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
	cua_run_opts_init(&o, root(), "/nonexistent/cuarena", tmp);
	o.agent = cua_agent_find("reference");
	cr_expect_eq(cua_run(&o, &sum, err, sizeof(err)), CUA_E_NO_GPU);
	cr_expect(strstr(err, "GPU") != NULL, "%s", err);
}

/* --gpus: each task runs on one device, dealt round-robin; every baseline and
 * evaluation line says which; run.json lists the devices. */
Test(run, each_task_runs_on_one_of_the_listed_gpus)
{
	if (!cua_find_nvcc())
		cr_skip_test("no nvcc: the run engine test builds candidates");
	tmp_write("replay/X/002-vector-add/turn-1.cu", bad_syntax);
	tmp_write("replay/L1/019-relu/turn-1.cu", bad_syntax);
	char err[CUA_ERR_LEN] = "";
	cJSON *cfg;
	struct cua_run_opts o = replay_opts(&cfg);
	const char *out = o.out_dir;
	o.turns = 2;
	o.gpus = "3,7";                     /* L1/019-relu on "3", X/002-vector-add on "7" */
	struct cua_run_summary sum;
	cr_assert_eq(cua_run(&o, &sum, err, sizeof(err)), CUA_OK, "%s", err);
	cJSON_Delete(cfg);
	cr_expect_eq(sum.gpus, 2);
	cr_expect_eq(sum.tasks_done, 2);

	char p[4400], *buf = NULL;
	snprintf(p, sizeof(p), "%s/run.json", out);
	cr_assert_eq(cua_read_file(p, 1 << 20, &buf, NULL, NULL, 0), CUA_OK);
	cJSON *run = cJSON_Parse(buf);
	free(buf);
	const cJSON *g = cJSON_GetObjectItem(run, "gpus");
	cr_assert_eq(cJSON_GetArraySize(g), 2);
	cr_expect_str_eq(cJSON_GetArrayItem(g, 0)->valuestring, "3");
	cr_expect_str_eq(cJSON_GetArrayItem(g, 1)->valuestring, "7");
	cJSON_Delete(run);

	const char *files[] = {"baselines.jsonl", "evals.jsonl"};
	for (int f = 0; f < 2; f++) {
		cJSON *l[16];
		int n = read_lines(files[f], l, 16);
		cr_expect_geq(n, 2, "%s", files[f]);
		for (int i = 0; i < n; i++) {
			const char *want = !strcmp(str(l[i], "task"), "X/002-vector-add") ? "7" : "3";
			cr_expect_str_eq(str(l[i], "gpu"), want, "%s line %d (%s)", files[f], i + 1,
			                 str(l[i], "task"));
			cJSON_Delete(l[i]);
		}
	}
}

Test(run, gpu_lists_are_checked)
{
	char names[CUA_MAX_GPUS][64], err[CUA_ERR_LEN];
	cr_expect_eq(cua_run_parse_gpus("0", names, err, sizeof(err)), 1);
	cr_expect_eq(cua_run_parse_gpus("0,1,GPU-8f1c2a", names, err, sizeof(err)), 3);
	cr_expect_str_eq(names[2], "GPU-8f1c2a");
	const char *bad[] = {"", ",", "0,", "0,,1", "0;1", "0 1", "1,1", "$(reboot)"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		cr_expect_eq(cua_run_parse_gpus(bad[i], names, err, sizeof(err)), -1, "'%s'", bad[i]);
		cr_expect(strstr(err, "--gpus") != NULL, "'%s': %s", bad[i], err);
	}
	cr_expect_eq(cua_run_parse_gpus("0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16", names, err,
	                                sizeof(err)), -1, "17 devices");
}

/* Compile jobs default to the cores the run may use (taskset, a container's
 * cpuset), not to every core of the machine. Criterion runs each test in its
 * own process, so narrowing this one's affinity touches no other test. */
Test(run, compile_jobs_default_to_the_allowed_cores)
{
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu() >= 0 ? sched_getcpu() : 0, &one);
	cr_assert_eq(sched_setaffinity(0, sizeof(one), &one), 0);
	struct cua_run_opts o;
	cua_run_opts_init(&o, ".", "cuarena", tmp);
	cr_expect_eq(o.jobs, 1);
	cr_expect_eq(cua_cpus(), 1);
}

/* The environment of an evaluation child: scrubbed, with the task's device. */
Test(run, a_child_sees_only_its_device)
{
	struct cua_eval_opts o;
	struct cua_child_env ce;
	cua_eval_opts_init(&o, ".", "/bin/false", tmp);
	setenv("CUDA_VISIBLE_DEVICES", "0,1", 1);
	setenv("NVIDIA_TF32_OVERRIDE", "1", 1);
	cua_child_env(&o, &ce);
	bool inherited = false, tf32 = false;
	for (int i = 0; ce.env[i]; i++) {
		inherited |= !strcmp(ce.env[i], "CUDA_VISIBLE_DEVICES=0,1");
		tf32 |= !strncmp(ce.env[i], "NVIDIA_TF32_OVERRIDE", 20);
	}
	cr_expect(inherited, "without o.gpu the process's own devices pass through");
	cr_expect(!tf32, "nothing else from outside");
	o.gpu = "1";
	cua_child_env(&o, &ce);
	int vis = 0;
	for (int i = 0; ce.env[i]; i++)
		if (!strncmp(ce.env[i], "CUDA_VISIBLE_DEVICES=", 21)) {
			vis++;
			cr_expect_str_eq(ce.env[i], "CUDA_VISIBLE_DEVICES=1");
		}
	cr_expect_eq(vis, 1);
	unsetenv("CUDA_VISIBLE_DEVICES");
	unsetenv("NVIDIA_TF32_OVERRIDE");
}

/* Copies run A's run.json and baselines.jsonl into a fresh folder (a run killed
 * after measuring its baselines), naming `gpu` for each task's lines. */
static void killed_copy(const char *from, const char *to, const char *gpu_vadd,
                        const char *gpu_relu)
{
	char p[4400], *buf = NULL, err[CUA_ERR_LEN];
	cr_assert_eq(cua_mkdirs(to, err, sizeof(err)), CUA_OK, "%s", err);
	snprintf(p, sizeof(p), "%s/run.json", from);
	cr_assert_eq(cua_read_file(p, 1 << 20, &buf, NULL, NULL, 0), CUA_OK);
	snprintf(p, sizeof(p), "%s/run.json", to);
	cr_assert_eq(cua_write_file(p, buf, strlen(buf), err, sizeof(err)), CUA_OK);
	free(buf);
	snprintf(p, sizeof(p), "%s/baselines.jsonl", from);
	cr_assert_eq(cua_read_file(p, 1 << 24, &buf, NULL, NULL, 0), CUA_OK);
	struct cua_buf out = {0};
	for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n")) {
		cJSON *j = cJSON_Parse(l);
		const char *g = !strcmp(str(j, "task"), "X/002-vector-add") ? gpu_vadd : gpu_relu;
		cJSON_DeleteItemFromObject(j, "gpu");
		cJSON_AddStringToObject(j, "gpu", g);
		char *t = cJSON_PrintUnformatted(j);
		cua_buf_printf(&out, "%s\n", t);
		free(t);
		cJSON_Delete(j);
	}
	free(buf);
	snprintf(p, sizeof(p), "%s/baselines.jsonl", to);
	cr_assert_eq(cua_write_file(p, out.s, out.len, err, sizeof(err)), CUA_OK);
	free(out.s);
}

/* --resume keeps each task on the device its baselines were measured on, and
 * refuses a device list without it. */
Test(run, a_resumed_task_stays_on_its_baselines_gpu)
{
	if (!cua_find_nvcc())
		cr_skip_test("no nvcc: the run engine test builds candidates");
	char err[CUA_ERR_LEN] = "";
	cJSON *cfg;
	struct cua_run_opts o = failing_opts(&cfg, 1);
	const char *out = o.out_dir;
	o.gpus = "3,7";
	struct cua_run_summary sum;
	cr_assert_eq(cua_run(&o, &sum, err, sizeof(err)), CUA_OK, "%s", err);

	/* killed after its baselines, with vector-add measured on 3 and relu on 7: the
	 * reverse of where task order would put them */
	char b[4200], c[4200];
	snprintf(b, sizeof(b), "%s/b", tmp);
	snprintf(c, sizeof(c), "%s/c", tmp);
	killed_copy(out, b, "3", "7");
	killed_copy(out, c, "3", "7");
	const char *ids[] = {"X/002-vector-add", "L1/019-relu"};
	o.tasks_glob = NULL;
	o.task_ids = ids;
	o.n_task_ids = 2;
	o.resume = true;

	o.out_dir = c;
	o.gpus = "3";
	cr_expect_eq(cua_run(&o, &sum, err, sizeof(err)), CUA_E_USAGE);
	cr_expect(strstr(err, "L1/019-relu") && strstr(err, "GPU 7"), "%s", err);

	o.out_dir = b;
	o.gpus = "3,7";
	cr_assert_eq(cua_run(&o, &sum, err, sizeof(err)), CUA_OK, "%s", err);
	cJSON_Delete(cfg);
	cr_expect_eq(sum.tasks_done, 2);
	char p[4400], *buf = NULL;
	snprintf(p, sizeof(p), "%s/evals.jsonl", b);
	cr_assert_eq(cua_read_file(p, 1 << 24, &buf, NULL, NULL, 0), CUA_OK);
	int n = 0;
	for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n"), n++) {
		cJSON *j = cJSON_Parse(l);
		const char *want = !strcmp(str(j, "task"), "X/002-vector-add") ? "3" : "7";
		cr_expect_str_eq(str(j, "gpu"), want, "%s", str(j, "task"));
		cJSON_Delete(j);
	}
	free(buf);
	cr_expect_eq(n, 2, "one evaluation per task after the resume");
}

static cJSON *read_run_json(const char *dir)
{
	char p[4400], *buf = NULL;
	snprintf(p, sizeof(p), "%s/run.json", dir);
	cr_assert_eq(cua_read_file(p, 1 << 20, &buf, NULL, NULL, 0), CUA_OK, "%s", p);
	cJSON *j = cJSON_Parse(buf);
	free(buf);
	cr_assert_not_null(j);
	return j;
}

static double num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItem(o, k);
	cr_assert(cJSON_IsNumber(v), "%s is not a number", k);
	return v->valuedouble;
}

/* A resumed run's throughput is that of the whole run, and it keeps its GPU. The
 * H200 replay run of 2026-11-29 was cut by a device call's limit and resumed: its
 * summary divided all 300 evaluations by the last invocation's 204 s alone (2650
 * per GPU-hour where the whole run made about 720), and the 22 tasks that went on
 * from restored baselines recorded their correct candidates without %SOL. */
Test(run, a_resumed_run_counts_the_time_of_every_invocation)
{
	if (!cua_find_nvcc())
		cr_skip_test("no nvcc: the run engine test builds candidates");
	char err[CUA_ERR_LEN] = "";
	cJSON *cfg;
	struct cua_run_opts o = failing_opts(&cfg, 1);
	o.gpus = "0,1";
	struct cua_run_summary first, again;
	cr_assert_eq(cua_run(&o, &first, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_eq(first.segments, 1);
	cr_expect_eq(first.evaluations, 2);
	cr_expect_float_eq(first.gpu_s, first.wall_s * 2, 1e-9);

	/* a segment before this one, of a run.json from before segments existed */
	cJSON *run = read_run_json(o.out_dir);
	cJSON *segs = cJSON_GetObjectItem(run, "segments");
	cr_assert_eq(cJSON_GetArraySize(segs), 1);
	cr_expect_eq(num(cJSON_GetArrayItem(segs, 0), "evaluations"), 2);
	cr_expect_eq(num(cJSON_GetArrayItem(segs, 0), "gpus"), 2);
	cJSON_DeleteItemFromObject(run, "segments");
	/* and measured on an H200: resumed, the run still says so (its restored
	 * baselines are of that GPU, and its candidates get that GPU's ceilings) */
	cJSON_ReplaceItemInObject(run, "device",
	                          cJSON_Parse("{\"name\": \"NVIDIA H200\", \"sms\": 132}"));
	cJSON *s = cJSON_GetObjectItem(run, "summary");
	cJSON_ReplaceItemInObject(s, "wall_s", cJSON_CreateNumber(100));
	cJSON_ReplaceItemInObject(s, "gpu_busy_s", cJSON_CreateNumber(150));
	char p[4400], *txt = cJSON_Print(run);
	snprintf(p, sizeof(p), "%s/run.json", o.out_dir);
	cr_assert_eq(cua_write_file(p, txt, strlen(txt), err, sizeof(err)), CUA_OK);
	free(txt);
	cJSON_Delete(run);

	/* resumed once: nothing is left to do, the figures are still the whole run's */
	const char *ids[] = {"X/002-vector-add", "L1/019-relu"};
	o.tasks_glob = NULL;
	o.task_ids = ids;
	o.n_task_ids = 2;
	o.resume = true;
	cr_assert_eq(cua_run(&o, &again, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_eq(again.evaluations, 2);
	cr_expect_eq(again.segments, 2);
	cr_expect_geq(again.wall_s, 100);
	cr_expect_lt(again.wall_s - 100, first.wall_s + 30);
	cr_expect_geq(again.gpu_s, 200, "both invocations held two GPUs");
	cr_expect_geq(again.gpu_busy_s, 150);
	cr_expect_eq(again.candidate_gpu_s, -1,
	             "the first segment did not say what its candidates cost");

	run = read_run_json(o.out_dir);
	segs = cJSON_GetObjectItem(run, "segments");
	cr_assert_eq(cJSON_GetArraySize(segs), 2);
	cr_expect_eq(num(cJSON_GetArrayItem(segs, 0), "wall_s"), 100);
	cr_expect_eq(num(cJSON_GetArrayItem(segs, 1), "evaluations"), 0);
	cr_expect_float_eq(num(cJSON_GetObjectItem(run, "summary"), "wall_s"), again.wall_s, 1e-6);
	cr_expect_str_eq(str(cJSON_GetObjectItem(run, "device"), "name"), "NVIDIA H200");
	cr_expect_eq(num(cJSON_GetObjectItem(run, "device"), "sms"), 132);

	cr_expect_null(cJSON_GetObjectItem(cJSON_GetObjectItem(run, "summary"), "candidate_gpu_s"));
	cr_expect_eq(num(run, "max_time_s"), 3, "the default timing cap is recorded");

	/* a resume times its kernels as the run did */
	o.eval.max_time_s = 1;
	o.max_time_given = true;
	cr_expect_eq(cua_run(&o, &again, err, sizeof(err)), CUA_E_USAGE);
	cr_expect(strstr(err, "--max-time-s 1") && strstr(err, "max_time_s"), "%s", err);
	o.eval.max_time_s = 3;

	/* a segment that is not numbers stops the resume, naming it */
	cJSON_ReplaceItemInObject(cJSON_GetArrayItem(segs, 1), "wall_s", cJSON_CreateString("x"));
	txt = cJSON_Print(run);
	cr_assert_eq(cua_write_file(p, txt, strlen(txt), err, sizeof(err)), CUA_OK);
	free(txt);
	cJSON_Delete(run);
	cr_expect_eq(cua_run(&o, &again, err, sizeof(err)), CUA_E_PARSE);
	cr_expect(strstr(err, "run.json") && strstr(err, "segments[1]"), "%s", err);
	cJSON_Delete(cfg);
}

/* The run says what its candidates cost apart from the baselines: on the H200
 * the replay run made 886 candidates per GPU-hour all-in and 2275 on their own
 * GPU time (baselines, measured in the run, were 57 % of it), and only the
 * first figure was printed. Without a GPU the runner still runs and reports. */
Test(run, candidates_gpu_time_is_kept_apart_from_the_baselines)
{
	if (!cua_find_nvcc())
		cr_skip_test("no nvcc: the run engine test builds candidates");
	tmp_write("replay/X/002-vector-add/turn-1.cu",
	    "#include \"cuarena.h\"\nint cua_solve(const struct cua_tensor *i, int a, "
	    "struct cua_tensor *o, int b, cudaStream_t s) { return 0; }\n");
	char err[CUA_ERR_LEN] = "";
	cJSON *cfg;
	struct cua_run_opts o = replay_opts(&cfg);
	o.tasks_glob = "X/002-*";
	o.turns = 1;
	struct cua_run_summary sum;
	cr_assert_eq(cua_run(&o, &sum, err, sizeof(err)), CUA_OK, "%s", err);
	cr_assert_eq(sum.evaluations, 1);

	char p[4400], *buf = NULL;
	snprintf(p, sizeof(p), "%s/evals.jsonl", o.out_dir);
	cr_assert_eq(cua_read_file(p, 1 << 20, &buf, NULL, NULL, 0), CUA_OK);
	cJSON *ev = cJSON_Parse(buf);
	free(buf);
	double run_s = num(cJSON_GetObjectItem(cJSON_GetObjectItem(ev, "eval"), "seconds"), "run");
	cJSON_Delete(ev);
	cr_expect_gt(run_s, 0, "the candidate reached the runner");
	cr_expect_float_eq(sum.candidate_gpu_s, run_s, 1e-6);
	cr_expect_gt(sum.gpu_busy_s, sum.candidate_gpu_s + 1e-3, "the baselines took their share");

	cJSON *run = read_run_json(o.out_dir);
	cr_expect_float_eq(num(cJSON_GetObjectItem(run, "summary"), "candidate_gpu_s"), run_s, 1e-6);
	cr_expect_float_eq(num(cJSON_GetArrayItem(cJSON_GetObjectItem(run, "segments"), 0),
	                       "candidate_gpu_s"), run_s, 1e-6);
	cJSON_Delete(run);
	cJSON_Delete(cfg);
}

/* ---- --resume reads through the results reader --------------------------------- */

static char *text_of(const char *dir, const char *name)
{
	char p[4400], *buf = NULL;
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	cr_assert_eq(cua_read_file(p, 1 << 24, &buf, NULL, NULL, 0), CUA_OK, "%s", p);
	return buf;
}

static void write_text(const char *dir, const char *name, const char *text)
{
	char p[4400], err[CUA_ERR_LEN];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	cr_assert_eq(cua_write_file(p, text, strlen(text), err, sizeof(err)), CUA_OK, "%s", err);
}

/* A copy of the finished run `from` in `to`, as if killed before its episodes
 * ended (every line but the trajectory's end lines); evals.jsonl's line
 * `line` (1-based) goes through edit first when edit is not NULL. */
static void unended_copy(const char *from, const char *to, int line,
                         void (*edit)(struct cua_buf *b, const char *l))
{
	char err[CUA_ERR_LEN];
	cr_assert_eq(cua_mkdirs(to, err, sizeof(err)), CUA_OK, "%s", err);
	static const char *const whole[] = {"run.json", "baselines.jsonl"};
	for (int i = 0; i < 2; i++) {
		char *t = text_of(from, whole[i]);
		write_text(to, whole[i], t);
		free(t);
	}
	char *t = text_of(from, "evals.jsonl");
	struct cua_buf b = {0};
	int n = 0;
	for (char *l = strtok(t, "\n"); l; l = strtok(NULL, "\n"))
		if (++n == line && edit)
			edit(&b, l);
		else
			cua_buf_printf(&b, "%s\n", l);
	write_text(to, "evals.jsonl", b.s);
	free(b.s);
	free(t);
	t = text_of(from, "trajectories.jsonl");
	b = (struct cua_buf){0};
	for (char *l = strtok(t, "\n"); l; l = strtok(NULL, "\n"))
		if (!strstr(l, "\"kind\":\"end\""))
			cua_buf_printf(&b, "%s\n", l);
	write_text(to, "trajectories.jsonl", b.s);
	free(b.s);
	free(t);
}

static void blank_after(struct cua_buf *b, const char *l)
{
	cua_buf_printf(b, "%s\n\n", l);
}

static void newer_schema(struct cua_buf *b, const char *l)
{
	char *c = strdup(l), *s = strstr(c, "\"schema\":");
	cr_assert_not_null(s);
	*s = '\0';
	cua_buf_printf(b, "%s\"schema\":99,\"was\":%s\n", c, s + 9);
	free(c);
}

static void unknown_verdict(struct cua_buf *b, const char *l)
{
	char *c = strdup(l), *v = strstr(c, "\"verdict\":\"");
	cr_assert_not_null(v);
	*v = '\0';
	cua_buf_printf(b, "%s\"verdict\":\"exploded\",\"was\":\"%s\n", c, v + 11);
	free(c);
}

static void not_json(struct cua_buf *b, const char *l)
{
	cua_buf_printf(b, "%.20s\n", l);
}

/* Non-blank lines of dir/name. */
static int count_lines(const char *dir, const char *name)
{
	char *t = text_of(dir, name);
	int n = 0;
	for (char *l = strtok(t, "\n"); l; l = strtok(NULL, "\n"))
		n += strspn(l, " \t\r") != strlen(l);
	free(t);
	return n;
}

/* --resume reads the run through results.c's reader: one schema check and one
 * torn-tail rule for it and for every scorer. Its own reader (until 2026-12-01)
 * refused a blank line that every scorer reads past, and it took lines of a
 * newer schema and skipped lines it could not decode, judging their turns
 * again; now a blank line is read past and the others stop the resume, naming
 * the file and line, before anything is appended. */
Test(run, a_resume_reads_its_results_through_the_results_reader)
{
	if (!cua_find_nvcc())
		cr_skip_test("no nvcc: the run engine test builds candidates");
	char err[CUA_ERR_LEN] = "";
	cJSON *cfg;
	struct cua_run_opts o = failing_opts(&cfg, 2);
	const char *out = o.out_dir;
	o.jobs = 1;   /* evals.jsonl in task order: relu's two turns, then vector-add's */
	struct cua_run_summary sum;
	cr_assert_eq(cua_run(&o, &sum, err, sizeof(err)), CUA_OK, "%s", err);
	cr_assert_eq(count_lines(out, "evals.jsonl"), 4);
	const char *ids[] = {"X/002-vector-add", "L1/019-relu"};
	o.tasks_glob = NULL;
	o.task_ids = ids;
	o.n_task_ids = 2;
	o.resume = true;

	/* a blank line: read past, nothing judged again */
	char dir[4200];
	snprintf(dir, sizeof(dir), "%s/blank", tmp);
	unended_copy(out, dir, 1, blank_after);
	o.out_dir = dir;
	cr_expect_eq(cua_run(&o, &sum, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_eq(sum.tasks_done, 2);
	cr_expect_eq(sum.evaluations, 4);
	cr_expect_eq(count_lines(dir, "evals.jsonl"), 4,
	             "the turns after the blank line were judged again");

	/* a torn last line is cut before the resume appends */
	snprintf(dir, sizeof(dir), "%s/torn", tmp);
	unended_copy(out, dir, 0, NULL);
	char *t = text_of(dir, "trajectories.jsonl");
	struct cua_buf b = {0};
	cua_buf_printf(&b, "%s{\"schema\":2,\"kind\":\"tu", t);
	write_text(dir, "trajectories.jsonl", b.s);
	free(b.s);
	free(t);
	o.out_dir = dir;
	cr_assert_eq(cua_run(&o, &sum, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_eq(sum.evaluations, 4);
	cr_expect_eq(count_lines(dir, "trajectories.jsonl"), 6, "4 turns and 2 ends, no torn line");
	struct cua_results *run = NULL;
	cr_expect_eq(cua_results_load(dir, &run, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect(run && !run->warnings, "the resumed run still has a torn line");
	cua_results_free(run);

	/* lines the reader refuses stop the resume, naming the file and line */
	static const struct {
		const char *name;
		int line;
		void (*edit)(struct cua_buf *, const char *);
		const char *want;
	} bad[] = {
		{"newer", 2, newer_schema, "evals.jsonl: line 2: schema 99 is newer than this"},
		{"verdict", 3, unknown_verdict, "evals.jsonl: line 3: verdict: unknown verdict"},
	};
	for (size_t i = 0; i < CUA_ARRAY_LEN(bad); i++) {
		snprintf(dir, sizeof(dir), "%s/%s", tmp, bad[i].name);
		unended_copy(out, dir, bad[i].line, bad[i].edit);
		o.out_dir = dir;
		err[0] = '\0';
		cr_expect_eq(cua_run(&o, &sum, err, sizeof(err)), CUA_E_PARSE, "%s", bad[i].name);
		cr_expect(strstr(err, bad[i].want) && strstr(err, dir), "%s: %s", bad[i].name, err);
		cr_expect_eq(count_lines(dir, "evals.jsonl"), 4, "%s: nothing was appended",
		             bad[i].name);
	}

	/* a line that is not JSON in the middle (an older writer's failed append) is
	 * skipped and named, not refused; the episode goes on after its last turn
	 * read (the torn turn 1 is not judged again after turn 2 was) */
	snprintf(dir, sizeof(dir), "%s/json", tmp);
	unended_copy(out, dir, 1, not_json);
	o.out_dir = dir;
	cr_expect_eq(cua_run(&o, &sum, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_eq(sum.tasks_done, 2);
	cr_expect_eq(count_lines(dir, "evals.jsonl"), 4, "no turn was judged again");
	run = NULL;
	cr_expect_eq(cua_results_load(dir, &run, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect(run && run->warnings && strstr(run->warnings, "evals.jsonl: line 1: 20 bytes "
	                                         "torn by a failed write"), "%s",
	          run && run->warnings ? run->warnings : "(none)");
	cua_results_free(run);
	cJSON_Delete(cfg);
}

/* Killed between two of a task's baselines lines (L1/019-relu's nvcc line written,
 * its cudnn/relu line not), a resumed run measures that task's baselines again:
 * it used to go on with the reference alone and never had a speedup against
 * cuDNN. A task whose baselines are all there is not measured again. */
Test(run, a_resume_measures_again_baselines_a_kill_cut_short)
{
	if (!cua_find_nvcc())
		cr_skip_test("no nvcc: the run engine test builds candidates");
	char err[CUA_ERR_LEN] = "";
	cJSON *cfg;
	struct cua_run_summary sum;
	struct cua_run_opts o = failed_run(&cfg, &sum);

	char dir[4200];
	snprintf(dir, sizeof(dir), "%s/cut", tmp);
	cr_assert_eq(cua_mkdirs(dir, err, sizeof(err)), CUA_OK, "%s", err);
	char *t = text_of(o.out_dir, "run.json");
	write_text(dir, "run.json", t);
	free(t);
	t = text_of(o.out_dir, "baselines.jsonl");
	struct cua_buf b = {0};
	int kept020 = 0;
	for (char *l = strtok(t, "\n"); l; l = strtok(NULL, "\n")) {
		cJSON *j = cJSON_Parse(l);
		const char *sub = str(cJSON_GetObjectItem(j, "eval"), "subject");
		bool is021 = !strcmp(str(j, "task"), "L1/019-relu");
		if (!is021 || strcmp(sub, "cudnn/relu"))
			cua_buf_printf(&b, "%s\n", l);
		kept020 += !is021;
		cJSON_Delete(j);
	}
	free(t);
	cr_assert_eq(kept020, 1, "X/002-vector-add has one baseline, the reference");
	write_text(dir, "baselines.jsonl", b.s);
	free(b.s);

	const char *ids[] = {"X/002-vector-add", "L1/019-relu"};
	o.tasks_glob = NULL;
	o.task_ids = ids;
	o.n_task_ids = 2;
	o.resume = true;
	o.out_dir = dir;
	cr_assert_eq(cua_run(&o, &sum, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_eq(sum.tasks_done, 2);
	t = text_of(dir, "baselines.jsonl");
	int nvcc020 = 0, nvcc021 = 0, cudnn021 = 0;
	for (char *l = strtok(t, "\n"); l; l = strtok(NULL, "\n")) {
		cJSON *j = cJSON_Parse(l);
		const char *sub = str(cJSON_GetObjectItem(j, "eval"), "subject");
		bool is021 = !strcmp(str(j, "task"), "L1/019-relu");
		nvcc020 += !is021 && !strcmp(sub, "nvcc");
		nvcc021 += is021 && !strcmp(sub, "nvcc");
		cudnn021 += is021 && !strcmp(sub, "cudnn/relu");
		cJSON_Delete(j);
	}
	free(t);
	cr_expect_eq(cudnn021, 1, "L1/019-relu's cuDNN baseline was measured on the resume");
	cr_expect_eq(nvcc021, 2, "and its reference again with it");
	cr_expect_eq(nvcc020, 1, "X/002-vector-add's whole set was there: not measured again");
	cr_expect_eq(count_lines(dir, "evals.jsonl"), 2, "each task's one turn, once");
	cJSON_Delete(cfg);
}

/* Each baselines.jsonl line records its task's flops and bytes at the timed
 * shape, as the catalogue computes them, so plots read them from the run. */
Test(run, baselines_record_the_tasks_flops_and_bytes)
{
	if (!cua_find_nvcc())
		cr_skip_test("no nvcc: the run engine test builds candidates");
	char err[CUA_ERR_LEN] = "";
	cJSON *cfg;
	struct cua_run_summary sum;
	struct cua_run_opts o = failed_run(&cfg, &sum);
	cJSON_Delete(cfg);
	struct cua_catalogue cat;
	cr_assert_eq(cua_catalogue_load(getenv("CUARENA_ROOT"), &cat, err, sizeof(err)), CUA_OK,
	             "%s", err);
	cJSON *lines[16];
	int n = read_lines("baselines.jsonl", lines, 16);
	cr_assert_geq(n, 2, "a line per baseline of each task");
	for (int i = 0; i < n; i++) {
		const struct cua_task *t = cua_catalogue_find(&cat, str(lines[i], "task"), NULL, 0);
		cr_assert_not_null(t, "%s", str(lines[i], "task"));
		int64_t flops, bytes;
		int s = cua_task_timed_shape(t);
		cr_assert_eq(cua_task_eval(t, s, t->flops, &flops, NULL, 0), CUA_OK);
		cr_assert_eq(cua_task_eval(t, s, t->bytes, &bytes, NULL, 0), CUA_OK);
		cr_expect_gt(bytes, 0, "%s", t->id);
		const cJSON *f = cJSON_GetObjectItem(lines[i], "flops");
		const cJSON *b = cJSON_GetObjectItem(lines[i], "bytes");
		cr_assert(cJSON_IsNumber(f) && cJSON_IsNumber(b), "%s: no flops or bytes", t->id);
		cr_expect_eq(f->valuedouble, (double)flops, "%s flops", t->id);
		cr_expect_eq(b->valuedouble, (double)bytes, "%s bytes", t->id);
		cJSON_Delete(lines[i]);
	}
	cua_catalogue_clear(&cat);
	/* and the results reader gives them back per task */
	struct cua_results *run = NULL;
	cr_assert_eq(cua_results_load(o.out_dir, &run, err, sizeof(err)), CUA_OK, "%s", err);
	const struct cua_results_task *relu = cua_results_find(run, "L1/019-relu");
	cr_assert_not_null(relu);
	cr_expect(relu->bytes > 0 && relu->flops >= 0, "%g %g", relu->flops, relu->bytes);
	cua_results_free(run);
}

/* ---- a resumed episode gives the agent back its turns ------------------------ */

/* A backend that answers every turn with code that fails at the compile (no GPU
 * needed) and records what the engine restores into it. */
static pthread_mutex_t rec_mu = PTHREAD_MUTEX_INITIALIZER;
static struct { int turn; char task[64], reply[128], *shown; } rec[8];
static int n_rec;

static enum cua_status rec_init(const cJSON *config, void **agent, char *err, size_t errlen)
{
	*agent = NULL;
	return CUA_OK;
}

static enum cua_status rec_propose(void *agent, void *episode,
                                   const struct cua_observation *obs, struct cua_action *act,
                                   char *err, size_t errlen)
{
	char r[128];
	memset(act, 0, sizeof(*act));
	snprintf(r, sizeof(r), "reply %d to %s", obs->turn, obs->task_id);
	act->code = strdup(bad_syntax);
	act->reply = strdup(r);
	return CUA_OK;
}

static enum cua_status rec_restore(void *agent, void *episode,
                                   const struct cua_observation *obs, const char *reply,
                                   char *err, size_t errlen)
{
	pthread_mutex_lock(&rec_mu);
	if (n_rec < 8) {
		rec[n_rec].turn = obs->turn;
		snprintf(rec[n_rec].task, sizeof(rec[n_rec].task), "%s", obs->task_id);
		snprintf(rec[n_rec].reply, sizeof(rec[n_rec].reply), "%s", reply);
		rec[n_rec].shown = strdup(obs->text);
		n_rec++;
	}
	pthread_mutex_unlock(&rec_mu);
	return CUA_OK;
}

static const struct cua_agent_i recorder = {
	.name = "recorder", .version = "1", .init = rec_init, .propose = rec_propose,
	.restore = rec_restore,
};

/* Keeps the lines of a results file for which keep() is true. */
static void filter_lines(const char *dir, const char *name, bool (*keep)(const cJSON *))
{
	char p[4400], *buf = NULL, err[CUA_ERR_LEN];
	struct cua_buf out = {0};
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	cr_assert_eq(cua_read_file(p, 1 << 24, &buf, NULL, err, sizeof(err)), CUA_OK, "%s", err);
	for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n")) {
		cJSON *j = cJSON_Parse(l);
		if (j && keep(j))
			cua_buf_printf(&out, "%s\n", l);
		cJSON_Delete(j);
	}
	free(buf);
	cr_assert_eq(cua_write_file(p, out.s ? out.s : "", out.len, err, sizeof(err)), CUA_OK);
	free(out.s);
}

static bool turn_one(const cJSON *j)
{
	const cJSON *t = cJSON_GetObjectItem(j, "turn");
	return cJSON_IsNumber(t) && t->valueint == 1 &&
	       strcmp(str(j, "kind"), "end") != 0;
}

/* Killed after every task's first turn and resumed: the agent is given back turn
 * 1 (what it was shown, what it replied) before it is asked for turn 2. Before,
 * a resumed llm episode began a new conversation from the latest feedback. */
Test(run, a_resumed_episode_gives_the_agent_back_its_earlier_turns)
{
	if (!cua_find_nvcc())
		cr_skip_test("no nvcc: the run engine test builds candidates");
	char err[CUA_ERR_LEN] = "";
	cJSON *cfg;
	struct cua_run_opts o = replay_opts(&cfg);
	o.agent = &recorder;
	o.agent_config = NULL;
	o.turns = 2;
	struct cua_run_summary sum;
	cr_assert_eq(cua_run(&o, &sum, err, sizeof(err)), CUA_OK, "%s", err);
	cr_assert_eq(sum.evaluations, 4);
	cr_expect_eq(n_rec, 0, "a fresh run restores nothing");

	cJSON *tl[16];
	int nt = read_lines("trajectories.jsonl", tl, 16);
	static char shown[2][32768]; /* a prompt: relu's is over 8 KB */
	shown[0][0] = shown[1][0] = '\0';
	for (int i = 0; i < nt; i++) {
		const cJSON *t = cJSON_GetObjectItem(tl[i], "turn");
		if (!strcmp(str(tl[i], "kind"), "turn") && cJSON_IsNumber(t) && t->valueint == 1)
			snprintf(shown[strstr(str(tl[i], "task"), "relu") != NULL],
			         sizeof(shown[0]), "%s", str(tl[i], "observation"));
		cJSON_Delete(tl[i]);
	}
	cr_assert(shown[0][0] && shown[1][0], "turn 1's observations are recorded");
	filter_lines(o.out_dir, "evals.jsonl", turn_one);
	filter_lines(o.out_dir, "trajectories.jsonl", turn_one);

	const char *ids[] = {"X/002-vector-add", "L1/019-relu"};
	o.tasks_glob = NULL;
	o.task_ids = ids;
	o.n_task_ids = 2;
	o.resume = true;
	cr_assert_eq(cua_run(&o, &sum, err, sizeof(err)), CUA_OK, "%s", err);
	cJSON_Delete(cfg);
	cr_expect_eq(sum.tasks_done, 2);
	cr_expect_eq(sum.evaluations, 4, "turn 2 of each task, once");
	cr_assert_eq(n_rec, 2, "one restored turn per task");
	for (int i = 0; i < n_rec; i++) {
		int k = strstr(rec[i].task, "relu") != NULL;
		char want[128];
		snprintf(want, sizeof(want), "reply 1 to %s", rec[i].task);
		cr_expect_eq(rec[i].turn, 1);
		cr_expect_str_eq(rec[i].reply, want);
		cr_expect_str_eq(rec[i].shown, shown[k], "%s: turn 1's prompt", rec[i].task);
		free(rec[i].shown);
	}
}

/* A task's baselines are compiled before the run takes the GPU: measuring them
 * then finds every object in the cache. (Measured cold, each baseline's nvcc
 * build held the GPU idle for seconds; the H200 replay run did not show it
 * because every build was already cached.) */
Test(run, baselines_are_built_before_the_gpu_is_taken)
{
	if (!cua_find_nvcc())
		cr_skip_test("no nvcc: the test builds the baselines");
	char dir[4200], cache[4200], err[CUA_ERR_LEN] = "", path[4300];
	struct cua_task *t;
	snprintf(dir, sizeof(dir), "%s/tasks/L1/019-relu", root());
	cr_assert_eq(cua_task_load(dir, &t, err, sizeof(err)), CUA_OK, "%s", err);
	cr_assert_geq(t->n_baselines, 1, "L1/019-relu has a cuDNN baseline");
	snprintf(cache, sizeof(cache), "%s/cache", tmp);
	struct cua_eval_opts o;
	cua_eval_opts_init(&o, root(), "/bin/false", cache);

	int built = -1;
	cr_assert_eq(cua_prebuild_baselines(t, &o, &built, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_eq(built, 1 + t->n_baselines, "an empty cache: every one is built");
	cr_assert_eq(cua_prebuild_baselines(t, &o, &built, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_eq(built, 0, "then every one is in the cache");

	/* the measurement's own builds are those objects (it then fails here: no GPU) */
	struct cua_eval e;
	struct cua_device dev = {0};
	cua_eval_source(t, NULL, CUA_SUBJECT_REFERENCE, "nvcc", &o, &e, &dev, err, sizeof(err));
	cr_expect(e.cache_hit, "nvcc: the prebuilt object");
	cua_eval_clear(&e);
	cua_baseline_path(o.root, t->baselines[0], path, sizeof(path));
	cua_eval_source(t, path, CUA_SUBJECT_BASELINE, t->baselines[0], &o, &e, &dev, err,
	                sizeof(err));
	cr_expect(e.cache_hit, "%s: the prebuilt object", t->baselines[0]);
	cua_eval_clear(&e);
	cua_task_free(t);
}

/* issue 14: a reply without code was a compile_error and counted as a candidate,
 * and a run whose every agent failed looked like a success. */
Test(run, a_reply_without_code_is_a_turn_not_a_candidate_and_agent_failures_are_counted)
{
	/* an exec agent that answers turn 1 with no code, then dies */
	tmp_write("agent.sh", "#!/bin/sh\nread line\n"
	                      "echo '{\"type\": \"action\", \"note\": \"thinking\"}'\n"
	                      "read line\nexit 3\n");
	char script[4400], cfgtxt[4600];
	snprintf(script, sizeof(script), "%s/agent.sh", tmp);
	cr_assert_eq(chmod(script, 0755), 0);
	cJSON *replay_cfg;
	struct cua_run_opts o = replay_opts(&replay_cfg);
	cJSON_Delete(replay_cfg);
	snprintf(cfgtxt, sizeof(cfgtxt), "{\"command\": [\"%s\"]}", script);
	cJSON *cfg = cJSON_Parse(cfgtxt);
	o.agent = cua_agent_find("exec");
	o.agent_config = cfg;
	o.turns = 3;
	struct cua_run_summary sum;
	char err[CUA_ERR_LEN] = "";
	cr_assert_eq(cua_run(&o, &sum, err, sizeof(err)), CUA_OK, "%s", err);
	cJSON_Delete(cfg);
	cr_expect_eq(sum.tasks_done, 2);
	cr_expect_eq(sum.evaluations, 0, "no candidate was built: %d counted", sum.evaluations);
	cr_expect_eq(sum.agent_failed, 2);

	cJSON *lines[8];
	int n = read_lines("evals.jsonl", lines, 8);
	cr_expect_eq(n, 2, "one turn per task");
	for (int i = 0; i < n; i++) {
		const cJSON *e = cJSON_GetObjectItem(lines[i], "eval");
		cr_expect_str_eq(str(e, "verdict"), "no_code");
		cr_expect(strstr(str(e, "message"), "thinking"), "%s", str(e, "message"));
		cr_expect_eq(cJSON_GetObjectItem(lines[i], "reward")->valuedouble, -1,
		             "the turn keeps its reward");
		cJSON_Delete(lines[i]);
	}
	n = read_lines("trajectories.jsonl", lines, 8);
	int failed = 0;
	for (int i = 0; i < n; i++) {
		failed += !strcmp(str(lines[i], "kind"), "end") &&
		          !strncmp(str(lines[i], "reason"), "agent failed", 12);
		cJSON_Delete(lines[i]);
	}
	cr_expect_eq(failed, 2);
}

/* Every line of dir/name parses and the file ends in a newline; returns how many. */
static int whole_lines(const char *dir, const char *name)
{
	char *t = text_of(dir, name);
	int n = 0;
	for (char *l = t, *nl; *l; l = nl + 1) {
		nl = strchr(l, '\n');
		cr_assert_not_null(nl, "%s ends in a line without its newline", name);
		*nl = '\0';
		cJSON *o = cJSON_Parse(l);
		cr_expect_not_null(o, "%s: line %d is not whole", name, n + 1);
		cJSON_Delete(o);
		n++;
	}
	free(t);
	return n;
}

/* A full disk (a file-size limit stands in): the run stops at the first line it
 * cannot write, which is cut back, so every file ends at a whole line; the
 * evaluation it could not record is not kept, and --resume judges it again,
 * ending with each turn once. Before, the half-written line stayed, and the run
 * went on evaluating what it could not record. */
Test(run, a_write_that_fails_stops_the_run_at_its_last_whole_line_and_a_resume_goes_on)
{
	if (!cua_find_nvcc())
		cr_skip_test("no nvcc: the run engine test builds candidates");
	char err[CUA_ERR_LEN] = "";
	cJSON *cfg;
	struct cua_run_opts o = failing_opts(&cfg, 3);
	struct cua_run_summary sum;
	/* a complete run first, for the sizes its files reach */
	char whole[4200], full[4200];
	snprintf(whole, sizeof(whole), "%s/whole", tmp);
	snprintf(full, sizeof(full), "%s/full", tmp);
	o.out_dir = whole;
	cr_assert_eq(cua_run(&o, &sum, err, sizeof(err)), CUA_OK, "%s", err);
	struct stat ev, tr, rj;
	char p[4400];
	snprintf(p, sizeof(p), "%s/evals.jsonl", whole);
	cr_assert_eq(stat(p, &ev), 0);
	snprintf(p, sizeof(p), "%s/trajectories.jsonl", whole);
	cr_assert_eq(stat(p, &tr), 0);
	snprintf(p, sizeof(p), "%s/run.json", whole);
	cr_assert_eq(stat(p, &rj), 0);
	long limit = (ev.st_size < tr.st_size ? ev.st_size : tr.st_size) / 2;
	cr_assert_gt(limit, rj.st_size + 1024, "run.json must fit under the limit");

	/* this test's own process (Criterion forks one per test); the hard limit
	 * stays, so the sandbox's children raise theirs as usual */
	struct rlimit old, lim;
	cr_assert_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = (rlim_t)limit;
	cr_assert_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
	o.out_dir = full;
	enum cua_status st = cua_run(&o, &sum, err, sizeof(err));
	cr_assert_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
	cr_expect_eq(st, CUA_E_IO, "%s", err);
	cr_expect(strstr(err, "cannot append a line: File too large") &&
	          strstr(err, "cut back to its last whole line"), "%s", err);
	cr_expect(sum.interrupted, "the run stopped");
	int kept = whole_lines(full, "evals.jsonl");
	whole_lines(full, "trajectories.jsonl");
	whole_lines(full, "baselines.jsonl");
	cr_expect_lt(kept, 6, "some evaluation did not fit");

	/* room again: the resume goes on from the last whole line */
	const char *ids[] = {"X/002-vector-add", "L1/019-relu"};
	o.tasks_glob = NULL;
	o.task_ids = ids;
	o.n_task_ids = 2;
	o.resume = true;
	cr_assert_eq(cua_run(&o, &sum, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_eq(sum.tasks_done, 2);
	cr_expect_eq(whole_lines(full, "evals.jsonl"), 6, "each of the 6 turns once");
	char *t = text_of(full, "evals.jsonl");
	int seen[2][4] = {{0}};
	for (char *l = strtok(t, "\n"); l; l = strtok(NULL, "\n")) {
		cJSON *j = cJSON_Parse(l);
		int k = (int)cJSON_GetObjectItem(j, "turn")->valuedouble;
		seen[!strcmp(str(j, "task"), "L1/019-relu")][k]++;
		cJSON_Delete(j);
	}
	free(t);
	for (int a = 0; a < 2; a++)
		for (int k = 1; k <= 3; k++)
			cr_expect_eq(seen[a][k], 1, "task %d turn %d: %d lines", a, k, seen[a][k]);
	cJSON_Delete(cfg);
}

/* One writer per folder: a run is refused a folder another process writes (a
 * serve, a run), naming it; two servers on one folder lost a task of run.json. */
Test(run, a_folder_being_written_is_refused_naming_its_writer)
{
	char err[CUA_ERR_LEN] = "";
	cJSON *cfg;
	struct cua_run_opts o = failing_opts(&cfg, 1);
	struct cua_writer *w;
	cr_assert_eq(cua_writer_open(o.out_dir, "serve", &w, NULL, err, sizeof(err)), CUA_OK,
	             "%s", err);
	struct cua_run_summary sum;
	cr_expect_eq(cua_run(&o, &sum, err, sizeof(err)), CUA_E_USAGE);
	char want[64];
	snprintf(want, sizeof(want), "(pid %ld serve on ", (long)getpid());
	cr_expect(strstr(err, "is being written by another cuarena") && strstr(err, want),
	          "%s", err);
	char p[4400];
	snprintf(p, sizeof(p), "%s/run.json", o.out_dir);
	cr_expect_neq(access(p, F_OK), 0, "nothing was written");
	cua_writer_close(w);
	cJSON_Delete(cfg);
}
