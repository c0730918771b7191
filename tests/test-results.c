/* test-results.c — the run-folder loader (harness/results/results.c): fields, scored
 * evaluations, code read back, rejections naming file and line, torn lines, and
 * the escapers; the folder's one writer (results/writer.c) and what a folder
 * holds (results/prior.c). Fixtures: tests/data/results/ (make-fixtures.py). */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "results/prior.h"
#include "results/results.h"
#include "results/writer.h"
#include "catalogue/catalogue.h"
#include <sys/resource.h>
#include <sys/wait.h>
#include "cuarena-test.h"

static const char *fixture(const char *name)
{
	static char path[4096];
	snprintf(path, sizeof(path), "%s/tests/data/results/%s", root(), name);
	return path;
}

static struct cua_results *load(const char *name)
{
	char err[CUA_ERR_LEN] = "";
	struct cua_results *run = NULL;
	cr_assert_eq(cua_results_load(fixture(name), &run, err, sizeof(err)), CUA_OK, "%s", err);
	cr_assert_not_null(run);
	return run;
}

static const struct cua_results_task *task(const struct cua_results *run, const char *id)
{
	const struct cua_results_task *t = cua_results_find(run, id);
	cr_assert_not_null(t, "no task %s", id);
	return t;
}

/* ---- a good run ---------------------------------------------------------------- */

Test(results, a_run_folder_loads_with_its_run_json_fields)
{
	struct cua_results *run = load("basic");
	cr_expect_str_eq(run->agent, "alpha");
	cr_expect_str_eq(run->version, "v1");
	cr_expect_str_eq(run->run_id, "basic");
	cr_expect_str_eq(run->created, "2026-11-29T18:15:00Z");
	cr_expect_str_eq(run->device, "NVIDIA H200");
	cr_expect_str_eq(run->harness_version, "0.2.0");
	cr_expect_eq(run->turns, 8);
	cr_expect_eq(run->n_warnings, 0);
	cr_expect_null(run->warnings);
	cua_results_free(run);
}

Test(results, tasks_are_the_union_of_the_list_and_the_lines_sorted_by_id)
{
	static const char *const ids[] = {"L1/001-sgemm", "L1/020-vector-add", "L1/021-relu",
	                                  "L1/025-softmax", "L1/999-missing"};
	struct cua_results *run = load("basic");
	cr_assert_eq(run->n_tasks, 5);
	for (int i = 0; i < 5; i++) {
		cr_expect_str_eq(run->tasks[i].id, ids[i]);
		cr_expect(run->tasks[i].listed, "%s is listed in run.json", ids[i]);
		cr_expect_eq(run->tasks[i].level, 1);
	}
	cr_expect_eq(task(run, "L1/001-sgemm")->n_evals, 3);
	cr_expect_eq(task(run, "L1/001-sgemm")->n_baselines, 3);
	cr_expect_eq(task(run, "L1/001-sgemm")->n_turns, 3);
	cr_expect(task(run, "L1/001-sgemm")->ended);
	cr_expect_eq(task(run, "L1/001-sgemm")->best_turn, 2);
	cr_expect_str_eq(task(run, "L1/025-softmax")->end_reason,
	                 "agent failed: no code block in the reply");
	cr_expect_eq(task(run, "L1/999-missing")->n_evals, 0);
	cr_expect_null(cua_results_find(run, "L1/998-nothing"));
	int levels[4];
	cr_expect_eq(cua_results_levels(run, levels, 4), 1);
	cr_expect_eq(levels[0], 1);
	cua_results_free(run);
}

Test(results, an_evaluation_keeps_verdict_timing_sol_and_speedups)
{
	struct cua_results *run = load("basic");
	const struct cua_results_task *t = task(run, "L1/001-sgemm");
	const struct cua_rec *r = &t->evals[1];
	cr_expect_eq(r->turn, 2);
	cr_expect_eq(r->line, 2);
	cr_expect_eq(r->verdict, CUA_VERDICT_OK);
	cr_expect(r->timed);
	cr_expect_float_eq(r->ms.median, 2.0, 1e-12);   /* nvcc 3.0 ms / 1.5 */
	cr_expect_float_eq(r->ms.q1, 2.0 * 0.99, 1e-12);
	cr_expect_float_eq(r->sm_mhz, 1980.0, 1e-9);
	cr_expect_float_eq(r->pct_sol, 40.0, 1e-12);
	cr_expect_eq(r->n_speedups, 3);
	cr_expect_float_eq(cua_rec_speedup(r, "nvcc"), 1.5, 1e-12);
	cr_expect_float_eq(cua_rec_speedup(r, "torch-eager"), 0.6, 1e-12);
	cr_expect(isnan(cua_rec_speedup(r, "torch-compile")));
	const struct cua_rec *failed = &t->evals[0];
	cr_expect_eq(failed->verdict, CUA_VERDICT_COMPILE_ERROR);
	cr_expect(!failed->timed);
	cr_expect(isnan(cua_rec_speedup(failed, "nvcc")), "a failed evaluation has no speedup");
	cr_expect_str_eq(failed->message, "the compile error");
	const struct cua_rec *b = cua_results_baseline(t, "torch-eager");
	cr_assert_not_null(b);
	cr_expect(b->imported);
	cr_expect_float_eq(b->ms.median, 1.2, 1e-12);
	cr_expect_null(cua_results_baseline(t, "cudnn/relu"));
	cua_results_free(run);
}

Test(results, library_is_the_fastest_library_baseline_or_nvcc_without_one)
{
	struct cua_results *run = load("basic");
	cr_expect_float_eq(cua_rec_speedup(&task(run, "L1/001-sgemm")->evals[1], "library"),
	                   0.5, 1e-12);
	cr_expect_float_eq(cua_rec_speedup(&task(run, "L1/021-relu")->evals[0], "library"),
	                   1.8, 1e-12);
	cr_expect_float_eq(cua_rec_speedup(&task(run, "L1/020-vector-add")->evals[0], "library"),
	                   1.02, 1e-12, "vector-add has no library baseline: nvcc stands in");
	cua_results_free(run);
}

Test(results, best_of_trajectory_picks_the_fastest_correct_turn_and_final_the_last)
{
	struct cua_results *run = load("basic");
	static const struct {
		const char *id;
		int best, final;    /* turns; 0 = none */
	} want[] = {
		{"L1/001-sgemm", 2, 3},      /* 1.5x at turn 2, 1.2x at turn 3 */
		{"L1/020-vector-add", 1, 2}, /* correct at 1, wrong at 2 */
		{"L1/021-relu", 1, 1},
		{"L1/025-softmax", 0, 2},    /* never correct */
		{"L1/999-missing", 0, 0},    /* never run */
	};
	for (size_t i = 0; i < CUA_ARRAY_LEN(want); i++) {
		const struct cua_results_task *t = task(run, want[i].id);
		const struct cua_rec *b = cua_results_scored(t, "nvcc", CUA_PICK_BEST);
		const struct cua_rec *f = cua_results_scored(t, "nvcc", CUA_PICK_FINAL);
		cr_expect_eq(b ? b->turn : 0, want[i].best, "%s: best turn", want[i].id);
		cr_expect_eq(f ? f->turn : 0, want[i].final, "%s: final turn", want[i].id);
	}
	/* ranked by another primary baseline: still turn 2 (0.5 > 0.4 vs cuBLAS) */
	const struct cua_rec *b = cua_results_scored(task(run, "L1/001-sgemm"), "library",
	                                          CUA_PICK_BEST);
	cr_expect_eq(b->turn, 2);
	cua_results_free(run);
}

