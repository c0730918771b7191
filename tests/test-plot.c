/* test-plot.c — `cuarena plot` and `cuarena history --out`: gnuplot renders
 * every plot to a non-empty PNG (or SVG), the data files hold the numbers the
 * plots show, the roofline reads flops and bytes from the run alone, a run with
 * no correct task still plots, a missing gnuplot is an environment error. Skips
 * when gnuplot is absent (tools/deps.sh). */
#include <criterion/criterion.h>
#include <string.h>
#include <sys/stat.h>

#include "boards/plot-gnuplot.h"
#include "cuarena-test.h"

/* tmp is made by each test after its skip check, so a skipped test leaves
 * nothing behind. */
TestSuite(plot, .fini = tmp_remove);

static void need_gnuplot(void)
{
	char path[4096];
	if (!cua_plot_find_gnuplot(path, sizeof(path)))
		cr_skip_test("gnuplot not found: install gnuplot-nox (tools/deps.sh) to run the "
		             "plot tests");
}

/* Asserts tmp/NAME is a PNG of at least min_w pixels wide and min_bytes long. */
static void expect_png(const char *name, unsigned min_w, long min_bytes)
{
	char path[4200];
	unsigned char head[24];
	struct stat st;
	snprintf(path, sizeof(path), "%s/%s", tmp, name);
	cr_assert_eq(stat(path, &st), 0, "%s was not written", path);
	cr_expect_geq(st.st_size, min_bytes, "%s is only %ld bytes", name, (long)st.st_size);
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f);
	cr_assert_eq(fread(head, 1, sizeof(head), f), sizeof(head));
	fclose(f);
	cr_expect_eq(memcmp(head, "\x89PNG\r\n\x1a\n", 8), 0, "%s is not a PNG", name);
	unsigned w = (unsigned)head[16] << 24 | head[17] << 16 | head[18] << 8 | head[19];
	cr_expect_geq(w, min_w, "%s is %u px wide", name, w);
}

Test(plot, every_plot_renders_to_a_non_empty_png)
{
	need_gnuplot();
	tmp_make();
	char args[512];
	int status;
	snprintf(args, sizeof(args), "plot tests/data/results/basic tests/data/results/beta "
	                             "tests/data/results/weighted --out %s", tmp);
	char *out = run_cuarena(args, &status);
	cr_expect_eq(status, 0, "%s", out);
	expect_png("fastp.png", 900, 10000);
	expect_png("dist.png", 900, 10000);
	expect_png("bars.png", 960, 10000);
	expect_png("roofline.png", 1000, 10000);
	free(out);
}

Test(plot, the_data_files_hold_the_plotted_numbers)
{
	need_gnuplot();
	tmp_make();
	char args[512];
	int status;
	snprintf(args, sizeof(args), "plot tests/data/results/basic tests/data/results/beta "
	                             "tests/data/results/weighted --out %s", tmp);
	char *out = run_cuarena(args, &status);
	cr_expect_eq(status, 0, "%s", out);
	/* fast_p at p = 1 and 1.5: alpha 60 / 20, beta 80 / 60, cuda-agent 70 / 70 */
	char *fastp = tmp_read("fastp.dat");
	cr_expect(strstr(fastp, "\"p\" \"alpha v1\" \"beta v2\" \"cuda-agent paper\"\n") != NULL);
	cr_expect(strstr(fastp, "\n1.00 60.0000 80.0000 70.0000\n") != NULL, "%.300s", fastp);
	cr_expect(strstr(fastp, "\n1.50 20.0000 60.0000 70.0000\n") != NULL);
	/* bars: failed tasks are NaN (no bar) */
	char *bars = tmp_read("bars.dat");
	cr_expect(strstr(bars, "\"L1/025-softmax\" NaN 1.6 NaN\n") != NULL, "%s", bars);
	/* roofline: relu at 0.125 flop/byte, as the runs recorded it */
	char *roof = tmp_read("roofline.dat");
	cr_expect(strstr(roof, "\n0.125 90 \"021-relu\"\n") != NULL, "%s", roof);
	cr_expect(strstr(roof, "\"001-a\"") == NULL, "the weighted run has no %%SOL");
	cr_expect(strstr(out, "left out") == NULL, "every plotted task was recorded: %s", out);
	free(fastp);
	free(bars);
	free(roof);
	free(out);
}

/* The roofline reads a task's flops and bytes from its run alone: it read
 * today's tasks/<id>/task.json until 2026-12-01, which may have changed since
 * the run (or be gone). A run that did not record them leaves its tasks out,
 * saying how many. */
