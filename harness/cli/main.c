/* main.c — `cuarena <command>`: global options, root discovery, dispatch (the
 * command table is commands.c). */
#include "episode/agent.h"
#include "cli/cli.h"
#include "judge/runner.h"

#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cjson/cJSON.h>

static bool has_tasks(const char *dir)
{
	char p[CUA_PATH_BUF];
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
		char err[CUA_ERR_LEN];
		if (cua_pathf(cli->root, sizeof(cli->root), err, sizeof(err), "%s",
		              opt ? opt : env) != CUA_OK) {
			fprintf(stderr, "cuarena: %s: %s\n", opt ? "--root" : "CUARENA_ROOT", err);
			return false;
		}
		return has_tasks(cli->root);
	}
	char up[CUA_PATH_LEN];
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
	char shared[CUA_PATH_LEN];
	snprintf(shared, sizeof(shared), "%.4000s/share/cuarena", up);
	if (up[0] && has_tasks(shared)) {
		snprintf(cli->root, sizeof(cli->root), "%s", shared);
		return true;
	}
	if (getcwd(cli->root, sizeof(cli->root)) && has_tasks(cli->root))
		return true;
	return false;
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
			cua_cli_help(stdout);
			return CUA_EXIT_OK;
		} else if (!strcmp(argv[i], "--version")) {
			/* the commit recorded as harness.git in every run.json */
			printf("cuarena %s (git %s)\n", CUA_VERSION, cua_git_sha);
			return CUA_EXIT_OK;
		} else {
			fprintf(stderr, "cuarena: unknown option '%s'\n", argv[i]);
			cua_cli_help(stderr);
			return CUA_EXIT_USAGE;
		}
	}
	if (i >= argc) {
		cua_cli_help(stderr);
		return CUA_EXIT_USAGE;
	}
	const char *name = argv[i];
	bool help_asked = false;
	if (!strcmp(name, "help")) {
		if (i + 1 >= argc) {
			cua_cli_help(stdout);
			return CUA_EXIT_OK;
		}
		name = argv[++i];
		help_asked = true;
	}
	const struct cua_command *cmd = cua_cli_command(name);
	if (!cmd) {
		fprintf(stderr, "cuarena: unknown command '%s'\n", name);
		cua_cli_help(stderr);
		return CUA_EXIT_USAGE;
	}
	for (int k = i + 1; k < argc; k++)
		help_asked |= !strcmp(argv[k], "--help") || !strcmp(argv[k], "-h");
	if (help_asked)
		return cua_cli_command_help(cmd);
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
		fprintf(stderr, "cuarena: cannot find the catalogue (a tasks/ folder) in %.200s; "
		                "use --root DIR or CUARENA_ROOT\n",
		        root_opt ? root_opt : "the usual places");
		free(cargv);
		return CUA_EXIT_ENV;
	}
	const char *cache = getenv("CUARENA_CACHE");
	const char *home = getenv("XDG_CACHE_HOME");
	char cerr[CUA_ERR_LEN];
	enum cua_status cst =
	    cache  ? cua_pathf(cli.cache, sizeof(cli.cache), cerr, sizeof(cerr), "%s", cache)
	    : home ? cua_pathf(cli.cache, sizeof(cli.cache), cerr, sizeof(cerr), "%s/cuarena", home)
	    : getenv("HOME") ? cua_pathf(cli.cache, sizeof(cli.cache), cerr, sizeof(cerr),
	                                 "%s/.cache/cuarena", getenv("HOME"))
	    : cua_pathf(cli.cache, sizeof(cli.cache), cerr, sizeof(cerr), "%s/build/cache", cli.root);
	if (cst != CUA_OK) {
		fprintf(stderr, "cuarena: the compile cache: %s\n", cerr);
		free(cargv);
		return CUA_EXIT_ENV;
	}
	int rc = cmd->fn(&cli, cargc, cargv);
	free(cargv);
	return rc;
}
