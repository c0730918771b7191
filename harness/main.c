/* main.c — `cuarena <command>`: the command table, global options, root discovery. */
#include "agent.h"
#include "cli.h"
#include "runner.h"

#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cjson/cJSON.h>

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
	 "GPU, driver, nvcc, cuobjdump and libraries; --measure records the device's ceilings in results/device/."},
	{"env", cmd_env, "cuarena env   (reset/step as JSON lines on stdin/stdout)",
	 "reset/step as JSON lines on stdin/stdout, for RL trainers that own the loop (docs/AGENT-PROTOCOL.md)."},
	{"eval", cmd_eval, "cuarena eval TASK FILE.cu [--json] [--no-time] [--max-time-s S] "
	                   "[--timeout-s S] [--compile-timeout-s S] [--compile-only]",
	 "Judges and times a candidate against every baseline of the task. --compile-only builds it and runs\nthe checks made before a kernel runs (symbols, SASS precision policy) with no GPU: exit 0 when it\nwould run, 1 with the verdict when it is rejected."},
	{"history", cmd_history, "cuarena history DIR [--out DIR] [--format png|svg] [--json]",
	 "Trends over nightly runs in DIR (gnuplot figures)."},
	{"list", cmd_list, "cuarena list [--level N] [--json]",
	 "The catalogue: id, title, precision policy, baselines."},
	{"plot", cmd_plot, "cuarena plot RUN... --out DIR [--format png|svg] [--baseline NAME] "
	                   "[--final]",
	 "gnuplot figures (fast_p, speedups, roofline) from results folders."},
	{"run", cmd_run, "cuarena run --agent NAME [--agent-config F.json] [--agent-version V] "
	                 "[--level N] [--tasks GLOB] [--turns T] [--reward cuda-agent|kevin|"
	                 "log-speedup] [--jobs N] [--gpus 0,1,...] [--out DIR] [--max-time-s S] | "
	                 "cuarena run --resume DIR [--gpus LIST]",
	 "Multi-turn episodes over the catalogue with an agent backend; results in results/<run-id>/.\nExit 4 when any episode ended because its agent failed (the count is printed), 1 when interrupted."},
	{"selftest", cmd_selftest, "cuarena selftest [TASK...] [--compile-only] [--jobs N] "
	                           "[--no-time] [--max-time-s S] [--dump DIR] [--out FILE] [--json]",
	 "The catalogue checks itself: references and baselines vs the fp64 oracle, non-degeneracy.\n--compile-only builds and checks every kernel with no GPU."},
	{"show", cmd_show, "cuarena show TASK [--json]",
	 "Exactly the prompt an agent gets for TASK."},
	{"table", cmd_table, "cuarena table RUN... [--layout cuda-agent|kernelbench] "
	                     "[--format md|latex|csv] [--baselines A,B] [--primary NAME] "
	                     "[--final] [--margin PCT] [--json]",
	 "Paper-style tables (CUDA Agent Table 1, KernelBench fast_p) from results folders."},
};

static void help(FILE *f)
{
	fprintf(f, "cuarena — a benchmark harness for agent-written CUDA kernels\n\n"
	           "usage: cuarena [--root DIR] <command> [args]    (cuarena --version)\n\n");
	for (size_t i = 0; i < CUA_ARRAY_LEN(commands); i++)
		fprintf(f, "  %s\n", commands[i].usage);
	fprintf(f, "\n`cuarena help CMD` or `cuarena CMD --help` says more about one command.\n"
	           "exit codes: 0 ok, 1 something evaluated failed, 2 usage, "
	           "3 environment (no GPU, no nvcc), 4 `run`: an agent failed\n");
}

/* `cuarena CMD --help`, `cuarena help CMD`: usage and summary on stdout. */
static int command_help(const struct cua_command *c)
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
	help(stderr);
	return CUA_EXIT_USAGE;
}