Test(plot, the_roofline_reads_flops_and_bytes_from_the_run_only)
{
	need_gnuplot();
	tmp_make();
	char args[512];
	int status;
	snprintf(args, sizeof(args), "plot tests/data/results/roofline --out %s", tmp);
	char *out = run_cuarena(args, &status);
	cr_expect_eq(status, 0, "%s", out);
	expect_png("roofline.png", 1000, 10000);
	char *roof = tmp_read("roofline.dat");
	cr_expect(strstr(roof, "\n1 55 \"990-gone\"\n") != NULL, "no task file, recorded: %s",
	          roof);
	cr_expect(strstr(roof, "\n0.125 90 \"021-relu\"\n") != NULL, "%s", roof);
	cr_expect(strstr(roof, "001-sgemm") == NULL, "its run did not record it: %s", roof);
	cr_expect(strstr(out, "roofline: 1 correct task with a %SOL left out") != NULL, "%s", out);
	free(roof);
	free(out);
	/* a run from before they were recorded: the note, no roofline, exit 0 */
	snprintf(args, sizeof(args), "plot tests/data/results/history/night-b --out %s/old", tmp);
	out = run_cuarena(args, &status);
	cr_expect_eq(status, 0, "%s", out);
	cr_expect(strstr(out, "roofline: 3 correct tasks with a %SOL left out") != NULL, "%s", out);
	cr_expect(strstr(out, "(roofline: no correct task") != NULL, "%s", out);
	free(out);
}

/* A run in which no task passed still plots (gnuplot refused the bars of no
 * valid point, and `plot` exited 3): fast_p is drawn, the rest say why not;
 * beside other runs, it is named in the bars' key. */
Test(plot, a_run_with_no_correct_task_plots_what_it_can)
{
	need_gnuplot();
	tmp_make();
	char args[512];
	int status;
	snprintf(args, sizeof(args), "plot tests/data/results/none-correct --out %s", tmp);
	char *out = run_cuarena(args, &status);
	cr_expect_eq(status, 0, "%s", out);
	expect_png("fastp.png", 900, 10000);
	cr_expect(strstr(out, "(bars: no correct task with a speedup: no plot)") != NULL, "%s",
	          out);
	cr_expect(strstr(out, "(dist: no correct task") != NULL, "%s", out);
	cr_expect(strstr(out, "(roofline: no correct task") != NULL, "%s", out);
	char path[4200];
	snprintf(path, sizeof(path), "%s/bars.png", tmp);
	cr_expect_neq(access(path, F_OK), 0, "no bars.png of nothing");
	free(out);
	/* beside a run that has bars it is named in the key, with none of its own */
	snprintf(args, sizeof(args), "plot tests/data/results/basic tests/data/results/none-correct "
	                             "--out %s/two", tmp);
	out = run_cuarena(args, &status);
	cr_expect_eq(status, 0, "%s", out);
	expect_png("two/bars.png", 960, 10000);
	cr_expect(strstr(out, "(bars: delta v0 has no correct task") != NULL, "%s", out);
	char *vars = tmp_read("two/bars.vars.gp");
	cr_expect(strstr(vars, "barcols = \"2\"\nnobarcols = \"3\"\n") != NULL, "%s", vars);
	free(vars);
	free(out);
}

Test(plot, svg_is_written_when_asked)
{
	need_gnuplot();
	tmp_make();
	char args[512];
	int status;
	snprintf(args, sizeof(args), "plot tests/data/results/basic --out %s --format svg", tmp);
	char *out = run_cuarena(args, &status);
	cr_expect_eq(status, 0, "%s", out);
	char *svg = tmp_read("fastp.svg");
	cr_expect(strstr(svg, "<svg") != NULL);
	cr_expect(strstr(svg, "alpha v1") != NULL, "the legend names the run");
	free(svg);
	free(out);
}

Test(plot, history_draws_the_trend_of_nightly_runs)
{
	need_gnuplot();
	tmp_make();
	char args[512];
	int status;
	snprintf(args, sizeof(args), "history tests/data/results/history --out %s", tmp);
	char *out = run_cuarena(args, &status);
	cr_expect_eq(status, 0, "%s", out);
	expect_png("trend.png", 900, 10000);
	char *dat = tmp_read("trend.dat");
	/* oldest first: night-c (11-26), night-a, night-b */
	char *c = strstr(dat, "night-c"), *a = strstr(dat, "night-a"), *b = strstr(dat, "night-b");
	cr_expect(c && a && b && c < a && a < b, "%s", dat);
	free(dat);
	free(out);
}