Test(results, the_code_of_a_turn_is_read_back_from_the_trajectory)
{
	struct cua_results *run = load("basic");
	const struct cua_results_task *t = task(run, "L1/001-sgemm");
	char *code = cua_results_code(run, t, 2);
	cr_assert_not_null(code);
	cr_expect(strstr(code, "L1/001-sgemm, turn 2: a<b && c>d") != NULL, "%s", code);
	cr_expect(strstr(code, "kernel_t2") != NULL);
	free(code);
	cr_expect_null(cua_results_code(run, t, 7), "no turn 7");
	cua_results_free(run);
}

Test(results, a_trailing_slash_is_dropped_from_the_folder)
{
	char dir[4200], err[CUA_ERR_LEN];
	struct cua_results *run = NULL;
	snprintf(dir, sizeof(dir), "%s//", fixture("basic"));
	cr_assert_eq(cua_results_load(dir, &run, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_str_eq(run->dir, fixture("basic"));
	cua_results_free(run);
}

/* ---- rejections ---------------------------------------------------------------- */

/* Criterion passes parameters by copy into its workers: strings live inline. */
struct reject {
	char fixture[32];
	enum cua_status status;
	char file[32];          /* the file the message must start with */
	char what[96];          /* the rest, after "FILE: " */
};

static struct reject rejects[] = {
	{"newer-schema", CUA_E_PARSE, "evals.jsonl",
	 "line 12: schema 99 is newer than this cuarena (2)"},
	{"newer-run", CUA_E_PARSE, "run.json", "schema 99 is newer than this cuarena (2)"},
	{"no-run-json", CUA_E_NOT_FOUND, "run.json", "cannot open: No such file or directory"},
	{"bad-verdict", CUA_E_PARSE, "evals.jsonl",
	 "line 2: eval: verdict: unknown verdict 'exploded'"},
	{"nonexistent", CUA_E_NOT_FOUND, "run.json", "cannot open: No such file or directory"},
	{"bad-flops", CUA_E_PARSE, "baselines.jsonl", "line 1: flops: expected a number >= 0"},
};

ParameterizedTestParameters(results, a_bad_run_is_rejected_naming_file_and_line)
{
	return cr_make_param_array(struct reject, rejects, CUA_ARRAY_LEN(rejects));
}

ParameterizedTest(struct reject *r, results, a_bad_run_is_rejected_naming_file_and_line)
{
	char err[CUA_ERR_LEN] = "", want[CUA_ERR_LEN];
	struct cua_results *run = (struct cua_results *)1;
	enum cua_status st = cua_results_load(fixture(r->fixture), &run, err, sizeof(err));
	snprintf(want, sizeof(want), "%s/%s: %s", fixture(r->fixture), r->file, r->what);
	cr_expect_eq(st, r->status, "%s: status %d", r->fixture, st);
	cr_expect_null(run, "%s: the out-parameter is cleared on failure", r->fixture);
	cr_expect_str_eq(err, want);
}

Test(results, a_torn_last_line_is_reported_and_skipped)
{
	struct cua_results *run = load("torn");
	const struct cua_results_task *t = task(run, "L1/021-relu");
	cr_expect_eq(t->n_evals, 3, "the three whole lines are kept");
	cr_expect_eq(t->n_turns, 3);
	cr_expect_eq(run->n_warnings, 2);
	char want[4300];
	snprintf(want, sizeof(want), "%s/evals.jsonl: line 4: ", fixture("torn"));
	cr_assert_not_null(run->warnings);
	cr_expect(strstr(run->warnings, want) != NULL, "%s", run->warnings);
	cr_expect(strstr(run->warnings, "torn last line skipped (56 bytes: its writer was stopped "
	                                "while writing it)"),
	          "%s", run->warnings);
	cr_expect(strstr(run->warnings, "trajectories.jsonl: line 4: ") != NULL, "%s",
	          run->warnings);
	cua_results_free(run);
}

/* A writer before the one writer (writer.c) did not cut a failed append back:
 * its torn bytes then sat in the middle of the file, with or without the next
 * line glued to them, and table, board and a restarted serve refused the whole
 * folder ("line 3: not valid JSON"). Now the torn bytes are skipped and named
 * with their count, and a whole line glued after them is read. */
Test(results, a_torn_line_in_the_middle_is_skipped_and_named_not_refused)
{
	struct cua_results *run = load("bad-json");
	const struct cua_results_task *t = task(run, "L1/021-relu");
	cr_expect_eq(t->n_evals, 3, "the lines around the torn one are read");
	char want[4400];
	snprintf(want, sizeof(want), "%s/evals.jsonl: line 3: 47 bytes torn by a failed write",
	         fixture("bad-json"));
	cr_assert_not_null(run->warnings);
	cr_expect(strstr(run->warnings, want) != NULL, "%s", run->warnings);
	cua_results_free(run);

	/* the disk-full case: the torn bytes and the next whole line on one line */
	tmp_make();
	char dir[256], cmd[8600], err[CUA_ERR_LEN] = "";
	snprintf(dir, sizeof(dir), "%s/glued", tmp);
	snprintf(cmd, sizeof(cmd), "cp -r '%s' '%s' && cd '%s' && head -n 1 evals.jsonl > e && "
	         "printf '{\"schema\":2,\"task\":\"L1/021-relu\",\"tu' >> e && "
	         "tail -n +2 evals.jsonl >> e && mv e evals.jsonl", fixture("basic"), dir, dir);
	int status;
	free(sh(cmd, &status));
	cr_assert_eq(status, 0, "%s", cmd);
	struct cua_results *base = load("basic");
	run = NULL;
	cr_assert_eq(cua_results_load(dir, &run, err, sizeof(err)), CUA_OK, "%s", err);
	for (int i = 0; i < base->n_tasks; i++)
		cr_expect_eq(task(run, base->tasks[i].id)->n_evals, base->tasks[i].n_evals,
		             "%s: the line glued after the torn bytes is read",
		             base->tasks[i].id);
	snprintf(want, sizeof(want), "%s/evals.jsonl: line 2: 36 bytes torn by a failed write "
	         "(an older cuarena did not cut them back) skipped; the whole line glued after "
	         "them is read", dir);
	cr_expect(run->warnings && strstr(run->warnings, want), "%s", run->warnings);
	/* the glued line's code is found where it starts, after the torn bytes */
	const struct cua_results_task *bt = &base->tasks[0];
	if (bt->n_turns) {
		char *a = cua_results_code(base, bt, bt->turns[0].turn);
		char *b = cua_results_code(run, task(run, bt->id), bt->turns[0].turn);
		cr_expect((!a && !b) || (a && b && !strcmp(a, b)));
		free(a);
		free(b);
	}
	cua_results_free(base);
	cua_results_free(run);
	tmp_remove();
}

/* Runs record each task's flops and bytes on its baselines lines; a run from
 * before does not (NaN), and the plots then leave the task out. */
Test(results, each_tasks_flops_and_bytes_come_from_its_baselines_lines)
{
	struct cua_results *run = load("roofline");
	const struct cua_results_task *relu = task(run, "L1/021-relu");
	cr_expect_eq(relu->flops, 805306368.0);
	cr_expect_eq(relu->bytes, 6442450944.0);
	cr_expect_eq(task(run, "L1/990-gone")->flops, 1e9, "no task file needed");
	const struct cua_results_task *old = task(run, "L1/001-sgemm");
	cr_expect(isnan(old->flops) && isnan(old->bytes), "not recorded: %g %g", old->flops,
	          old->bytes);
	cua_results_free(run);
}

/* ---- the line walk: one schema check, one torn-tail rule ------------------------ */

struct seen {
	int n, lines[8];
	long offsets[8];
	int stop_at;             /* the callback fails on this line (0: never) */
};

static enum cua_status see(void *ctx, const cJSON *o, const struct cua_results_at *at,
                           char *err, size_t errlen)
{
	struct seen *s = ctx;
	if (s->n < 8) {
		s->lines[s->n] = at->line;
		s->offsets[s->n] = at->offset;
	}
	s->n++;
	if (at->line == s->stop_at)
		return cua_results_line_err(at, err, errlen, "stopped here");
	return CUA_OK;
}

static void write_tmp(char *path, const char *text)
{
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static char *read_tmp(const char *path)
{
	char *buf = NULL;
	cr_assert_eq(cua_read_file(path, 1 << 20, &buf, NULL, NULL, 0), CUA_OK);
	return buf;
}

#define L1 "{\"schema\":2,\"task\":\"a\"}\n"
#define L2 "{\"schema\":1,\"task\":\"b\"}\n"

/* A reader skips a torn last line; a writer about to append (run --resume,
 * serve) cuts it from the file first. Both name it; blank lines are no lines. */
Test(results, a_torn_last_line_is_skipped_by_readers_and_cut_by_writers)
{
	char path[] = "/tmp/cuarena-test-walk-XXXXXX", err[CUA_ERR_LEN] = "";
	write_tmp(path, L1 "\n  \n" L2 "{\"schema\":2,\"ta");
	struct seen s = {0};
	struct cua_results_tears torn;
	cr_assert_eq(cua_results_each_line(path, CUA_RESULTS_SKIP_TORN, see, &s, &torn, err,
	                                   sizeof(err)), CUA_OK, "%s", err);
	cr_expect_eq(s.n, 2);
	cr_expect(s.lines[0] == 1 && s.lines[1] == 4, "lines %d %d", s.lines[0], s.lines[1]);
	cr_expect_eq(s.offsets[1], (long)strlen(L1 "\n  \n"), "where line 4 starts");
	cr_expect(torn.n == 1 && torn.at[0].line == 5 && torn.at[0].tail &&
	          torn.at[0].bytes == 15, "%d tears, line %d, %ld bytes", torn.n, torn.at[0].line,
	          torn.at[0].bytes);
	char *text = read_tmp(path);
	cr_expect(strstr(text, "\"ta") != NULL, "a reader changes nothing");
	free(text);

	s = (struct seen){0};
	cr_assert_eq(cua_results_each_line(path, CUA_RESULTS_CUT_TORN, see, &s, &torn, err,
	                                   sizeof(err)), CUA_OK, "%s", err);
	cr_expect_eq(s.n, 2);
	cr_expect(torn.n == 1 && torn.at[0].line == 5 && torn.at[0].bytes == 15,
	          "the cut line is named with its bytes");
	text = read_tmp(path);
	cr_expect_str_eq(text, L1 "\n  \n" L2);
	free(text);
	cr_assert_eq(cua_results_each_line(path, CUA_RESULTS_CUT_TORN, see, &s, &torn, err,
	                                   sizeof(err)), CUA_OK, "%s", err);
	cr_expect_eq(torn.n, 0, "nothing left to cut");
	unlink(path);

	/* a missing file is empty */
	s = (struct seen){0};
	cr_expect_eq(cua_results_each_line(path, CUA_RESULTS_CUT_TORN, see, &s, &torn, err,
	                                   sizeof(err)), CUA_OK, "%s", err);
	cr_expect(s.n == 0 && torn.n == 0);
}

/* Lines that do not parse in the middle of a file are what an older writer
 * left (a failed append not cut back): skipped and named, with a record glued
 * after the torn bytes read; a line that parses but is not a record this
 * cuarena reads still stops the walk (below). */
Test(results, a_line_that_does_not_parse_is_torn_and_a_record_glued_to_it_is_read)
{
	static const struct {
		const char *text;
		int seen, line;
		long bytes;
		bool glued;
	} cases[] = {
		{L1 "{\"schema\n" L2, 2, 2, 8, false},
		{L1 "{\"schema\n", 1, 2, 8, false},
		{L1 "{\"task\":\"x\",\"tu" L2, 2, 2, 15, true},
		{L1 "{\"a\":{\"b\":[1,{" L2, 2, 2, 14, true},
		{L1 "garbage {} more" "\n" L2, 2, 2, 15, false},
	};
	for (size_t i = 0; i < CUA_ARRAY_LEN(cases); i++)
		for (int mode = 0; mode < 2; mode++) {
			char path[] = "/tmp/cuarena-test-walk-XXXXXX", err[CUA_ERR_LEN] = "";
			write_tmp(path, cases[i].text);
			struct seen s = {0};
			struct cua_results_tears torn;
			cr_expect_eq(cua_results_each_line(path, (enum cua_results_tail)mode, see, &s,
			                                   &torn, err, sizeof(err)), CUA_OK,
			             "case %zu: %s", i, err);
			cr_expect_eq(s.n, cases[i].seen, "case %zu: %d records read", i, s.n);
			cr_expect(torn.n == 1 && torn.at[0].line == cases[i].line &&
			          torn.at[0].bytes == cases[i].bytes &&
			          torn.at[0].glued == cases[i].glued && !torn.at[0].tail,
			          "case %zu: line %d, %ld bytes, glued %d", i, torn.at[0].line,
			          torn.at[0].bytes, torn.at[0].glued);
			char *text = read_tmp(path);
			cr_expect_str_eq(text, cases[i].text, "case %zu: the file is left as it was", i);
			free(text);
			unlink(path);
		}
}

/* What no tear leaves stops the walk, naming the file and line: a line without
 * a schema this cuarena reads, one that is not an object, and whatever the caller
 * refuses. */
Test(results, a_bad_line_stops_the_walk_naming_file_and_line)
{
	static const struct {
		const char *text;
		enum cua_results_tail tail;
		int stop_at;
		const char *want;
	} cases[] = {
		{L1 "{\"task\":\"c\"}\n", CUA_RESULTS_SKIP_TORN, 0, "line 2: no \"schema\""},
		{L1 "{\"schema\":3}\n", CUA_RESULTS_CUT_TORN, 0,
		 "line 2: schema 3 is newer than this cuarena (2)"},
		{L1 "[1, 2]\n", CUA_RESULTS_SKIP_TORN, 0, "line 2: expected a JSON object"},
		{L1 L2, CUA_RESULTS_SKIP_TORN, 2, "line 2: stopped here"},
	};
	for (size_t i = 0; i < CUA_ARRAY_LEN(cases); i++) {
		char path[] = "/tmp/cuarena-test-walk-XXXXXX", err[CUA_ERR_LEN] = "", want[256];
		write_tmp(path, cases[i].text);
		struct seen s = {.stop_at = cases[i].stop_at};
		cr_expect_eq(cua_results_each_line(path, cases[i].tail, see, &s, NULL, err,
		                                   sizeof(err)), CUA_E_PARSE, "case %zu", i);
		snprintf(want, sizeof(want), "%s: %s", path, cases[i].want);
		cr_expect(!strncmp(err, want, strlen(want)), "case %zu: %s", i, err);
		char *text = read_tmp(path);
		cr_expect_str_eq(text, cases[i].text, "case %zu: the file is left as it was", i);
		free(text);
		unlink(path);
	}
}

Test(results, free_of_null_is_a_no_op)
{
	cua_results_free(NULL);
}

/* ---- escaping ------------------------------------------------------------------- */

static char *esc(const char *s, enum cua_escape how)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	cr_assert_not_null(f);
	cua_fput_esc(f, s, how);
	fclose(f);
	return buf;
}

struct esc_case {
	enum cua_escape how;
	char in[64], out[160];
};

static struct esc_case esc_cases[] = {
	{CUA_ESC_MD, "a|b\nc", "a\\|b c"},
	{CUA_ESC_LATEX, "L1/021_relu 5% & $x^2$ {a} #1 ~\\", "L1/021\\_relu 5\\% \\& \\$x\\textasciicircum{}2\\$ \\{a\\} \\#1 \\textasciitilde{}\\textbackslash{}"},
	{CUA_ESC_CSV, "plain", "plain"},
	{CUA_ESC_CSV, "a,b \"q\"", "\"a,b \"\"q\"\"\""},
	{CUA_ESC_HTML, "<script>a && 'b' \"c\"</script>",
	 "&lt;script&gt;a &amp;&amp; &#39;b&#39; &quot;c&quot;&lt;/script&gt;"},
	{CUA_ESC_GNUPLOT, "alpha \"v1\" \\", "alpha \\\"v1\\\" \\\\"},
	{CUA_ESC_NONE, "as is|<", "as is|<"},
};

ParameterizedTestParameters(results, text_is_escaped_for_its_output)
{
	return cr_make_param_array(struct esc_case, esc_cases, CUA_ARRAY_LEN(esc_cases));
}

ParameterizedTest(struct esc_case *c, results, text_is_escaped_for_its_output)
{
	char *got = esc(c->in, c->how);
	cr_expect_str_eq(got, c->out, "mode %d", c->how);
	free(got);
}

/* ---- the one writer (results/writer.c) -------------------------------------------- */

TestSuite(writer, .init = tmp_make, .fini = tmp_remove);

static char *file_of(const char *dir, const char *name)
{
	char p[4400], *buf = NULL;
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	if (cua_read_file(p, 1 << 24, &buf, NULL, NULL, 0) != CUA_OK)
		return NULL;
	return buf;
}

/* A step's object as the episode codec writes it, small. */
static cJSON *step_obj(int turn)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "turn", turn);
	cJSON_AddNumberToObject(o, "reward", -1);
	cJSON *e = cJSON_AddObjectToObject(o, "eval");
	cJSON_AddStringToObject(e, "subject", "candidate");
	cJSON_AddStringToObject(e, "verdict", "no_code");
	return o;
}

