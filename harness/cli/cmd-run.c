/* cmd-run.c — `cuarena run --agent NAME ...`: episodes over the catalogue,
 * results in results/<run-id>/ (docs/RESULTS-FORMAT.md). */
#include "cli/cli.h"
#include "episode/run.h"
#include "episode/resume.h"
#include "episode/shard.h"

#include <string.h>
#include <cjson/cJSON.h>

static cJSON *load_config(const char *path)
{
	char *buf = NULL, err[CUA_ERR_LEN];
	size_t len = 0;
	if (cua_read_file(path, 1 << 20, &buf, &len, err, sizeof(err)) != CUA_OK) {
		fprintf(stderr, "cuarena run: %s\n", err);
		return NULL;
	}
	const char *end = NULL;
	cJSON *j = cJSON_ParseWithLengthOpts(buf, len, &end, false);
	if (!j || !cJSON_IsObject(j)) {
		int line = 1;
		for (const char *p = buf; end && p < end; p++)
			line += *p == '\n';
		fprintf(stderr, "cuarena run: %s: line %d: the agent config must be a JSON "
		                "object\n", path, line);
		cJSON_Delete(j);
		j = NULL;
	}
	free(buf);
	return j;
}

static bool to_int(const char *s, int lo, int hi, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (*end || end == s || v < lo || v > hi)
		return false;
	*out = (int)v;
	return true;
}

