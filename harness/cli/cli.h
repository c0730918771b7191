/* cli.h — what every `cuarena <command>` shares: the command table entry, the
 * located repo root, output mode and exit codes. One cmd-<name>.c per command. */
#ifndef CUA_CLI_H
#define CUA_CLI_H

#include "common.h"
#include "eval/report.h"
#include "catalogue/catalogue.h"

/* Exit codes of the CLI (DESIGN.md §8). */
enum {
	CUA_EXIT_OK = 0,
	CUA_EXIT_FAILED = 1,   /* something evaluated failed or regressed */
	CUA_EXIT_USAGE = 2,
	CUA_EXIT_ENV = 3,      /* environment: no GPU, no nvcc, missing files */
	CUA_EXIT_AGENT = 4,    /* `run`: an episode ended because its agent failed */
};

struct cua_cli {
	char root[CUA_PATH_LEN];       /* repo root (tasks/, baselines/, include/) */
	char self[CUA_PATH_LEN];       /* this executable */
	char cache[CUA_PATH_LEN];      /* compile cache */
	bool json;             /* --json */
};

struct cua_command {
	const char *name;
	int (*fn)(struct cua_cli *cli, int argc, char **argv);
	const char *usage;     /* one line, shown by `cuarena help` and on misuse */
	const char *summary;   /* what it does, and its exit codes when they say more
	                        * than the common ones: `cuarena CMD --help` */
};

int cmd_list(struct cua_cli *cli, int argc, char **argv);
int cmd_show(struct cua_cli *cli, int argc, char **argv);
int cmd_eval(struct cua_cli *cli, int argc, char **argv);
int cmd_baselines(struct cua_cli *cli, int argc, char **argv);
int cmd_doctor(struct cua_cli *cli, int argc, char **argv);
int cmd_selftest(struct cua_cli *cli, int argc, char **argv);
int cmd_catalogue(struct cua_cli *cli, int argc, char **argv);
int cmd_run(struct cua_cli *cli, int argc, char **argv);
int cmd_env(struct cua_cli *cli, int argc, char **argv);
int cmd_table(struct cua_cli *cli, int argc, char **argv);
int cmd_board(struct cua_cli *cli, int argc, char **argv);
int cmd_plot(struct cua_cli *cli, int argc, char **argv);
int cmd_compare(struct cua_cli *cli, int argc, char **argv);
int cmd_history(struct cua_cli *cli, int argc, char **argv);
int cmd_merge(struct cua_cli *cli, int argc, char **argv);
int cmd_slurm(struct cua_cli *cli, int argc, char **argv);
int cmd_serve(struct cua_cli *cli, int argc, char **argv);

/* Prints "cuarena NAME: usage: ..." to stderr and returns CUA_EXIT_USAGE. */
int cua_cli_usage(const char *name);

/* The command called name, or NULL. */
const struct cua_command *cua_cli_command(const char *name);

/* `cuarena help`: every command's usage line, on f. */
void cua_cli_help(FILE *f);

/* `cuarena CMD --help`, `cuarena help CMD`: usage and summary on stdout;
 * returns CUA_EXIT_OK. */
int cua_cli_command_help(const struct cua_command *c);

/* Loads the catalogue and finds one task; prints errors; returns an exit code
 * (CUA_EXIT_OK on success, *cat to be freed by the caller). */
int cua_cli_task(struct cua_cli *cli, const char *name, struct cua_catalogue *cat,
                 const struct cua_task **t);

/* Fills eval options for this CLI (cache, ceilings of `gpu` when known). */
void cua_cli_eval_opts(struct cua_cli *cli, struct cua_eval_opts *o,
                       struct cua_ceilings *ceil);

/* The baseline store of `run` and `serve` (judge/bstore.h): dir (--baseline-store)
 * else $CUARENA_BASELINE_STORE else <the compile cache>/baselines; "off": none
 * (*out NULL). fresh: --fresh-baselines. Returns an exit code (a bad dir is named). */
int cua_cli_bstore(struct cua_cli *cli, const char *cmd, const char *dir, bool fresh,
                   struct cua_bstore **out);
/* One line on stderr: how many baselines were measured, reused and stored. */
void cua_cli_bstore_summary(const char *cmd, const struct cua_bstore *s);

/* Runs a report (candidate src optional) for the task named by argv and prints
 * it; shared by `eval` and `baselines`. Returns the exit code. */
int cua_cli_report(struct cua_cli *cli, const char *task, const char *src,
                   const struct cua_eval_opts *base_opts);

/* `eval --compile-only`: builds the candidate and runs the checks made before a
 * kernel runs (cua_precheck), with no GPU; prints the verdict. Exit code 0 when
 * the kernel would run, 1 when it is rejected, 3 when a tool is missing. */
int cua_cli_precheck(struct cua_cli *cli, const char *task, const char *src,
                     const struct cua_eval_opts *o);

/* Parses the options `eval` and `baselines` share (--no-time, --max-time-s S,
 * --timeout-s S, --compile-timeout-s S) into o; positional arguments go to pos. Returns how many
 * positional arguments there were, or -1 on a usage error. */
int cua_cli_eval_args(struct cua_cli *cli, int argc, char **argv,
                      struct cua_eval_opts *o, const char **pos, int max_pos);

/* Prints a JSON object on stdout and frees it. */
void cua_cli_print_json(struct cJSON *o);

#endif /* CUA_CLI_H */