static bool has_tasks(const char *dir)
{
	char p[4200];
	struct stat st;
	snprintf(p, sizeof(p), "%s/tasks", dir);
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* --root, then $CUARENA_ROOT, then the folder above this binary (build/..),
 * then PREFIX/share/cuarena for an installed binary, then the current directory. */
static bool find_root(struct cua_cli *cli, const char *opt)
{
	const char *env = getenv("CUARENA_ROOT");
	if (opt || env) {
		snprintf(cli->root, sizeof(cli->root), "%s", opt ? opt : env);
		return has_tasks(cli->root);
	}
	char up[4096];
	snprintf(up, sizeof(up), "%s", cli->self);
	for (int k = 0; k < 2; k++) {
		char *sl = strrchr(up, '/');
		if (!sl)
			break;
		*sl = '\0';
	}
	if (up[0] && has_tasks(up)) {
		snprintf(cli->root, sizeof(cli->root), "%s", up);
		return true;
	}
	/* make install: PREFIX/bin/cuarena with the catalogue in PREFIX/share/cuarena. */
	char shared[4096];
	snprintf(shared, sizeof(shared), "%.4000s/share/cuarena", up);
	if (up[0] && has_tasks(shared)) {
		snprintf(cli->root, sizeof(cli->root), "%s", shared);
		return true;
	}
	if (getcwd(cli->root, sizeof(cli->root)) && has_tasks(cli->root))
		return true;
	return false;
}

void cua_cli_print_json(cJSON *o)
{
	char *s = cJSON_Print(o);
	if (s)
		printf("%s\n", s);
	free(s);
	cJSON_Delete(o);
}

int main(int argc, char **argv)
{
	struct cua_cli cli;
	const char *root_opt = NULL;
	int i = 1;

	/* No process of the same user may ptrace us or read our memory (the seeds
	 * of an evaluation pass through it). */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	/* Hidden child commands run before anything else touches the environment. */
	if (argc > 1 && !strcmp(argv[1], "__judge"))
		return cua_judge_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "__probe"))
		return cua_probe_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "__measure"))
		return cua_measure_main(argc - 1, argv + 1);

	char rerr[CUA_ERR_LEN];
	if (cua_agent_registry_check(rerr, sizeof(rerr)) != CUA_OK) {
		fprintf(stderr, "cuarena: %s\n", rerr);
		return 3;
	}
	memset(&cli, 0, sizeof(cli));
	ssize_t n = readlink("/proc/self/exe", cli.self, sizeof(cli.self) - 1);
	if (n <= 0)
		snprintf(cli.self, sizeof(cli.self), "%s", argv[0]);
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--root") && i + 1 < argc)
			root_opt = argv[++i];
		else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			help(stdout);
			return CUA_EXIT_OK;
		} else if (!strcmp(argv[i], "--version")) {
			/* the commit recorded as harness.git in every run.json */
			printf("cuarena %s (git %s)\n", CUA_VERSION, cua_git_sha);
			return CUA_EXIT_OK;
		} else {
			fprintf(stderr, "cuarena: unknown option '%s'\n", argv[i]);
			help(stderr);
			return CUA_EXIT_USAGE;
		}
	}
	if (i >= argc) {
		help(stderr);
		return CUA_EXIT_USAGE;
	}
	const char *name = argv[i];
	bool help_asked = false;
	if (!strcmp(name, "help")) {
		if (i + 1 >= argc) {
			help(stdout);
			return CUA_EXIT_OK;
		}
		name = argv[++i];
		help_asked = true;
	}
	const struct cua_command *cmd = NULL;
	for (size_t k = 0; k < CUA_ARRAY_LEN(commands); k++)
		if (!strcmp(commands[k].name, name))
			cmd = &commands[k];
	if (!cmd) {
		fprintf(stderr, "cuarena: unknown command '%s'\n", name);
		help(stderr);
		return CUA_EXIT_USAGE;
	}
	for (int k = i + 1; k < argc; k++)
		help_asked |= !strcmp(argv[k], "--help") || !strcmp(argv[k], "-h");
	if (help_asked)
		return command_help(cmd);
	/* --json anywhere after the command. */
	int cargc = 0;
	char **cargv = calloc((size_t)argc + 1, sizeof(char *));
	CUA_ASSERT(cargv);
	for (int k = i; k < argc; k++) {
		if (!strcmp(argv[k], "--json"))
			cli.json = true;
		else
			cargv[cargc++] = argv[k];
	}
	if (!find_root(&cli, root_opt)) {
		fprintf(stderr, "cuarena: cannot find the catalogue (a tasks/ folder) in %s; "
		                "use --root DIR or CUARENA_ROOT\n",
		        root_opt ? root_opt : "the usual places");
		free(cargv);
		return CUA_EXIT_ENV;
	}
	const char *cache = getenv("CUARENA_CACHE");
	const char *home = getenv("XDG_CACHE_HOME");
	if (cache)
		snprintf(cli.cache, sizeof(cli.cache), "%s", cache);
	else if (home)
		snprintf(cli.cache, sizeof(cli.cache), "%s/cuarena", home);
	else if (getenv("HOME"))
		snprintf(cli.cache, sizeof(cli.cache), "%s/.cache/cuarena", getenv("HOME"));
	else
		snprintf(cli.cache, sizeof(cli.cache), "%.4000s/build/cache", cli.root);
	int rc = cmd->fn(&cli, cargc, cargv);
	free(cargv);
	return rc;
}
