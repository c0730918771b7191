/* test-table.c — `cuarena table` against golden files (tests/data/golden/), one
 * per layout and format, plus the CUDA Agent Table-1 check and option misuse.
 * The goldens were checked by hand against test-metrics.c's numbers; to
 * rewrite them after an intended change: CUARENA_UPDATE_GOLDEN=1 make test. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <string.h>

#include "cuarena-test.h"

/* Runs `cuarena ARGS` in the repository root; its stdout alone (heap), as the
 * golden files hold it, and *status. */
static char *cuarena(const char *args, int *status)
{
	return run_cuarena_with((struct cuarena_call){.quiet = true}, args, status);
}

struct golden {
	char file[48];       /* under tests/data/golden/ */
	char args[200];
};

#define RUNS "tests/data/results/basic tests/data/results/beta tests/data/results/weighted"

static struct golden goldens[] = {
	{"cuda-agent.md", "table " RUNS " --layout cuda-agent --format md"},
	{"cuda-agent.tex", "table " RUNS " --layout cuda-agent --format latex"},
	{"cuda-agent.csv", "table " RUNS " --layout cuda-agent --format csv"},
	{"kernelbench.md", "table " RUNS " --layout kernelbench --format md"},
	{"kernelbench.tex", "table " RUNS " --layout kernelbench --format latex"},
	{"kernelbench.csv", "table " RUNS " --layout kernelbench --format csv"},
	/* CUDA Agent Table 1's Overall from its per-level numbers: 2.60 and 2.11 */
	{"cuda-agent-paper.md", "table tests/data/results/weighted --baselines "
	                        "torch-eager,torch-compile --primary torch-compile"},
	{"cuda-agent-final-margin.md", "table tests/data/results/basic --final --margin 5"},
};

ParameterizedTestParameters(table, output_matches_its_golden_file)
{
	return cr_make_param_array(struct golden, goldens, CUA_ARRAY_LEN(goldens));
}

ParameterizedTest(struct golden *g, table, output_matches_its_golden_file)
{
	char path[4096];
	int status;
	char *got = cuarena(g->args, &status);
	cr_expect_eq(status, 0, "cuarena %s: exit %d", g->args, status);
	snprintf(path, sizeof(path), "%s/tests/data/golden/%s", root(), g->file);
	if (getenv("CUARENA_UPDATE_GOLDEN")) {
		cr_assert_eq(cua_write_file(path, got, strlen(got), NULL, 0), CUA_OK);
		free(got);
		cr_skip_test("rewrote %s", path);
	}
	char *want = NULL;
	cr_assert_eq(cua_read_file(path, 1 << 20, &want, NULL, NULL, 0), CUA_OK,
	             "no golden file %s (CUARENA_UPDATE_GOLDEN=1 writes it)", path);
	cr_expect_str_eq(got, want, "cuarena %s differs from %s", g->args, g->file);
	free(got);
	free(want);
}

Test(table, the_paper_check_row_reads_2_60_and_2_11_overall)
{
	int status;
	char *got = cuarena("table tests/data/results/weighted --baselines "
	                    "torch-eager,torch-compile --primary torch-compile", &status);
	cr_expect_eq(status, 0);
	cr_expect(strstr(got, "| cuda-agent | paper | 70.0 / 70.0 / 70.0 / 2.60 / 2.11 | "
	                      "50.0 / 50.0 / 50.0 / 2.48 / 1.87 | "
	                      "100.0 / 100.0 / 100.0 / 3.27 / 2.80 | "
	                      "50.0 / 50.0 / 50.0 / 1.80 / 1.52 |") != NULL, "%s", got);
	free(got);
}

Test(table, the_extra_set_leaves_every_level_column_and_overall_as_without_it)
{
	int status;
	char *got = cuarena("table tests/data/results/extra-set --baselines "
	                    "torch-eager,torch-compile --primary torch-compile", &status);
	cr_expect_eq(status, 0);
	cr_expect(strstr(got, "| Agent | Version | Overall | L1 | L2 | L3 |\n") != NULL,
	          "no column for X: %s", got);
	cr_expect(strstr(got, "| cuda-agent | paper | 70.0 / 70.0 / 70.0 / 2.60 / 2.11 | "
	                      "50.0 / 50.0 / 50.0 / 2.48 / 1.87 | "
	                      "100.0 / 100.0 / 100.0 / 3.27 / 2.80 | "
	                      "50.0 / 50.0 / 50.0 / 1.80 / 1.52 |") != NULL, "%s", got);
	free(got);
	got = cuarena("table tests/data/results/extra-set --layout kernelbench", &status);
	cr_expect_eq(status, 0);
	cr_expect(strstr(got, "| Overall | 10 |") != NULL, "%s", got);
	cr_expect(strstr(got, "| L1 | 4 |") != NULL, "%s", got);
	cr_expect(strstr(got, "| L? |") == NULL, "%s", got);
	free(got);
}

Test(table, levels_absent_from_every_run_are_omitted)
{
	int status;
	char *got = cuarena("table tests/data/results/basic", &status);
	cr_expect_eq(status, 0);
	cr_expect(strstr(got, "| Agent | Version | Overall | L1 |\n") != NULL, "%s", got);
	cr_expect(strstr(got, "L2") == NULL, "%s", got);
	free(got);
}

Test(table, json_carries_every_metric_with_intervals)
{
	int status;
	char *got = cuarena("table tests/data/results/basic --json", &status);
	cr_expect_eq(status, 0);
	static const char *const keys[] = {"\"pass_ci\":", "\"faster_margin\":", "\"fast_p\":",
	                                   "\"geomean_all\":", "\"median_sol\":\t80",
	                                   "\"verdict\":\t\"not_run\""};
	for (size_t i = 0; i < CUA_ARRAY_LEN(keys); i++)
		cr_expect(strstr(got, keys[i]) != NULL, "no %s in\n%s", keys[i], got);
	free(got);
}

struct misuse {
	char args[160];
	int status;
};

static struct misuse misuses[] = {
	{"table", 2},
	{"table tests/data/results/basic --layout paper", 2},
	{"table tests/data/results/basic --format html", 2},
	{"table tests/data/results/basic --margin 100", 2},
	{"table tests/data/results/basic --margin -1", 2},
	{"table tests/data/results/basic --baselines a,,b", 2},
	{"table tests/data/results/basic --layout kernelbench --baselines nvcc,library", 2},
	{"table tests/data/results/basic --bogus", 2},
	{"table tests/data/results/no-run-json", 2},
	{"table tests/data/results/newer-schema", 2},
	{"table tests/data/results/torn", 0},
};

ParameterizedTestParameters(table, misuse_and_bad_runs_exit_with_the_documented_status)
{
	return cr_make_param_array(struct misuse, misuses, CUA_ARRAY_LEN(misuses));
}

ParameterizedTest(struct misuse *m, table, misuse_and_bad_runs_exit_with_the_documented_status)
{
	int status;
	free(cuarena(m->args, &status));
	cr_expect_eq(status, m->status, "cuarena %s: exit %d, want %d", m->args, status,
	             m->status);
}
