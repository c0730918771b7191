/* cmd-baselines.c — `cuarena baselines TASK`: the nvcc reference and every library
 * baseline of a task, each checked against the oracle and timed. */
#include "cli/cli.h"

int cmd_baselines(struct cua_cli *cli, int argc, char **argv)
{
	struct cua_eval_opts o;
	const char *pos[1];

	if (cua_cli_eval_args(cli, argc, argv, &o, pos, 1) != 1)
		return cua_cli_usage("baselines");
	return cua_cli_report(cli, pos[0], NULL, &o);
}