/* Each record is one line with its schema; a torn tail (a writer killed
 * mid-line) is cut when the folder is opened again, and said how many bytes. */
Test(writer, a_record_is_one_line_with_its_schema_and_a_torn_tail_is_cut_on_open)
{
	char dir[256], err[CUA_ERR_LEN] = "";
	snprintf(dir, sizeof(dir), "%s/run", tmp);
	struct cua_writer *w;
	struct cua_writer_opened opened;
	cr_assert_eq(cua_writer_open(dir, "test", &w, &opened, err, sizeof(err)), CUA_OK, "%s",
	             err);
	struct cua_eval_where at = {.task = "L1/021-relu", .level = 1};
	cr_assert_eq(cua_writer_eval(w, &at, step_obj(1), err, sizeof(err)), CUA_OK, "%s", err);
	cua_writer_close(w);
	char p[400];
	snprintf(p, sizeof(p), "%s/evals.jsonl", dir);
	int fd = open(p, O_WRONLY | O_APPEND);
	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, "{\"turn\":2,\"re", 13), 13);   /* killed mid-line */
	close(fd);
	cr_assert_eq(cua_writer_open(dir, "test", &w, &opened, err, sizeof(err)), CUA_OK, "%s",
	             err);
	cr_expect_eq(opened.cut[CUA_RESULTS_F_EVALS], 13, "the torn 13 bytes are cut");
	cr_expect_eq(opened.cut[CUA_RESULTS_F_TRAJ], 0);
	cr_assert_eq(cua_writer_eval(w, &at, step_obj(2), err, sizeof(err)), CUA_OK, "%s", err);
	cua_writer_close(w);
	char *text = file_of(dir, "evals.jsonl");
	cr_assert_not_null(text);
	/* the schema this cuarena writes, never a literal */
	char want[512];
	snprintf(want, sizeof(want),
	         "{\"turn\":1,\"reward\":-1,\"eval\":{\"subject\":\"candidate\",\"verdict\":"
	         "\"no_code\"},\"task\":\"L1/021-relu\",\"level\":1,\"schema\":%d}\n"
	         "{\"turn\":2,\"reward\":-1,\"eval\":{\"subject\":\"candidate\",\"verdict\":"
	         "\"no_code\"},\"task\":\"L1/021-relu\",\"level\":1,\"schema\":%d}\n",
	         CUA_RESULTS_SCHEMA, CUA_RESULTS_SCHEMA);
	cr_expect_str_eq(text, want);
	free(text);
	cr_expect_eq(cua_results_drop_torn_tail(p), 0, "a whole file is left as it is");
}