Test(plot, a_missing_gnuplot_is_an_environment_error)
{
	tmp_make();
	char args[512];
	int status;
	snprintf(args, sizeof(args), "plot tests/data/results/basic --out %s", tmp);
	struct cuarena_call no_gnuplot = {.env = "CUARENA_GNUPLOT=/nonexistent/gnuplot"};
	char *out = run_cuarena_with(no_gnuplot, args, &status);
	cr_expect_eq(status, 3, "%s", out);
	cr_expect(strstr(out, "gnuplot-nox") != NULL, "%s", out);
	free(out);
}

Test(plot, misuse_is_a_usage_error)
{
	static const char *const bad[] = {
		"plot", "plot tests/data/results/basic", "plot --out /tmp/x",
		"plot tests/data/results/basic --out /tmp/x --format jpg",
		"plot tests/data/results/no-run-json --out /tmp/x", "history",
		"history /nonexistent", "history tests/data/results/history --format gif",
		"history tests/data/results/history/not-a-run",
	};
	for (size_t i = 0; i < CUA_ARRAY_LEN(bad); i++) {
		int status;
		free(run_cuarena(bad[i], &status));
		cr_expect_eq(status, 2, "cuarena %s: exit %d", bad[i], status);
	}
}

/* ---- how gnuplot is run (a stand-in for it: no gnuplot needed) ---------------- */

/* Writes tmp/NAME with text, executable; sets CUARENA_GNUPLOT to it (this test's
 * process only: Criterion runs each test in its own). */
static void fake_gnuplot(const char *name, const char *text)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s", tmp, name);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
	cr_assert_eq(chmod(path, 0755), 0);
	setenv("CUARENA_GNUPLOT", path, 1);
}

Test(plot, gnuplot_gets_the_vars_then_the_script_its_stdin_empty_and_draws_the_image)
{
	tmp_make();
	fake_gnuplot("gp", "#!/bin/sh\n"
	             "out=$(sed -n 's/^outfile = \"\\(.*\\)\"$/\\1/p' \"$1\")\n"
	             "echo \"args $(basename \"$1\") $(basename \"$2\")\"\n"
	             "echo \"stdin [$(cat)]\"\n"
	             "echo drawn > \"$out\"\n");
	struct cua_plot p = {.root = root(), .out = tmp, .format = "png"};
	char err[CUA_ERR_LEN] = "", path[4200], *log = NULL;
	cr_assert_eq(cua_plot_run(&p, "fastp", "", err, sizeof(err)), CUA_OK, "%s", err);
	snprintf(path, sizeof(path), "%s/fastp.log", tmp);
	cr_assert_eq(cua_read_file(path, 4096, &log, NULL, NULL, 0), CUA_OK);
	cr_expect_str_eq(log, "args fastp.vars.gp fastp.gp\nstdin []\n");
	free(log);
	snprintf(path, sizeof(path), "%s/fastp.png", tmp);
	cr_assert_eq(cua_read_file(path, 4096, &log, NULL, NULL, 0), CUA_OK);
	cr_expect_str_eq(log, "drawn\n");
	free(log);
}

Test(plot, a_failing_gnuplot_is_named_with_the_last_line_of_its_log_which_has_both_streams)
{
	tmp_make();
	fake_gnuplot("gp", "#!/bin/sh\necho 'to stdout'\necho '    line 3: the error' >&2\n"
	             "echo '    ^' >&2\nexit 1\n");
	struct cua_plot p = {.root = root(), .out = tmp, .format = "png"};
	char err[CUA_ERR_LEN] = "", want[CUA_ERR_LEN], path[4200], *log = NULL;
	cr_assert_eq(cua_plot_run(&p, "fastp", "", err, sizeof(err)), CUA_E_SYSTEM);
	snprintf(want, sizeof(want), "gnuplot failed on %s/plots/fastp.gp (log %s/fastp.log):     "
	         "line 3: the error", root(), tmp);
	cr_expect_str_eq(err, want);
	snprintf(path, sizeof(path), "%s/fastp.log", tmp);
	cr_assert_eq(cua_read_file(path, 4096, &log, NULL, NULL, 0), CUA_OK);
	cr_expect_str_eq(log, "to stdout\n    line 3: the error\n    ^\n");
	free(log);
}

Test(plot, a_gnuplot_that_cannot_be_executed_says_why)
{
	tmp_make();
	fake_gnuplot("gp", "not a program\n");
	struct cua_plot p = {.root = root(), .out = tmp, .format = "png"};
	char err[CUA_ERR_LEN] = "", want[CUA_ERR_LEN];
	cr_assert_eq(cua_plot_run(&p, "fastp", "", err, sizeof(err)), CUA_E_SYSTEM);
	snprintf(want, sizeof(want), "%s/gp: cannot run: Exec format error", tmp);
	cr_expect_str_eq(err, want);
}
