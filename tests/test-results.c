/* test-results.c — the run-folder loader (harness/results/results.c): fields, scored
 * evaluations, code read back, rejections naming file and line, the torn last
 * line, and the escapers. Fixtures: tests/data/results/ (make-fixtures.py). */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "results/results.h"
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
	{"bad-json", CUA_E_PARSE, "evals.jsonl", "line 3: not valid JSON"},
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
	snprintf(want, sizeof(want), "%s/evals.jsonl: line 4: torn last line skipped",
	         fixture("torn"));
	cr_assert_not_null(run->warnings);
	cr_expect(strstr(run->warnings, want) != NULL, "%s", run->warnings);
	cr_expect(strstr(run->warnings, "trajectories.jsonl: line 4: torn") != NULL, "%s",
	          run->warnings);
	cua_results_free(run);
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
	int torn = -1;
	cr_assert_eq(cua_results_each_line(path, CUA_RESULTS_SKIP_TORN, see, &s, &torn, err,
	                                   sizeof(err)), CUA_OK, "%s", err);
	cr_expect_eq(s.n, 2);
	cr_expect(s.lines[0] == 1 && s.lines[1] == 4, "lines %d %d", s.lines[0], s.lines[1]);
	cr_expect_eq(s.offsets[1], (long)strlen(L1 "\n  \n"), "where line 4 starts");
	cr_expect_eq(torn, 5);
	char *text = read_tmp(path);
	cr_expect(strstr(text, "\"ta") != NULL, "a reader changes nothing");
	free(text);

	s = (struct seen){0};
	cr_assert_eq(cua_results_each_line(path, CUA_RESULTS_CUT_TORN, see, &s, &torn, err,
	                                   sizeof(err)), CUA_OK, "%s", err);
	cr_expect_eq(s.n, 2);
	cr_expect_eq(torn, 5, "the cut line is named");
	text = read_tmp(path);
	cr_expect_str_eq(text, L1 "\n  \n" L2);
	free(text);
	cr_assert_eq(cua_results_each_line(path, CUA_RESULTS_CUT_TORN, see, &s, &torn, err,
	                                   sizeof(err)), CUA_OK, "%s", err);
	cr_expect_eq(torn, 0, "nothing left to cut");
	unlink(path);

	/* a missing file is empty */
	s = (struct seen){0};
	cr_expect_eq(cua_results_each_line(path, CUA_RESULTS_CUT_TORN, see, &s, &torn, err,
	                                   sizeof(err)), CUA_OK, "%s", err);
	cr_expect(s.n == 0 && torn == 0);
}

/* What a kill cannot leave stops the walk, naming the file and line: a bad line
 * with a line after it; for a writer, a bad last line that ended in a newline
 * (its bytes were all written: not torn); a line without a schema this cuarena
 * reads; and whatever the caller refuses. */
Test(results, a_bad_line_stops_the_walk_naming_file_and_line)
{
	static const struct {
		const char *text;
		enum cua_results_tail tail;
		int stop_at;
		const char *want;
	} cases[] = {
		{L1 "{\"schema\n" L2, CUA_RESULTS_SKIP_TORN, 0, "line 2: not valid JSON"},
		{L1 "{\"schema\n" L2, CUA_RESULTS_CUT_TORN, 0, "line 2: not valid JSON"},
		{L1 "{\"schema\n", CUA_RESULTS_CUT_TORN, 0, "line 2: not valid JSON"},
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

/* The one append rule (run and serve write through it) and the torn-tail cut
 * that --resume and a restarted server apply before appending again. */
Test(results, an_appended_record_is_one_line_with_its_schema_and_a_torn_tail_is_cut)
{
	char path[] = "/tmp/cuarena-test-append-XXXXXX";
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	cJSON *a = cJSON_CreateObject();
	cJSON_AddStringToObject(a, "task", "L1/021-relu");
	cr_assert_eq(cua_results_append(fd, a), 0);
	cr_assert_eq(write(fd, "{\"task\":\"L1/0", 13), 13);   /* a writer killed mid-line */
	close(fd);
	cr_expect_eq(cua_results_drop_torn_tail(path), 13, "the torn 13 bytes are cut");
	cr_expect_eq(cua_results_drop_torn_tail(path), 0, "a whole file is left as it is");
	fd = open(path, O_WRONLY | O_APPEND);
	cr_assert(fd >= 0);
	cJSON *b = cJSON_CreateObject();
	cJSON_AddNumberToObject(b, "turn", 2);
	cr_assert_eq(cua_results_append(fd, b), 0);
	close(fd);
	char *buf = NULL;
	size_t len = 0;
	cr_assert_eq(cua_read_file(path, 1 << 20, &buf, &len, NULL, 0), CUA_OK);
	/* the schema this cuarena writes, never a literal (writers wrote 1 after
	 * the judge's clock made it 2) */
	char want[128];
	snprintf(want, sizeof(want), "{\"task\":\"L1/021-relu\",\"schema\":%d}\n"
	         "{\"turn\":2,\"schema\":%d}\n", CUA_RESULTS_SCHEMA, CUA_RESULTS_SCHEMA);
	cr_expect_str_eq(buf, want);
	free(buf);
	unlink(path);
	cr_expect_eq(cua_results_drop_torn_tail(path), 0, "a missing file: nothing happens");
	cr_expect_neq(access(path, F_OK), 0);
}