/* A full disk (a file-size limit stands in): the write that does not fit is cut
 * back off the file before the caller hears of it, so the file holds whole
 * lines only; the writer says it is failing, naming the file but not the
 * folder, and is well again once a write fits. Before, the half-written line
 * stayed, and the next one was glued to it. */
Test(writer, a_write_that_does_not_fit_is_cut_back_to_the_last_whole_line)
{
	char dir[256], err[CUA_ERR_LEN] = "", why[256];
	snprintf(dir, sizeof(dir), "%s/full", tmp);
	struct cua_writer *w;
	cr_assert_eq(cua_writer_open(dir, "test", &w, NULL, err, sizeof(err)), CUA_OK, "%s", err);
	struct rlimit old, lim;
	cr_assert_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = 1000;   /* this test's own process (Criterion forks one per test) */
	cr_assert_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
	struct cua_eval_where at = {.task = "L1/021-relu", .level = 1};
	int ok = 0;
	enum cua_status st = CUA_OK;
	for (int k = 1; k <= 20 && st == CUA_OK; k++)
		if ((st = cua_writer_eval(w, &at, step_obj(k), err, sizeof(err))) == CUA_OK)
			ok++;
	cr_expect_eq(st, CUA_E_IO, "a line past the limit fails");
	cr_expect(ok >= 1 && ok < 20, "%d lines fitted", ok);
	cr_expect(strstr(err, "evals.jsonl: cannot append a line: File too large") &&
	          strstr(err, "cut back to its last whole line"), "%s", err);
	uint64_t failures = 0;
	cr_expect(cua_writer_failing(w, why, sizeof(why), &failures));
	cr_expect_str_eq(why, "evals.jsonl: File too large");
	cr_expect_eq(failures, 1);
	char *text = file_of(dir, "evals.jsonl");
	cr_assert_not_null(text);
	int lines = 0;
	for (char *l = text, *nl; *l; l = nl + 1) {
		nl = strchr(l, '\n');
		cr_assert_not_null(nl, "the file ends in a whole line");
		*nl = '\0';
		cJSON *o = cJSON_Parse(l);
		cr_expect_not_null(o, "line %d is whole", lines + 1);
		cJSON_Delete(o);
		lines++;
	}
	cr_expect_eq(lines, ok, "every line answered OK is there, and no other");
	free(text);
	/* room again: the next line is whole, after the last one */
	cr_assert_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
	cr_expect_eq(cua_writer_eval(w, &at, step_obj(21), err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_not(cua_writer_failing(w, NULL, 0, NULL), "well again");
	cua_writer_close(w);
	struct cua_results_tears torn;
	struct seen s = {0};
	char p[400];
	snprintf(p, sizeof(p), "%s/evals.jsonl", dir);
	cr_expect_eq(cua_results_each_line(p, CUA_RESULTS_SKIP_TORN, see, &s, &torn, err,
	                                   sizeof(err)), CUA_OK, "%s", err);
	cr_expect(s.n == ok + 1 && torn.n == 0, "%d lines, %d torn", s.n, torn.n);
}

/* One writer per folder: a second one (run, serve or merge, here or in another
 * process) is refused naming the first's pid; the lock goes with the writer. */
Test(writer, a_second_writer_of_a_folder_is_refused_naming_the_first)
{
	char dir[256], err[CUA_ERR_LEN] = "", holder[512] = "", want[128];
	snprintf(dir, sizeof(dir), "%s/one", tmp);
	struct cua_writer *a, *b = (struct cua_writer *)1;
	cr_expect_not(cua_writer_held(dir, NULL, 0), "nobody holds a new folder");
	cr_assert_eq(cua_writer_open(dir, "serve", &a, NULL, err, sizeof(err)), CUA_OK, "%s", err);
	snprintf(want, sizeof(want), "pid %ld serve on ", (long)getpid());
	cr_expect_eq(cua_writer_open(dir, "run", &b, NULL, err, sizeof(err)), CUA_E_USAGE);
	cr_expect_null(b, "the out-parameter is cleared on failure");
	cr_expect(strstr(err, "is being written by another cuarena") && strstr(err, want),
	          "%s", err);
	cr_expect_eq(cua_writer_lock(dir, "merge", &b, err, sizeof(err)), CUA_E_USAGE);
	cr_expect(cua_writer_held(dir, holder, sizeof(holder)));
	cr_expect(!strncmp(holder, want, strlen(want)), "%s", holder);
	/* another process is refused too */
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		struct cua_writer *c;
		_exit(cua_writer_open(dir, "run", &c, NULL, err, sizeof(err)) == CUA_E_USAGE ? 0 : 1);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "a child process was let in");
	cua_writer_close(a);
	cr_expect_not(cua_writer_held(dir, NULL, 0), "the lock went with the writer");
	cr_assert_eq(cua_writer_open(dir, "run", &b, NULL, err, sizeof(err)), CUA_OK, "%s", err);
	cua_writer_close(b);
}

/* run.json is composed here only: a new run's fields, its tasks, segments and
 * summary, read back by the one reader; a run.json from before segments gets
 * its summary as the first segment, and the sums say so. */
Test(writer, run_json_is_composed_by_the_writer_and_read_back_by_the_reader)
{
	char dir[256], err[CUA_ERR_LEN] = "";
	snprintf(dir, sizeof(dir), "%s/meta", tmp);
	struct cua_writer *w;
	cr_assert_eq(cua_writer_open(dir, "test", &w, NULL, err, sizeof(err)), CUA_OK, "%s", err);
	const uint64_t seeds[3] = {1, 2, 3};
	const char *tasks[] = {"L1/021-relu"};
	struct cua_run_meta m = {.run_id = "meta", .created = "2026-12-01T00:00:00Z",
	                         .catalogue_hash = "abc", .agent = "replay", .agent_version = "1",
	                         .turns = 4, .reward = "cuda-agent", .max_time_s = 3,
	                         .public_seeds = seeds, .tasks = tasks, .n_tasks = 1};
	cua_writer_run_new(w, &m);
	cr_expect_not(cua_writer_run_task(w, "L1/021-relu"), "listed already");
	cr_expect(cua_writer_run_task(w, "L1/020-vector-add"));
	struct cua_run_segment g = {.started = "2026-12-01T00:00:00Z", .gpus = 1, .wall_s = 5,
	                            .evaluations = 2, .gpu_busy_s = 4, .candidate_gpu_s = 1};
	cua_writer_run_segment(w, &g);
	g.wall_s = 7;
	cua_writer_run_segment(w, &g);   /* brought up to date, not appended */
	cr_assert_eq(cua_writer_run_save(w, err, sizeof(err)), CUA_OK, "%s", err);
	cua_writer_close(w);
	cJSON *j;
	cr_assert_eq(cua_results_read_run_json(dir, &j, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(j, "tasks")), 2);
	cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(j, "segments")), 1);
	struct cua_prior_segments sum;
	cr_assert_eq(cua_prior_segments(j, dir, &sum, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect(sum.n == 1 && sum.wall_s == 7 && sum.gpu_busy_s == 4 && sum.cand_known);
	cJSON_Delete(j);

	/* a run.json from before segments: its summary is the first one */
	char *text = file_of(dir, "run.json");
	cJSON *old = cJSON_Parse(text);
	free(text);
	cJSON_DeleteItemFromObject(old, "segments");
	cJSON *su = cJSON_AddObjectToObject(old, "summary");
	cJSON_AddNumberToObject(su, "wall_s", 10);
	cJSON_AddNumberToObject(su, "gpu_busy_s", 6);
	cJSON_AddNumberToObject(su, "gpus", 2);
	text = cJSON_Print(old);
	cJSON_Delete(old);
	char p[400];
	snprintf(p, sizeof(p), "%s/run.json", dir);
	cr_assert_eq(cua_write_file(p, text, strlen(text), err, sizeof(err)), CUA_OK);
	free(text);
	cr_assert_eq(cua_writer_open(dir, "test", &w, NULL, err, sizeof(err)), CUA_OK, "%s", err);
	cr_assert_eq(cua_writer_run_continue(w, "2026-12-02T00:00:00Z", err, sizeof(err)), CUA_OK,
	             "%s", err);
	cr_assert_eq(cua_prior_segments(cua_writer_run(w), dir, &sum, err, sizeof(err)), CUA_OK);
	cr_expect(sum.n == 1 && sum.wall_s == 10 && sum.gpu_s == 20 && !sum.cand_known);
	cua_writer_run_segment(w, &g);
	cr_assert_eq(cua_writer_run_save(w, err, sizeof(err)), CUA_OK, "%s", err);
	cua_writer_close(w);
	cr_assert_eq(cua_results_read_run_json(dir, &j, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(j, "segments")), 2);
	cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(j, "resumed")), 1);
	cJSON_Delete(j);
}