int cmd_run(struct cua_cli *cli, int argc, char **argv)
{
	struct cua_run_opts o;
	struct cua_run_summary sum;
	char err[CUA_ERR_LEN];
	const char *agent = NULL, *config = NULL, *resume = NULL;
	cJSON *cfg = NULL;
	char **ids = NULL;
	int n_ids = 0;
	char agent_buf[64], version_buf[128];
	const char *store_dir = NULL;
	bool fresh = false;
	struct cua_bstore *store = NULL;

	cua_run_opts_init(&o, cli->root, cli->self, cli->cache);
	o.progress = true;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		bool ok = v != NULL;
		if (!strcmp(a, "--agent") && ok)
			agent = argv[++i];
		else if (!strcmp(a, "--agent-config") && ok)
			config = argv[++i];
		else if (!strcmp(a, "--agent-version") && ok)
			o.agent_version = argv[++i];
		else if (!strcmp(a, "--tasks") && ok)
			o.tasks_glob = argv[++i];
		else if (!strcmp(a, "--out") && ok)
			o.out_dir = argv[++i];
		else if (!strcmp(a, "--resume") && ok)
			resume = argv[++i];
		else if (!strcmp(a, "--shard") && ok)
			ok = cua_shard_parse(argv[++i], &o.shard_index, &o.shard_count);
		else if (!strcmp(a, "--costs") && ok)
			o.shard_costs = argv[++i];
		else if (!strcmp(a, "--level") && ok)
			ok = to_int(argv[++i], 1, 9, &o.level);
		else if (!strcmp(a, "--turns") && ok)
			ok = to_int(argv[++i], 1, CUA_MAX_TURNS, &o.turns);
		else if (!strcmp(a, "--jobs") && ok)
			ok = to_int(argv[++i], 1, 256, &o.jobs);
		else if (!strcmp(a, "--reward") && ok)
			ok = cua_reward_parse(argv[++i], &o.reward);
		else if (!strcmp(a, "--gpus") && ok) {
			char names[CUA_MAX_GPUS][64];
			o.gpus = argv[++i];
			if (cua_run_parse_gpus(o.gpus, names, err, sizeof(err)) < 1) {
				fprintf(stderr, "cuarena run: %s\n", err);
				return CUA_EXIT_USAGE;
			}
		} else if (!strcmp(a, "--max-time-s") && ok) {
			char *end;
			o.eval.max_time_s = strtod(argv[++i], &end);
			ok = !*end && o.eval.max_time_s > 0;
			o.max_time_given = true;
		} else if (!strcmp(a, "--baseline-store") && ok)
			store_dir = argv[++i];
		else if (!strcmp(a, "--fresh-baselines"))
			ok = fresh = true;
		else
			ok = false;
		if (!ok) {
			fprintf(stderr, "cuarena run: bad option or value: %s\n", a);
			return cua_cli_usage("run");
		}
	}
	if (resume) {
		/* everything comes from the run itself: its agent, config, turns, tasks */
		if (agent || config || o.out_dir || o.tasks_glob || o.level || o.shard_count ||
		    o.shard_costs) {
			fprintf(stderr, "cuarena run: --resume takes the run's own settings; give "
			                "no --agent, --agent-config, --out, --tasks, --level, "
			                "--shard or --costs\n");
			return CUA_EXIT_USAGE;
		}
		if (cua_resume_read_meta(resume, agent_buf, sizeof(agent_buf), &cfg, version_buf,
		                         sizeof(version_buf), &o.turns, &o.reward, &ids, &n_ids, err,
		                         sizeof(err)) != CUA_OK) {
			fprintf(stderr, "cuarena run: %s\n", err);
			return CUA_EXIT_USAGE;
		}
		agent = agent_buf;
		o.agent_version = version_buf[0] ? version_buf : NULL;
		o.out_dir = resume;
		o.resume = true;
		o.task_ids = (const char *const *)ids;
		o.n_task_ids = n_ids;
	}
	if (!agent)
		return cua_cli_usage("run");
	if (o.shard_costs && !o.shard_count) {
		fprintf(stderr, "cuarena run: --costs weighs the split of --shard: give --shard "
		                "I/N too\n");
		return CUA_EXIT_USAGE;
	}
	/* for tests of the run's plumbing on a CPU (tests/slurm.sh): kernels that
	 * reach the GPU stage fail, every other turn is what it would be */
	const char *nogpu = getenv("CUARENA_ALLOW_NO_GPU");
	if (nogpu && !strcmp(nogpu, "1"))
		o.require_gpu = false;
	o.agent = cua_agent_find(agent);
	if (!o.agent) {
		fprintf(stderr, "cuarena run: unknown agent '%s' (agents:", agent);
		for (const char *const *n = cua_agent_names(); *n; n++)
			fprintf(stderr, " %s", *n);
		fprintf(stderr, ")\n");
		return CUA_EXIT_USAGE;
	}
	if (config && !(cfg = load_config(config)))
		return CUA_EXIT_USAGE;
	o.agent_config = cfg;
	int rc = cua_cli_bstore(cli, "run", store_dir, fresh, &store);
	if (rc != CUA_EXIT_OK) {
		cJSON_Delete(cfg);
		cua_resume_free_ids(ids, n_ids);
		return rc;
	}
	o.eval.bstore = store;
	enum cua_status st = cua_run(&o, &sum, err, sizeof(err));
	cua_cli_bstore_summary("run", store);
	cua_bstore_free(store);
	cJSON_Delete(cfg);
	cua_resume_free_ids(ids, n_ids);
	if (st != CUA_OK) {
		fprintf(stderr, "cuarena run: %s\n", err);
		return st == CUA_E_NO_GPU ? CUA_EXIT_ENV
		       : st == CUA_E_USAGE || st == CUA_E_PARSE || st == CUA_E_NOT_FOUND
		           ? CUA_EXIT_USAGE
		           : CUA_EXIT_FAILED;
	}
	/* GPU-hours: wall time on every device evaluating, over every segment */
	double gpu_h = sum.gpu_s / 3600;
	double per_hour = gpu_h > 0 ? sum.evaluations / gpu_h : 0;
	double idle = gpu_h > 0 ? 100 * (1 - sum.gpu_busy_s / (gpu_h * 3600)) : 0;
	char segs[64] = "", own[96] = "";
	if (sum.segments > 1)
		snprintf(segs, sizeof(segs), " over %d invocations", sum.segments);
	/* the baselines' share of the GPU aside: what the candidates alone cost */
	if (sum.candidate_gpu_s > 0)
		snprintf(own, sizeof(own), "; %.0f per GPU-hour of their own GPU time",
		         sum.evaluations / (sum.candidate_gpu_s / 3600));
	printf("run %s: %d/%d tasks done, %d with a correct kernel; %d candidates in %.1f s%s "
	       "on %d GPU%s (%.0f per GPU-hour%s, GPU idle %.0f%%)%s\n",
	       sum.out_dir, sum.tasks_done, sum.tasks, sum.tasks_correct, sum.evaluations,
	       sum.wall_s, segs, sum.gpus, sum.gpus == 1 ? "" : "s", per_hour, own,
	       idle < 0 ? 0 : idle, sum.interrupted ? "; interrupted" : "");
	if (sum.agent_failed)
		fprintf(stderr, "cuarena run: %d of %d episode%s ended because the agent failed "
		                "(reasons in %s/trajectories.jsonl)\n",
		        sum.agent_failed, sum.tasks_done, sum.tasks_done == 1 ? "" : "s",
		        sum.out_dir);
	return sum.interrupted ? CUA_EXIT_FAILED : sum.agent_failed ? CUA_EXIT_AGENT : CUA_EXIT_OK;
}
