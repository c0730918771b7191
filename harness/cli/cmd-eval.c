/* cmd-eval.c — `cuarena eval TASK FILE.cu`: one candidate, judged and timed
 * against every baseline of the task in the same invocation; with
 * --compile-only, only built and checked (no GPU). */
#include "cli/cli.h"

#include <string.h>

int cua_cli_eval_args(struct cua_cli *cli, int argc, char **argv,
                      struct cua_eval_opts *o, const char **pos, int max_pos)
{
	int n = 0;
	cua_cli_eval_opts(cli, o, NULL);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--no-time"))
			o->time = false;
		else if (!strcmp(argv[i], "--max-time-s") && i + 1 < argc) {
			char *end;
			o->max_time_s = strtod(argv[++i], &end);
			if (*end || !(o->max_time_s > 0 && o->max_time_s <= 600))
				return -1;
		} else if (!strcmp(argv[i], "--compile-timeout-s") && i + 1 < argc) {
			char *end;
			o->build.timeout_s = strtod(argv[++i], &end);
			if (*end || !(o->build.timeout_s > 0 && o->build.timeout_s <= 3600))
				return -1;
		} else if (!strcmp(argv[i], "--timeout-s") && i + 1 < argc) {
			char *end;
			o->run_timeout_s = strtod(argv[++i], &end);
			if (*end || !(o->run_timeout_s > 0))
				return -1;
		} else if (argv[i][0] == '-' && argv[i][1])
			return -1;
		else if (n < max_pos)
			pos[n++] = argv[i];
		else
			return -1;
	}
	return n;
}

int cmd_eval(struct cua_cli *cli, int argc, char **argv)
{
	struct cua_eval_opts o;
	const char *pos[2];
	bool compile_only = false;
	int n = 0;

	/* --compile-only is eval's own; the rest is shared with `baselines` */
	char **args = calloc((size_t)argc + 1, sizeof(char *));
	CUA_ASSERT(args);
	for (int i = 0; i < argc; i++) {
		if (i > 0 && !strcmp(argv[i], "--compile-only"))
			compile_only = true;
		else
			args[n++] = argv[i];
	}
	int npos = cua_cli_eval_args(cli, n, args, &o, pos, 2);
	free(args);
	if (npos != 2)
		return cua_cli_usage("eval");
	FILE *f = fopen(pos[1], "rb");
	if (!f) {
		fputs("cuarena eval: cannot read ", stderr);
		cua_fput_term(stderr, pos[1]);
		fputs("\n", stderr);
		return CUA_EXIT_USAGE;
	}
	fclose(f);
	if (compile_only)
		return cua_cli_precheck(cli, pos[0], pos[1], &o);
	return cua_cli_report(cli, pos[0], pos[1], &o);
}