/* A number under run.json's obj.key.sub ("" sub: obj.key); NAN when absent. */
static double num_at(const cJSON *obj, const char *key, const char *sub)
{
	const cJSON *o = cJSON_GetObjectItem(obj, key);
	if (sub[0])
		o = cJSON_GetObjectItem(o, sub);
	return cJSON_IsNumber(o) ? o->valuedouble : NAN;
}

static cJSON *read_run(const char *dir)
{
	char err[CUA_ERR_LEN] = "";
	cJSON *j;
	cr_assert_eq(cua_results_read_run_json(dir, &j, err, sizeof(err)), CUA_OK, "%s", err);
	return j;
}

/* The store of a run's segments as its summary has it. */
static const cJSON *summary_store(const cJSON *run)
{
	return cJSON_GetObjectItem(cJSON_GetObjectItem(run, "summary"), "baseline_store");
}

/* Each invocation's segment says how it used the baseline store (on or off,
 * --fresh-baselines, measured, reused, stored, the drift checks); the summary
 * sums them; a run.json from before the field reads, resumes and merges, its
 * segments counting for nothing. */
Test(writer, the_baseline_store_is_recorded_per_segment_and_summed_in_the_summary)
{
	char dir[256], old_dir[256], mdir[256], err[CUA_ERR_LEN] = "";
	snprintf(dir, sizeof(dir), "%s/store", tmp);
	snprintf(old_dir, sizeof(old_dir), "%s/old", tmp);
	snprintf(mdir, sizeof(mdir), "%s/merged", tmp);
	const uint64_t seeds[3] = {1, 2, 3};
	const char *tasks[] = {"L1/021-relu"};
	struct cua_run_meta m = {.run_id = "store", .created = "2026-12-02T00:00:00Z",
	                         .catalogue_hash = "abc", .agent = "replay", .agent_version = "1",
	                         .turns = 1, .reward = "cuda-agent", .max_time_s = 3,
	                         .public_seeds = seeds, .tasks = tasks, .n_tasks = 1};
	struct cua_run_store first = {.on = true, .measured = 2, .stored = 2};
	struct cua_run_segment g = {.started = "2026-12-02T00:00:00Z", .gpus = 1, .wall_s = 5,
	                            .gpu_busy_s = 4, .store = &first};
	struct cua_run_totals t = {.segments = 1, .gpus = 1, .candidate_gpu_s = -1,
	                           .elapsed_s = -1};
	struct cua_writer *w;
	cr_assert_eq(cua_writer_open(dir, "test", &w, NULL, err, sizeof(err)), CUA_OK, "%s", err);
	cua_writer_run_new(w, &m);
	cua_writer_run_segment(w, &g);
	cr_assert_eq(cua_writer_run_save(w, err, sizeof(err)), CUA_OK, "%s", err);
	cua_writer_close(w);
	cJSON *j = read_run(dir);
	const cJSON *seg = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "segments"), 0);
	const cJSON *bs = cJSON_GetObjectItem(seg, "baseline_store");
	cr_assert_not_null(bs, "the segment records the store");
	cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(bs, "on")));
	cr_expect(cJSON_IsFalse(cJSON_GetObjectItem(bs, "fresh_baselines")));
	cr_expect_eq(num_at(bs, "measured", ""), 2);
	cr_expect_eq(num_at(bs, "reused", ""), 0);
	cr_expect_eq(num_at(bs, "stored", ""), 2);
	cr_expect_eq(num_at(bs, "drift_checks", "passed"), 0);
	cr_expect_eq(num_at(bs, "drift_checks", "drifted"), 0);
	cr_expect_null(cJSON_GetObjectItem(bs, "dir"), "the store's path is not recorded");
	cJSON_Delete(j);

	/* resumed with --fresh-baselines; then one that reused after a drift check */
	struct cua_run_store again = {.on = true, .fresh = true, .measured = 1, .reused = 3,
	                              .stored = 1, .drift_passed = 1};
	cr_assert_eq(cua_writer_open(dir, "test", &w, NULL, err, sizeof(err)), CUA_OK, "%s", err);
	cr_assert_eq(cua_writer_run_continue(w, "2026-12-02T01:00:00Z", err, sizeof(err)), CUA_OK,
	             "%s", err);
	g.store = &again;
	cua_writer_run_segment(w, &g);
	t.segments = 2;
	cua_writer_run_summary(w, &t);
	cr_assert_eq(cua_writer_run_save(w, err, sizeof(err)), CUA_OK, "%s", err);
	cua_writer_close(w);
	j = read_run(dir);
	bs = summary_store(j);
	cr_assert_not_null(bs, "the summary sums the segments' stores");
	cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(bs, "on")));
	cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(bs, "fresh_baselines")), "one segment had it");
	cr_expect_eq(num_at(bs, "measured", ""), 3);
	cr_expect_eq(num_at(bs, "reused", ""), 3);
	cr_expect_eq(num_at(bs, "stored", ""), 3);
	cr_expect_eq(num_at(bs, "drift_checks", "passed"), 1);
	seg = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "segments"), 0);
	cr_expect_eq(num_at(cJSON_GetObjectItem(seg, "baseline_store"), "measured", ""), 2,
	             "the first segment is left as it was");

	/* a run.json from before the field: it reads, resumes, and a segment of a
	 * store that was off says so alone */
	for (int i = 0; i < 2; i++)
		cJSON_DeleteItemFromObject(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "segments"), i),
		                           "baseline_store");
	cJSON_DeleteItemFromObject(cJSON_GetObjectItem(j, "summary"), "baseline_store");
	char *text = cJSON_Print(j);
	cJSON_Delete(j);
	char p[400];
	cr_assert_eq(cua_mkdirs(old_dir, err, sizeof(err)), CUA_OK, "%s", err);
	snprintf(p, sizeof(p), "%s/run.json", old_dir);
	cr_assert_eq(cua_write_file(p, text, strlen(text), err, sizeof(err)), CUA_OK);
	free(text);
	struct cua_results *run = NULL;
	cr_assert_eq(cua_results_load(old_dir, &run, err, sizeof(err)), CUA_OK, "%s", err);
	cua_results_free(run);
	cr_assert_eq(cua_writer_open(old_dir, "test", &w, NULL, err, sizeof(err)), CUA_OK, "%s",
	             err);
	cr_assert_eq(cua_writer_run_continue(w, "2026-12-02T02:00:00Z", err, sizeof(err)), CUA_OK,
	             "%s", err);
	struct cua_prior_segments sum;
	cr_assert_eq(cua_prior_segments(cua_writer_run(w), old_dir, &sum, err, sizeof(err)),
	             CUA_OK, "%s", err);
	cr_expect_eq(sum.n, 2);
	cua_writer_run_summary(w, &t);
	cr_expect_null(summary_store(cua_writer_run(w)), "no segment recorded a store");
	struct cua_run_store off = {.on = false, .measured = 9};
	g.store = &off;
	cua_writer_run_segment(w, &g);
	t.segments = 3;
	cua_writer_run_summary(w, &t);
	bs = summary_store(cua_writer_run(w));
	cr_assert_not_null(bs);
	cr_expect(cJSON_IsFalse(cJSON_GetObjectItem(bs, "on")));
	cr_expect_null(cJSON_GetObjectItem(bs, "measured"), "off: nothing counted");
	cr_assert_eq(cua_writer_run_save(w, err, sizeof(err)), CUA_OK, "%s", err);
	cua_writer_close(w);

	/* a merge sums every shard's segments, the old shard's counting for nothing */
	cJSON *a = read_run(dir), *b = read_run(old_dir);
	struct cua_merge_part parts[2] = {{.run = a, .shard = 0, .n_tasks = 1},
	                                  {.run = b, .shard = 1, .n_tasks = 1}};
	cJSON *all = cJSON_CreateStringArray(tasks, 1);
	cr_assert_eq(cua_writer_open(mdir, "merge", &w, NULL, err, sizeof(err)), CUA_OK, "%s",
	             err);
	cua_writer_run_merged(w, parts, 2, "merged", all);
	bs = summary_store(cua_writer_run(w));
	cr_assert_not_null(bs);
	cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(bs, "on")));
	cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(bs, "fresh_baselines")));
	cr_expect_eq(num_at(bs, "measured", ""), 3);
	cr_expect_eq(num_at(bs, "reused", ""), 3);
	cr_expect_eq(num_at(bs, "drift_checks", "passed"), 1);
	const cJSON *segs = cJSON_GetObjectItem(cua_writer_run(w), "segments");
	cr_expect_eq(cJSON_GetArraySize(segs), 5);
	cr_expect_eq(num_at(cJSON_GetObjectItem(cJSON_GetArrayItem(segs, 1), "baseline_store"),
	                    "reused", ""), 3, "each segment keeps its own");
	cua_writer_close(w);
	cJSON_Delete(all);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

