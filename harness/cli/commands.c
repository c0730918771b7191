/* commands.c — the command table (sorted by name; each usage text lives here
 * once), `cuarena help` and the usage line printed on misuse. Adding a command:
 * cmd-<name>.c, its prototype in cli.h, and a row here. */
#include "cli/cli.h"

#include <string.h>

/* Sorted by name; usage text lives here once. */
static const struct cua_command commands[] = {
	{"baselines", cmd_baselines, "cuarena baselines TASK [--json] [--no-time]",
	 "The task's nvcc reference and each library baseline, checked against the fp64 oracle and timed."},
	{"board", cmd_board, "cuarena board RUN... [--md FILE] [--html DIR] [--final]",
	 "A leaderboard across runs (agents and versions), as markdown and as a static HTML page."},
	{"catalogue", cmd_catalogue, "cuarena catalogue [--selftest FILE] [--torch FILE]",
	 "The catalogue as a markdown table (docs/CATALOGUE.md), with selftest and torch figures when given."},
	{"compare", cmd_compare, "cuarena compare OLD NEW [--threshold PCT] [--final] [--json]",
	 "Per task SAME / FASTER / SLOWER / AMBIGUOUS between two runs, from their sample distributions.\nExit 1 on a regression."},
	{"doctor", cmd_doctor, "cuarena doctor [--measure] [--json]",
	 "GPU, driver, nvcc, cuobjdump and libraries; --measure records the device's ceilings in data/devices/."},
	{"env", cmd_env, "cuarena env   (reset/step as JSON lines on stdin/stdout)",
	 "reset/step as JSON lines on stdin/stdout, for RL trainers that own the loop (docs/AGENT-PROTOCOL.md)."},
	{"eval", cmd_eval, "cuarena eval TASK FILE.cu [--json] [--no-time] [--max-time-s S] "
	                   "[--timeout-s S] [--compile-timeout-s S] [--compile-only]",
	 "Judges and times a candidate against every baseline of the task. --compile-only builds it and runs\nthe checks made before a kernel runs (symbols, SASS precision policy) with no GPU: exit 0 when it\nwould run, 1 with the verdict when it is rejected."},
	{"history", cmd_history, "cuarena history DIR [--out DIR] [--format png|svg] [--json]",
	 "Trends over nightly runs in DIR (gnuplot figures)."},
	{"list", cmd_list, "cuarena list [--level N] [--json]",
	 "The catalogue: id, title, precision policy, baselines."},
	{"merge", cmd_merge, "cuarena merge SHARD_DIR... --out DIR [--allow-incomplete] [--expect N] | "
	                     "cuarena merge SHARD_DIR... --print-missing [--expect N]",
	 "Joins the shards of one run (run --shard I/N) into one run folder of the same format. Refuses shards\n"
	 "of different agents, versions, turns, rewards, harness commits or catalogues (exit 2); names every\n"
	 "missing or unfinished shard and writes nothing (exit 1) unless --allow-incomplete. Merging again\n"
	 "gives the same folder. --print-missing prints the indices of the shards to (re)run, comma-separated."},
	{"plot", cmd_plot, "cuarena plot RUN... --out DIR [--format png|svg] [--baseline NAME] "
	                   "[--final]",
	 "gnuplot figures (fast_p, speedups, roofline) from results folders."},
	{"run", cmd_run, "cuarena run --agent NAME [--agent-config F.json] [--agent-version V] "
	                 "[--level N] [--tasks GLOB] [--turns T] [--reward cuda-agent|kevin|"
	                 "log-speedup] [--jobs N] [--gpus 0,1,...] [--out DIR] [--max-time-s S] "
	                 "[--shard I/N [--costs RUN]] [--baseline-store DIR|off] [--fresh-baselines] | "
	                 "cuarena run --resume DIR [--gpus LIST]",
	 "Multi-turn episodes over the catalogue with an agent backend; results in results/<run-id>/.\n"
	 "--shard I/N runs shard I of the selected tasks split N ways by expected cost (measured in RUN's\n"
	 "baselines with --costs, else the catalogue's model); `cuarena merge` joins the shards.\n"
	 "Baselines are reused from the baseline store (default <cache>/baselines, or\n"
	 "$CUARENA_BASELINE_STORE) when their key matches (docs/METHOD.md); --fresh-baselines measures all.\nExit 4 when any episode ended because its agent failed (the count is printed), 1 when interrupted."},
	{"selftest", cmd_selftest, "cuarena selftest [TASK...] [--compile-only] [--jobs N] "
	                           "[--no-time] [--max-time-s S] [--dump DIR] [--out FILE] [--json]",
	 "The catalogue checks itself: references and baselines vs the fp64 oracle, non-degeneracy.\n--compile-only builds and checks every kernel with no GPU."},
	{"serve", cmd_serve, "cuarena serve [--listen HOST:PORT] [--gpus LIST] [--queue N] "
	                     "[--jobs N] [--token-file F] [--results DIR] [--port-file F] "
	                     "[--max-body BYTES] [--max-episodes N] [--max-time-s S] "
	                     "[--compile-timeout-s S] [--max-connections N] [--max-per-client N] "
	                     "[--client-timeout-s S] [--baseline-store DIR|off] [--fresh-baselines]",
	 "The reward service for RL trainers: evaluations and env-protocol episodes over HTTP/JSON,\none worker per GPU, a bounded queue (429 when full), every evaluation appended to a results\nfolder (docs/SERVE.md). Listens on 127.0.0.1:8177 unless told; beyond loopback a bearer token\n(--token-file) is required. Runs until SIGINT/SIGTERM."},
	{"show", cmd_show, "cuarena show TASK [--json]",
	 "Exactly the prompt an agent gets for TASK."},
	{"slurm", cmd_slurm, "cuarena slurm --shards N --out DIR --agent NAME [run options] "
	                     "[--throttle K] [--gres G] [--partition P] [--time T] [--cpus-per-task C] "
	                     "[--sbatch OPT]... [--retries R] [--jobdir DIR] [--submit]",
	 "Writes a Slurm job array of N shards (run --shard I/N, --gres=gpu:1, K at a time) and a merge job\n"
	 "after it (afterany) that re-runs missing or unfinished shards with --resume (R times, default 2)\n"
	 "and then merges them into DIR. Scripts in DIR's job folder (default .DIR.slurm beside DIR);\n"
	 "--submit submits them with sbatch. Run options: --agent-config, --agent-version, --level,\n"
	 "--tasks, --turns, --reward, --jobs, --max-time-s, --costs RUN, --baseline-store DIR (a store\n"
	 "on a file system every node sees: the shards share it)."},
	{"table", cmd_table, "cuarena table RUN... [--layout cuda-agent|kernelbench] "
	                     "[--format md|latex|csv] [--baselines A,B] [--primary NAME] "
	                     "[--final] [--margin PCT] [--json]",
	 "Paper-style tables (CUDA Agent Table 1, KernelBench fast_p) from results folders."},
};