/* ---- what a folder holds (results/prior.c) ---------------------------------------- */

/* run.json's settings as the writers that go on with a folder read them: decoded,
 * not judged (an entry of tasks that is not a string is NULL, a shard without its
 * index is there but not valid), and a document without them reads as empty. */
Test(writer, run_json_settings_decode_as_data)
{
	cJSON *j = cJSON_Parse("{\"schema\":2,\"agent\":{\"name\":\"replay\",\"version\":\"1\","
	                       "\"config\":{\"k\":[1]}},\"turns\":5,\"reward\":\"best\","
	                       "\"tasks\":[\"L1/a\",7,\"\"],\"device\":{\"name\":\"NVIDIA H200\"},"
	                       "\"max_time_s\":2.5,\"shard\":{\"index\":1,\"count\":3,"
	                       "\"selected\":[\"L1/a\"]},\"merged\":{}}");
	struct cua_prior_run m;
	cr_assert(j);
	cua_prior_run_decode(j, &m);
	cr_expect_str_eq(m.agent, "replay");
	cr_expect_str_eq(m.agent_version, "1");
	cr_expect(cJSON_IsObject(m.agent_config));
	cr_expect_eq(m.turns, 5);
	cr_expect_str_eq(m.reward, "best");
	cr_assert_eq(m.n_tasks, 3);
	cr_expect_str_eq(m.tasks[0], "L1/a");
	cr_expect_null(m.tasks[1]);
	cr_expect_str_eq(m.tasks[2], "");
	cr_expect(m.device.known);
	cr_expect_str_eq(m.device.name, "NVIDIA H200");
	cr_expect_eq(m.max_time_s, 2.5);
	cr_expect(m.shard && m.shard_valid);
	cr_expect_eq(m.shard_index, 1);
	cr_expect_eq(m.shard_count, 3);
	cr_expect(cJSON_IsArray(m.shard_selected));
	cr_expect(m.merged);
	cua_prior_run_clear(&m);
	cJSON_Delete(j);

	j = cJSON_Parse("{\"turns\":\"5\",\"tasks\":{},\"max_time_s\":-1,"
	                "\"shard\":{\"count\":3,\"selected\":[]}}");
	cr_assert(j);
	cua_prior_run_decode(j, &m);
	cr_expect_null(m.agent);
	cr_expect(isnan(m.turns));
	cr_expect_eq(m.n_tasks, -1);
	cr_expect_not(m.device.known);
	cr_expect_eq(m.max_time_s, 0);
	cr_expect(m.shard && !m.shard_valid);
	cr_expect_eq(m.shard_index, -1);
	cr_expect_null(m.shard_selected);
	cr_expect_not(m.merged);
	cua_prior_run_clear(&m);
	cJSON_Delete(j);

	cua_prior_run_decode(NULL, &m);
	cr_expect_eq(m.n_tasks, -1);
	cr_expect_not(m.shard);
	cua_prior_run_clear(&m);
}


/* What run --resume, a restarted serve and merge read of a folder, once: each
 * task's ends and candidates (a turn written twice counts once, a reply
 * without code is no candidate), each device's current baselines (a subject met
 * again begins a new set), server-side episodes and their ends, and lines of
 * tasks not asked for named. */
/* A resume of the H200 replay sample refused its own folder: KernelBench's longest
 * Level 1 ids (88 characters) did not fit the 64 bytes the reader kept for a task. */
Test(writer, a_folder_with_the_longest_task_ids_is_read)
{
	char dir[256], p[400], err[CUA_ERR_LEN] = "";
	const char *id = "L1/075-conv-transposed-2d-asymmetric-input-asymmetric-kernel-strided-"
	                 "grouped-padded-dilated";
	snprintf(dir, sizeof(dir), "%s/long-ids", tmp);
	mkdir(dir, 0700);
	char base[512];
	snprintf(base, sizeof(base),
	         "{\"schema\":2,\"task\":\"%s\",\"eval\":{\"subject\":\"nvcc\",\"verdict\":\"ok\"}}\n",
	         id);
	snprintf(p, sizeof(p), "%s/baselines.jsonl", dir);
	cr_assert_eq(cua_write_file(p, base, strlen(base), err, sizeof(err)), CUA_OK, "%s", err);
	const char *want_tasks[] = {id};
	struct cua_prior_want want = {.tasks = want_tasks, .n_tasks = 1, .evals = true};
	struct cua_prior *held = NULL;
	cr_assert_eq(cua_prior_load(dir, &want, &held, err, sizeof(err)), CUA_OK, "%s", err);
	struct cua_prior_base *b = cua_prior_base(held, id, NULL);
	cr_expect(b && b->rep.n_base == 1, "the baselines of %s", id);
	cua_prior_free(held);
}