void cua_cli_help(FILE *f)
{
	fprintf(f, "cuarena — a benchmark harness for agent-written CUDA kernels\n\n"
	           "usage: cuarena [--root DIR] <command> [args]    (cuarena --version)\n\n");
	for (size_t i = 0; i < CUA_ARRAY_LEN(commands); i++)
		fprintf(f, "  %s\n", commands[i].usage);
	fprintf(f, "\n`cuarena help CMD` or `cuarena CMD --help` says more about one command.\n"
	           "exit codes: 0 ok, 1 something evaluated failed, 2 usage, "
	           "3 environment (no GPU, no nvcc), 4 `run`: an agent failed\n");
}

int cua_cli_command_help(const struct cua_command *c)
{
	printf("usage: %s\n\n%s\n\nexit codes: 0 ok, 1 something evaluated failed, 2 usage, "
	       "3 environment (no GPU, no nvcc)\n", c->usage, c->summary);
	return CUA_EXIT_OK;
}

int cua_cli_usage(const char *name)
{
	for (size_t i = 0; i < CUA_ARRAY_LEN(commands); i++)
		if (!strcmp(commands[i].name, name)) {
			fprintf(stderr, "usage: %s\n", commands[i].usage);
			return CUA_EXIT_USAGE;
		}
	cua_cli_help(stderr);
	return CUA_EXIT_USAGE;
}

const struct cua_command *cua_cli_command(const char *name)
{
	for (size_t k = 0; k < CUA_ARRAY_LEN(commands); k++)
		if (!strcmp(commands[k].name, name))
			return &commands[k];
	return NULL;
}