Test(writer, a_folder_is_read_once_as_data)
{
	char dir[256], err[CUA_ERR_LEN] = "";
	snprintf(dir, sizeof(dir), "%s/held", tmp);
	static const char evals[] =
		"{\"schema\":2,\"task\":\"A\",\"turn\":1,\"reward\":1,\"eval\":{\"subject\":\"candidate\","
		"\"verdict\":\"ok\"}}\n"
		"{\"schema\":2,\"task\":\"A\",\"turn\":1,\"reward\":1,\"eval\":{\"subject\":\"candidate\","
		"\"verdict\":\"ok\"}}\n"
		"{\"schema\":2,\"task\":\"A\",\"turn\":2,\"reward\":-1,\"eval\":{\"subject\":\"candidate\","
		"\"verdict\":\"no_code\"}}\n"
		"{\"schema\":2,\"task\":\"B\",\"turn\":1,\"reward\":-1,\"request\":\"step\",\"episode\":"
		"\"ep-1\",\"eval\":{\"subject\":\"candidate\",\"verdict\":\"compile_error\"}}\n"
		"{\"schema\":2,\"task\":\"C\",\"turn\":1,\"reward\":-1,\"eval\":{\"subject\":\"candidate\","
		"\"verdict\":\"compile_error\"}}\n";
	static const char traj[] =
		"{\"schema\":2,\"kind\":\"episode\",\"task\":\"B\",\"episode\":\"ep-1\",\"turns\":3,"
		"\"reward\":\"kevin\"}\n"
		"{\"schema\":2,\"kind\":\"episode\",\"task\":\"B\",\"episode\":\"ep-2\",\"turns\":3,"
		"\"reward\":\"kevin\"}\n"
		"{\"schema\":2,\"kind\":\"end\",\"task\":\"B\",\"episode\":\"ep-2\",\"reason\":\"closed\"}\n"
		"{\"schema\":2,\"kind\":\"turn\",\"task\":\"A\",\"turn\":1,\"observation\":\"seen\","
		"\"reply\":\"said\"}\n"
		"{\"schema\":2,\"kind\":\"end\",\"task\":\"A\",\"reason\":\"turn limit\",\"best_turn\":1}\n";
	static const char base[] =
		"{\"schema\":2,\"task\":\"A\",\"eval\":{\"subject\":\"nvcc\",\"verdict\":\"ok\"}}\n"
		"{\"schema\":2,\"task\":\"A\",\"eval\":{\"subject\":\"cudnn/relu\",\"verdict\":\"ok\"}}\n"
		"{\"schema\":2,\"task\":\"A\",\"eval\":{\"subject\":\"nvcc\",\"verdict\":\"ok\"}}\n"
		"{\"schema\":2,\"task\":\"A\",\"gpu\":\"1\",\"eval\":{\"subject\":\"nvcc\","
		"\"verdict\":\"ok\"}}\n";
	char p[400];
	snprintf(p, sizeof(p), "%s/evals.jsonl", dir);
	cr_assert_eq(cua_write_file(p, evals, strlen(evals), err, sizeof(err)), CUA_OK, "%s", err);
	snprintf(p, sizeof(p), "%s/trajectories.jsonl", dir);
	cr_assert_eq(cua_write_file(p, traj, strlen(traj), err, sizeof(err)), CUA_OK, "%s", err);
	snprintf(p, sizeof(p), "%s/baselines.jsonl", dir);
	cr_assert_eq(cua_write_file(p, base, strlen(base), err, sizeof(err)), CUA_OK, "%s", err);
	const char *want_tasks[] = {"A", "B"};
	struct cua_prior_want want = {.tasks = want_tasks, .n_tasks = 2, .evals = true,
	                              .texts = true};
	struct cua_prior *held;
	cr_assert_eq(cua_prior_load(dir, &want, &held, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_null(held->run, "no run.json");
	cr_expect_eq(held->eval_lines, 4, "C's line is not read");
	cr_expect_eq(held->evaluations, 2, "A turn 1 once, B turn 1; no_code is no candidate");
	cr_expect(held->foreign_line == 5 && !strcmp(held->foreign_task, "C"),
	          "line %d %s", held->foreign_line, held->foreign_task);
	struct cua_prior_task *a = cua_prior_task(held, "A");
	cr_assert_not_null(a);
	cr_expect(a->ended && a->best_turn == 1 && a->n_evals == 3 && a->have_turn[1]);
	cr_expect_str_eq(a->shown[1], "seen");
	cr_expect_str_eq(a->reply[1], "said");
	struct cua_prior_base *b0 = cua_prior_base(held, "A", NULL);
	cr_assert_not_null(b0);
	cr_expect_eq(b0->rep.n_base, 1, "nvcc again began a new set");
	cr_expect_eq(b0->line, 1);
	struct cua_prior_base *b1 = cua_prior_base(held, "A", "1");
	cr_expect(b1 && b1->line == 4 && b1->rep.n_base == 1);
	cr_expect(held->n_episodes == 2 && held->episodes_open == 1 && !held->episodes[0].ended &&
	          held->episodes[1].ended);
	struct cua_buf said = {0};
	long cut[CUA_RESULTS_N_FILES] = {37, 0, 0};
	cua_prior_say(held, cut, &said);
	cr_expect(strstr(said.s, "4 evaluation lines (3 of candidates), 1 episode open and 1 "
	                         "closed; cut the torn last line of evals.jsonl (37 bytes)"),
	          "%s", said.s);
	free(said.s);
	cua_prior_free(held);

	/* a line of the tasks read that cannot be one stops it, naming file and line */
	static const char bad[] = "{\"schema\":2,\"kind\":\"turn\",\"task\":\"A\",\"turn\":99}\n";
	snprintf(p, sizeof(p), "%s/trajectories.jsonl", dir);
	cr_assert_eq(cua_write_file(p, bad, strlen(bad), err, sizeof(err)), CUA_OK, "%s", err);
	held = (struct cua_prior *)1;
	cr_expect_eq(cua_prior_load(dir, &want, &held, err, sizeof(err)), CUA_E_PARSE);
	cr_expect_null(held);
	cr_expect(strstr(err, "trajectories.jsonl: line 1: turn: expected an integer 1 to 64"),
	          "%s", err);
}
