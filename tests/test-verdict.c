/* test-verdict.c — verdict names, the evaluation record's JSON round trip and
 * cua_trim_text (harness/judge/verdict.c). */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "judge/verdict.h"

/* ---- verdict names ---------------------------------------------------------- */

Test(verdict, every_name_parses_back_to_its_verdict)
{
	for (int v = 0; v < CUA_VERDICT_COUNT; v++) {
		const char *name = cua_verdict_name((enum cua_verdict)v);
		enum cua_verdict back = CUA_VERDICT_COUNT;
		cr_assert_not_null(name);
		cr_expect_str_neq(name, "unknown", "verdict %d has no name", v);
		cr_expect_gt(strlen(name), 0);
		cr_expect_eq(strspn(name, "abcdefghijklmnopqrstuvwxyz_"), strlen(name),
		             "'%s' is not lower_snake_case (it is the JSON form)", name);
		cr_assert(cua_verdict_parse(name, &back), "'%s' does not parse", name);
		cr_expect_eq(back, v, "'%s' parses to %d, not %d", name, back, v);
	}
}

Test(verdict, names_are_unique)
{
	for (int a = 0; a < CUA_VERDICT_COUNT; a++)
		for (int b = a + 1; b < CUA_VERDICT_COUNT; b++)
			cr_expect_str_neq(cua_verdict_name((enum cua_verdict)a),
			                  cua_verdict_name((enum cua_verdict)b),
			                  "verdicts %d and %d share a name", a, b);
}

Test(verdict, names_are_the_documented_json_strings)
{
	/* Saved results hold these strings: renaming one breaks every reader. */
	cr_expect_str_eq(cua_verdict_name(CUA_VERDICT_OK), "ok");
	cr_expect_str_eq(cua_verdict_name(CUA_VERDICT_COMPILE_ERROR), "compile_error");
	cr_expect_str_eq(cua_verdict_name(CUA_VERDICT_WRONG_OUTPUT), "wrong_output");
	cr_expect_str_eq(cua_verdict_name(CUA_VERDICT_OUT_OF_BOUNDS), "out_of_bounds");
	cr_expect_str_eq(cua_verdict_name(CUA_VERDICT_HARNESS_ERROR), "harness_error");
}

Test(verdict, an_unknown_name_does_not_parse_and_leaves_the_output_alone)
{
	static const char *const bad[] = {"xyz", "", "OK", "wrong-output", "ok ",
	                                  "unknown", "wrong_output_"};
	for (size_t i = 0; i < CUA_ARRAY_LEN(bad); i++) {
		enum cua_verdict v = CUA_VERDICT_CRASH;
		cr_expect(!cua_verdict_parse(bad[i], &v), "'%s' parsed", bad[i]);
		cr_expect_eq(v, CUA_VERDICT_CRASH, "'%s' changed the output", bad[i]);
	}
	enum cua_verdict v = CUA_VERDICT_CRASH;
	cr_expect(!cua_verdict_parse(NULL, &v), "NULL parsed");
}

Test(verdict, an_out_of_range_value_is_named_unknown)
{
	cr_expect_str_eq(cua_verdict_name(CUA_VERDICT_COUNT), "unknown");
	cr_expect_str_eq(cua_verdict_name((enum cua_verdict)-1), "unknown");
	cr_expect_str_eq(cua_verdict_name((enum cua_verdict)1000), "unknown");
}

Test(verdict, fail_sets_the_verdict_and_formats_the_message)
{
	struct cua_eval e;
	cua_eval_init(&e, "candidate");
	cr_expect_eq(e.verdict, CUA_VERDICT_OK);
	cr_expect_str_eq(e.subject, "candidate");
	cr_expect_str_empty(e.message);
	cua_eval_fail(&e, CUA_VERDICT_TIMEOUT, "ran %d s past the limit of %.1f s", 3, 2.5);
	cr_expect_eq(e.verdict, CUA_VERDICT_TIMEOUT);
	cr_expect_str_eq(e.message, "ran 3 s past the limit of 2.5 s");
	cua_eval_clear(&e);
	cua_eval_clear(NULL);
}

/* ---- JSON round trip -------------------------------------------------------- */

static void fill_stats(struct cua_stats *s, double base)
{
	s->n = 37;
	s->min = base * 0.9;
	s->max = base * 1.7;
	s->mean = base * 1.05;
	s->stdev = base * 0.0123;
	s->median = base;
	s->q1 = base * 0.98;
	s->q3 = base * 1.03;
	s->iqr = s->q3 - s->q1;
	s->rel_sem = 0.0021;
}

/* Every field set to a value distinct from its default. */
static void fill_eval(struct cua_eval *e)
{
	cua_eval_init(e, "cublas/sgemm");
	cua_eval_fail(e, CUA_VERDICT_WRONG_OUTPUT,
	              "output 'y' differs at [3, 17]: got 1.5, want 2 (\"quoted\", tab\there)");
	e->cache_hit = true;
	e->compile_s = 1.625;
	snprintf(e->so_sha, sizeof(e->so_sha), "%s",
	         "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
	e->compile_log = strdup("kernel.cu(3): warning #177-D: variable \"x\" was declared "
	                        "but never referenced\nline two\n");

	e->n_violations = 2;
	snprintf(e->violations[0].symbol, sizeof(e->violations[0].symbol), "dlopen");
	snprintf(e->violations[0].reason, sizeof(e->violations[0].reason),
	         "dynamic loading is forbidden");
	snprintf(e->violations[1].symbol, sizeof(e->violations[1].symbol), "cudaEventRecord");
	snprintf(e->violations[1].reason, sizeof(e->violations[1].reason),
	         "defining a timing symbol is forbidden");

	e->n_cases = 4;
	struct cua_case *k = &e->cases[0];           /* a passing public case */
	snprintf(k->shape, sizeof(k->shape), "odd");
	k->seed = 2;
	k->ok = true;
	k->n_elems = 37 * 1001;
	k->max_abs = 1.5e-7;
	k->max_rel = 3.25e-7;
	k->first_bad = -1;

	k = &e->cases[1];                            /* a passing secret-seed case */
	snprintf(k->shape, sizeof(k->shape), "timed");
	k->secret = true;
	k->seed = 0;
	k->ok = true;
	k->n_elems = 4096ull * 196608ull;
	k->max_abs = 0;
	k->max_rel = 0;
	k->first_bad = -1;

	k = &e->cases[2];                            /* a failing case */
	snprintf(k->shape, sizeof(k->shape), "tiny");
	snprintf(k->output, sizeof(k->output), "y");
	k->seed = 3;
	k->ok = false;
	k->n_elems = 7;
	k->n_bad = 4;
	k->n_nan = 2;
	k->n_unwritten = 1;
	k->max_abs = 0.5;
	k->max_rel = 0.25;
	k->first_bad = 3 * 1001 + 17;
	snprintf(k->first_bad_at, sizeof(k->first_bad_at), "[3, 17]");
	k->got = 1.5;
	k->want = -2.0000001;

	k = &e->cases[3];                            /* the re-check after timing */
	snprintf(k->shape, sizeof(k->shape), "timed");
	k->seed = 123456789012345ull;                /* < 2^53: exact in a JSON number */
	k->recheck = true;
	k->ok = true;
	k->n_elems = 12;
	k->max_abs = 1e-300;
	k->max_rel = 1e300;
	k->first_bad = -1;

	e->timing.done = true;
	fill_stats(&e->timing.event_ms, 1.234567890123);
	fill_stats(&e->timing.host_ms, 1.3);
	e->timing.overhead_ms = 0.0042;
	e->timing.sm_mhz_before = 1980;
	e->timing.sm_mhz_after = 1965;
	e->timing.input_sets = 4;
	e->timing.flush_bytes = 128.0 * (1 << 20);
	e->sol_ms = 0.75;
	e->pct_sol = 100.0 * 0.75 / 1.234567890123;
	e->check_s = 0.5;
	e->timing_s = 3.25;
	e->run_s = 4.125;
	e->net_isolated = true;
	e->output_tail = strdup("stdout line\nstderr: a warning\n");
}

/* Doubles come back equal to within one rounding: cJSON 1.7 prints 15
 * significant digits whenever they read back within DBL_EPSILON of the value,
 * so the last ulp may change. Anything more is a real loss. */
static bool same_double(double a, double b)
{
	if (a == b)
		return true;
	return fabs(a - b) <= 2 * DBL_EPSILON * fmax(fabs(a), fabs(b));
}
#define expect_same(a, b, what)                                                \
	cr_expect(same_double((a), (b)), "%s %s: %.17g vs %.17g", (what), #a,      \
	          (double)(a), (double)(b))

static void expect_stats_eq(const struct cua_stats *a, const struct cua_stats *b,
                            const char *what)
{
	cr_expect_eq(a->n, b->n, "%s.n", what);
	expect_same(a->min, b->min, what);
	expect_same(a->max, b->max, what);
	expect_same(a->mean, b->mean, what);
	expect_same(a->stdev, b->stdev, what);
	expect_same(a->median, b->median, what);
	expect_same(a->q1, b->q1, what);
	expect_same(a->q3, b->q3, what);
	expect_same(a->iqr, b->iqr, what);
	expect_same(a->rel_sem, b->rel_sem, what);
}

/* Field-by-field equality: strings and integers exact, doubles to one ulp. */
static void expect_eval_eq(const struct cua_eval *a, const struct cua_eval *b)
{
	cr_expect_str_eq(a->subject, b->subject);
	cr_expect_eq(a->verdict, b->verdict);
	cr_expect_str_eq(a->message, b->message);
	cr_expect_eq(a->cache_hit, b->cache_hit);
	expect_same(a->compile_s, b->compile_s, "");
	cr_expect_str_eq(a->so_sha, b->so_sha);
	cr_assert_eq(!a->compile_log, !b->compile_log, "compile_log presence");
	if (a->compile_log)
		cr_expect_str_eq(a->compile_log, b->compile_log);
	cr_assert_eq(a->n_violations, b->n_violations);
	for (int i = 0; i < a->n_violations; i++) {
		cr_expect_str_eq(a->violations[i].symbol, b->violations[i].symbol);
		cr_expect_str_eq(a->violations[i].reason, b->violations[i].reason);
	}
	cr_assert_eq(a->n_cases, b->n_cases);
	for (int i = 0; i < a->n_cases; i++) {
		const struct cua_case *x = &a->cases[i], *y = &b->cases[i];
		char case_name[16];
		snprintf(case_name, sizeof(case_name), "case %d", i);
		cr_expect_str_eq(x->shape, y->shape, "case %d shape", i);
		cr_expect_str_eq(x->output, y->output, "case %d output", i);
		cr_expect_eq(x->seed, y->seed, "case %d seed %llu vs %llu", i,
		             (unsigned long long)x->seed, (unsigned long long)y->seed);
		cr_expect_eq(x->secret, y->secret, "case %d secret", i);
		cr_expect_eq(x->recheck, y->recheck, "case %d recheck", i);
		cr_expect_eq(x->ok, y->ok, "case %d ok", i);
		cr_expect_eq(x->n_elems, y->n_elems, "case %d n_elems", i);
		cr_expect_eq(x->n_bad, y->n_bad, "case %d n_bad", i);
		cr_expect_eq(x->n_nan, y->n_nan, "case %d n_nan", i);
		cr_expect_eq(x->n_unwritten, y->n_unwritten, "case %d n_unwritten", i);
		expect_same(x->max_abs, y->max_abs, case_name);
		expect_same(x->max_rel, y->max_rel, case_name);
		cr_expect_eq(x->first_bad, y->first_bad, "case %d first_bad", i);
		cr_expect_str_eq(x->first_bad_at, y->first_bad_at, "case %d first_bad_at", i);
		expect_same(x->got, y->got, case_name);
		expect_same(x->want, y->want, case_name);
	}
	cr_expect_eq(a->timing.done, b->timing.done);
	expect_stats_eq(&a->timing.event_ms, &b->timing.event_ms, "event_ms");
	expect_stats_eq(&a->timing.host_ms, &b->timing.host_ms, "host_ms");
	expect_same(a->timing.overhead_ms, b->timing.overhead_ms, "");
	expect_same(a->timing.sm_mhz_before, b->timing.sm_mhz_before, "");
	expect_same(a->timing.sm_mhz_after, b->timing.sm_mhz_after, "");
	cr_expect_eq(a->timing.input_sets, b->timing.input_sets);
	expect_same(a->timing.flush_bytes, b->timing.flush_bytes, "");
	expect_same(a->sol_ms, b->sol_ms, "");
	expect_same(a->pct_sol, b->pct_sol, "");
	expect_same(a->check_s, b->check_s, "");
	expect_same(a->timing_s, b->timing_s, "");
	expect_same(a->run_s, b->run_s, "");
	cr_expect_eq(a->net_isolated, b->net_isolated);
	cr_assert_eq(!a->output_tail, !b->output_tail, "output_tail presence");
	if (a->output_tail)
		cr_expect_str_eq(a->output_tail, b->output_tail);
}

/* to_json → text → parse → from_json, as a results file is written and read. */
static void round_trip(const struct cua_eval *in, struct cua_eval *out, char **text)
{
	char err[CUA_ERR_LEN] = "";
	cJSON *j = cua_eval_to_json(in);
	cr_assert_not_null(j);
	char *s = cJSON_Print(j);
	cJSON_Delete(j);
	cr_assert_not_null(s);
	cJSON *back = cJSON_Parse(s);
	cr_assert_not_null(back, "printed JSON does not parse:\n%s", s);
	cr_assert_eq(cua_eval_from_json(back, out, err, sizeof(err)), CUA_OK, "%s", err);
	cJSON_Delete(back);
	if (text)
		*text = s;
	else
		free(s);
}

Test(verdict, a_fully_populated_evaluation_survives_the_json_round_trip)
{
	struct cua_eval in, out;
	fill_eval(&in);
	round_trip(&in, &out, NULL);
	expect_eval_eq(&in, &out);
	cua_eval_clear(&in);
	cua_eval_clear(&out);
}

Test(verdict, a_secret_seed_is_written_as_the_word_secret)
{
	struct cua_eval in;
	fill_eval(&in);
	in.cases[1].seed = 987654321;   /* must not leak even if set */
	cJSON *j = cua_eval_to_json(&in);
	const cJSON *cases = cJSON_GetObjectItemCaseSensitive(j, "cases");
	const cJSON *secret = cJSON_GetArrayItem(cases, 1);
	const cJSON *seed = cJSON_GetObjectItemCaseSensitive(secret, "seed");
	cr_assert(cJSON_IsString(seed));
	cr_expect_str_eq(seed->valuestring, "secret");
	char *s = cJSON_PrintUnformatted(j);
	cr_expect_null(strstr(s, "987654321"), "the secret seed leaked: %s", s);
	const cJSON *pub = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(cases, 0), "seed");
	cr_assert(cJSON_IsNumber(pub));
	cr_expect_eq(pub->valuedouble, 2);
	free(s);
	cJSON_Delete(j);
	cua_eval_clear(&in);
}

Test(verdict, a_passing_case_carries_no_first_bad_fields)
{
	struct cua_eval in;
	fill_eval(&in);
	cJSON *j = cua_eval_to_json(&in);
	const cJSON *cases = cJSON_GetObjectItemCaseSensitive(j, "cases");
	const cJSON *ok = cJSON_GetArrayItem(cases, 0);
	const cJSON *bad = cJSON_GetArrayItem(cases, 2);
	cr_expect_null(cJSON_GetObjectItemCaseSensitive(ok, "first_bad"));
	cr_expect_null(cJSON_GetObjectItemCaseSensitive(ok, "got"));
	cr_expect_str_eq(cJSON_GetObjectItemCaseSensitive(bad, "first_bad_at")->valuestring,
	                 "[3, 17]");
	cr_expect_eq(cJSON_GetObjectItemCaseSensitive(bad, "first_bad")->valuedouble, 3020);
	cJSON_Delete(j);
	cua_eval_clear(&in);
}

Test(verdict, an_untimed_minimal_evaluation_round_trips_without_a_timing_object)
{
	struct cua_eval in, out;
	cua_eval_init(&in, "nvcc");
	cua_eval_fail(&in, CUA_VERDICT_COMPILE_ERROR, "nvcc failed");
	cJSON *j = cua_eval_to_json(&in);
	cr_expect_null(cJSON_GetObjectItemCaseSensitive(j, "timing"));
	cr_expect_null(cJSON_GetObjectItemCaseSensitive(j, "output"));
	cr_expect_null(cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(j, "compile"), "log"));
	cJSON_Delete(j);
	round_trip(&in, &out, NULL);
	expect_eval_eq(&in, &out);
	cr_expect(!out.timing.done);
	cr_expect_null(out.compile_log);
	cr_expect_null(out.output_tail);
	cua_eval_clear(&out);
}

Test(verdict, nan_and_inf_are_written_as_null_and_read_back_as_nan)
{
	struct cua_eval in, out;
	char *text = NULL;
	fill_eval(&in);
	in.cases[2].got = NAN;
	in.cases[2].want = INFINITY;
	in.cases[2].max_abs = INFINITY;
	in.cases[2].max_rel = -INFINITY;
	in.timing.event_ms.stdev = NAN;
	in.sol_ms = NAN;
	in.pct_sol = INFINITY;

	cJSON *j = cua_eval_to_json(&in);
	const cJSON *bad = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "cases"), 2);
	cr_expect(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(bad, "got")));
	cr_expect(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(bad, "want")));
	cr_expect(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(bad, "max_abs")));
	cr_expect(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(bad, "max_rel")));
	cr_expect(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(j, "sol_ms")));
	cr_expect(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(j, "pct_sol")));
	cr_expect(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "timing"),
		                                 "event_ms"),
		"stdev")));
	cJSON_Delete(j);

	round_trip(&in, &out, &text);
	/* round_trip asserted the printed text is valid JSON (no bare nan/inf). */
	cr_expect_not_null(strstr(text, "\"sol_ms\":\tnull"), "%s", text);
	cr_expect(isnan(out.cases[2].got));
	cr_expect(isnan(out.cases[2].want));
	cr_expect(isnan(out.cases[2].max_abs));
	cr_expect(isnan(out.cases[2].max_rel));
	cr_expect(isnan(out.timing.event_ms.stdev));
	cr_expect(isnan(out.sol_ms));
	cr_expect(isnan(out.pct_sol));
	/* The finite neighbours are untouched. */
	cr_expect_eq(out.timing.event_ms.median, in.timing.event_ms.median);
	cr_expect_eq(out.cases[2].n_nan, 2);
	free(text);
	cua_eval_clear(&in);
	cua_eval_clear(&out);
}

/* ---- from_json rejects what it cannot trust --------------------------------- */

/* Parses text and runs from_json; returns its status, err gets the message. */
static enum cua_status from_text(const char *text, char *err, size_t errlen)
{
	struct cua_eval e;
	cJSON *j = cJSON_Parse(text);
	cr_assert_not_null(j, "fixture JSON does not parse: %s", text);
	memset(&e, 0x5a, sizeof(e));
	err[0] = '\0';
	enum cua_status st = cua_eval_from_json(j, &e, err, errlen);
	cJSON_Delete(j);
	if (st != CUA_OK) {
		/* Nothing heap-owned may be left behind on failure. */
		cr_expect_null(e.compile_log);
		cr_expect_null(e.output_tail);
	}
	cua_eval_clear(&e);
	return st;
}

Test(verdict, from_json_rejects_a_non_object)
{
	char err[CUA_ERR_LEN];
	cr_expect_eq(from_text("[1, 2]", err, sizeof(err)), CUA_E_PARSE);
	cr_expect_str_eq(err, "evaluation: expected an object");
	cr_expect_eq(from_text("\"ok\"", err, sizeof(err)), CUA_E_PARSE);
	cr_expect_str_eq(err, "evaluation: expected an object");
	struct cua_eval e;
	cr_expect_eq(cua_eval_from_json(NULL, &e, err, sizeof(err)), CUA_E_PARSE);
}

Test(verdict, from_json_rejects_an_unknown_verdict_naming_it)
{
	char err[CUA_ERR_LEN];
	cr_expect_eq(from_text("{\"subject\": \"candidate\", \"verdict\": \"xyz\"}", err,
	                       sizeof(err)),
	             CUA_E_PARSE);
	cr_expect_str_eq(err, "verdict: unknown verdict 'xyz'");
}

Test(verdict, from_json_rejects_a_missing_or_mistyped_field_naming_it)
{
	char err[CUA_ERR_LEN];
	cr_expect_eq(from_text("{\"verdict\": \"ok\"}", err, sizeof(err)), CUA_E_PARSE);
	cr_expect_str_eq(err, "subject: expected a string");
	cr_expect_eq(from_text("{\"subject\": 7, \"verdict\": \"ok\"}", err, sizeof(err)),
	             CUA_E_PARSE);
	cr_expect_str_eq(err, "subject: expected a string");
	cr_expect_eq(from_text("{\"subject\": \"nvcc\"}", err, sizeof(err)), CUA_E_PARSE);
	cr_expect_str_eq(err, "verdict: expected a string");
	cr_expect_eq(from_text("{\"subject\": \"nvcc\", \"verdict\": \"ok\", "
	                       "\"cases\": [{\"seed\": 1}]}",
	                       err, sizeof(err)),
	             CUA_E_PARSE);
	cr_expect_str_eq(err, "shape: expected a string");
	cr_expect_eq(from_text("{\"subject\": \"nvcc\", \"verdict\": \"ok\", "
	                       "\"timing\": {\"event_ms\": {\"n\": 3}, \"host_ms\": {}}}",
	                       err, sizeof(err)),
	             CUA_E_PARSE);
	cr_expect_str_eq(err, "median: expected a number");
	cr_expect_eq(from_text("{\"subject\": \"x\", \"verdict\": \"ok\", "
	                       "\"violations\": [{\"symbol\": \"dlopen\"}], "
	                       "\"output\": \"tail\", \"compile\": {\"log\": \"l\"}}",
	                       err, sizeof(err)),
	             CUA_E_PARSE);
	cr_expect_str_eq(err, "reason: expected a string");
}

Test(verdict, from_json_accepts_the_smallest_valid_record_with_defaults)
{
	char err[CUA_ERR_LEN] = "";
	struct cua_eval e;
	cJSON *j = cJSON_Parse("{\"subject\": \"cudnn/relu\", \"verdict\": \"timeout\"}");
	cr_assert_eq(cua_eval_from_json(j, &e, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_str_eq(e.subject, "cudnn/relu");
	cr_expect_eq(e.verdict, CUA_VERDICT_TIMEOUT);
	cr_expect_eq(e.n_cases, 0);
	cr_expect_eq(e.n_violations, 0);
	cr_expect(!e.timing.done);
	cr_expect_null(e.compile_log);
	cJSON_Delete(j);
	cua_eval_clear(&e);
}

/* ---- cua_trim_text ------------------------------------------------------------ */

Test(verdict, trim_keeps_short_text_intact)
{
	const char *s = "line one\nline two\n";
	char *t = cua_trim_text(s, strlen(s), 100);
	cr_assert_not_null(t);
	cr_expect_str_eq(t, s);
	free(t);
	t = cua_trim_text(s, strlen(s), strlen(s));   /* exactly at the limit */
	cr_expect_str_eq(t, s);
	free(t);
	t = cua_trim_text("", 0, 10);
	cr_expect_str_eq(t, "");
	free(t);
	cr_expect_null(cua_trim_text(NULL, 5, 10));
}

Test(verdict, trim_takes_len_not_the_nul)
{
	char *t = cua_trim_text("abcdef", 3, 100);
	cr_expect_str_eq(t, "abc");
	free(t);
}

Test(verdict, trim_cuts_long_text_to_head_marker_and_tail)
{
	enum { LEN = 10000, MAX = 1000 };
	char *s = malloc(LEN + 1);
	for (int i = 0; i < LEN; i++)
		s[i] = (char)('a' + (i * 7 + i / 26) % 26);
	s[LEN] = '\0';
	char *t = cua_trim_text(s, LEN, MAX);
	cr_assert_not_null(t);
	const char *marker = "\n[... 9000 bytes cut ...]\n";
	size_t head = MAX / 2, tail = MAX - head;
	cr_assert_eq(strlen(t), head + strlen(marker) + tail, "length %zu", strlen(t));
	cr_expect_eq(memcmp(t, s, head), 0, "the head is the start of the text");
	cr_expect_eq(memcmp(t + head, marker, strlen(marker)), 0,
	             "marker: \"%.*s\"", (int)strlen(marker), t + head);
	cr_expect_eq(memcmp(t + head + strlen(marker), s + LEN - tail, tail), 0,
	             "the tail is the end of the text");
	/* Of the text itself, exactly max bytes are kept. */
	cr_expect_eq(strlen(t) - strlen(marker), (size_t)MAX);
	free(t);
	free(s);
}

Test(verdict, trim_one_byte_over_the_limit_cuts_one_byte)
{
	char s[12] = "0123456789a";
	char *t = cua_trim_text(s, 11, 10);
	cr_expect_str_eq(t, "01234\n[... 1 bytes cut ...]\n6789a");
	free(t);
}

/* Regression (found by fuzz-results): huge, negative or NaN-like numbers in a
 * results file were cast straight to integers, which is undefined behaviour. */
Test(verdict, out_of_range_numbers_are_clamped_not_cast)
{
	const char *txt =
		"{\"subject\":\"candidate\",\"verdict\":\"wrong_output\",\"cases\":[{\"shape\":\"s\","
		"\"seed\":1e300,\"ok\":false,\"n\":-5,\"bad\":1e30,\"nan\":3,\"unwritten\":-1e300,"
		"\"first_bad\":-1e300}],\"timing\":{\"event_ms\":{\"n\":1e12,\"median\":1},"
		"\"host_ms\":{\"n\":-1e12,\"median\":1},\"input_sets\":1e99}}";
	cJSON *j = cJSON_Parse(txt);
	struct cua_eval e;
	char err[CUA_ERR_LEN] = "";
	cr_assert_eq(cua_eval_from_json(j, &e, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_eq(e.cases[0].seed, UINT64_MAX);
	cr_expect_eq(e.cases[0].n_elems, 0u);
	cr_expect_eq(e.cases[0].n_bad, UINT64_MAX);
	cr_expect_eq(e.cases[0].n_unwritten, 0u);
	cr_expect_eq(e.cases[0].first_bad, INT64_MIN);
	cr_expect_eq(e.timing.event_ms.n, 2147483647);
	cr_expect_eq(e.timing.host_ms.n, -2147483647 - 1);
	cr_expect_eq(e.timing.input_sets, 2147483647);
	cua_eval_clear(&e);
	cJSON_Delete(j);
}

/* ---- one codec per record: cases, timings, devices ----------------------------
 * The judge writes its case, timing and device events with these functions and
 * the parent reads them back with their pairs; evals.jsonl holds the same
 * objects. A field written by one side and not read by the other is lost. */

Test(verdict, a_failing_secret_case_survives_its_codec)
{
	struct cua_case k = {0}, back;
	char err[CUA_ERR_LEN] = "";
	snprintf(k.shape, sizeof(k.shape), "odd");
	snprintf(k.output, sizeof(k.output), "y");
	k.secret = true;
	k.recheck = true;
	k.n_elems = 4097;
	k.n_bad = 3;
	k.n_nan = 1;
	k.n_unwritten = 2;
	k.max_abs = 0.25;
	k.max_rel = INFINITY;
	k.first_bad = 4096;
	snprintf(k.first_bad_at, sizeof(k.first_bad_at), "[1, 0]");
	k.got = NAN;
	k.want = -1.5;
	cJSON *o = cJSON_CreateObject();
	cua_case_to_json(o, &k);
	cr_expect(cJSON_IsString(cJSON_GetObjectItem(o, "seed")),
	          "a secret seed is written as a word, never as its value");
	cr_assert_eq(cua_case_from_json(o, &back, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_str_eq(back.shape, "odd");
	cr_expect_str_eq(back.output, "y");
	cr_expect(back.secret && back.recheck && !back.ok);
	cr_expect_eq(back.seed, 0);
	cr_expect_eq(back.n_elems, 4097);
	cr_expect_eq(back.n_bad, 3);
	cr_expect_eq(back.n_nan, 1);
	cr_expect_eq(back.n_unwritten, 2);
	cr_expect_eq(back.max_abs, 0.25);
	cr_expect(isnan(back.max_rel), "inf is written as null and read back as NaN");
	cr_expect_eq(back.first_bad, 4096);
	cr_expect_str_eq(back.first_bad_at, "[1, 0]");
	cr_expect(isnan(back.got));
	cr_expect_eq(back.want, -1.5);
	cJSON_Delete(o);
}

Test(verdict, a_public_passing_case_keeps_its_seed_and_no_first_bad)
{
	struct cua_case k = {0}, back;
	char err[CUA_ERR_LEN] = "";
	snprintf(k.shape, sizeof(k.shape), "timed");
	k.seed = (1ull << 53) - 1;   /* seeds are 53 bits: exact as a JSON number */
	k.ok = true;
	k.first_bad = -1;
	cJSON *o = cJSON_CreateObject();
	cua_case_to_json(o, &k);
	cr_expect_null(cJSON_GetObjectItem(o, "first_bad"));
	cr_assert_eq(cua_case_from_json(o, &back, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect(!back.secret && back.ok);
	cr_expect_eq(back.seed, (1ull << 53) - 1);
	cr_expect_eq(back.first_bad, -1);
	cJSON_Delete(o);
}

Test(verdict, a_case_without_a_shape_is_refused_naming_the_field)
{
	char err[CUA_ERR_LEN] = "";
	struct cua_case back;
	cJSON *o = cJSON_Parse("{\"seed\": 1, \"ok\": true}");
	cr_expect_eq(cua_case_from_json(o, &back, err, sizeof(err)), CUA_E_PARSE);
	cr_expect_str_eq(err, "shape: expected a string");
	cJSON_Delete(o);
}

Test(verdict, a_judge_timing_survives_its_codec)
{
	struct cua_timing t = {0}, back;
	char err[CUA_ERR_LEN] = "";
	t.done = true;
	t.judge_ms = (struct cua_stats){.n = 40, .median = 1.25, .q1 = 1.2, .q3 = 1.3,
	                                .iqr = 0.1, .mean = 1.26, .stdev = 0.02,
	                                .min = 1.19, .max = 1.4, .rel_sem = 0.003};
	t.event_ms = (struct cua_stats){.n = 40, .median = 1.3};
	t.host_ms = (struct cua_stats){.n = 40, .median = 1.31};
	t.overhead_ms = 0.011;
	t.claim_overhead_ms = 0.004;
	t.pre_ms = 0.02;
	t.pre_max_ms = 0.05;
	t.gap_max_ms = 0.07;
	t.sm_mhz_before = 1980;
	t.sm_mhz_after = 1965;
	t.input_sets = 3;
	t.set_median_ms[0] = 1.24;
	t.set_median_ms[1] = 1.25;
	t.set_median_ms[2] = 1.27;
	t.flush_bytes = 256.0 * (1 << 20);
	cJSON *o = cJSON_CreateObject();
	cua_timing_to_json(o, &t);
	cr_assert_eq(cua_timing_from_json(o, &back, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect(back.done);
	cr_expect_eq(back.judge_ms.n, 40);
	cr_expect_eq(back.judge_ms.median, 1.25);
	cr_expect_eq(back.judge_ms.q1, 1.2);
	cr_expect_eq(back.judge_ms.rel_sem, 0.003);
	cr_expect_eq(back.event_ms.median, 1.3);
	cr_expect_eq(back.host_ms.median, 1.31);
	cr_expect_eq(back.overhead_ms, 0.011);
	cr_expect_eq(back.claim_overhead_ms, 0.004);
	cr_expect_eq(back.pre_ms, 0.02);
	cr_expect_eq(back.pre_max_ms, 0.05);
	cr_expect_eq(back.gap_max_ms, 0.07);
	cr_expect_eq(back.sm_mhz_before, 1980);
	cr_expect_eq(back.sm_mhz_after, 1965);
	cr_expect_eq(back.input_sets, 3);
	cr_expect_eq(back.set_median_ms[2], 1.27);
	cr_expect_eq(back.set_median_ms[3], 0);
	cr_expect_eq(back.flush_bytes, 256.0 * (1 << 20));
	cJSON_Delete(o);
}

Test(verdict, a_schema_1_timing_has_no_judge_fields_and_reads_back_without_them)
{
	struct cua_timing t = {0}, back;
	char err[CUA_ERR_LEN] = "";
	t.done = true;
	t.event_ms = (struct cua_stats){.n = 12, .median = 0.5};
	t.claim_overhead_ms = 9;     /* meaningless without the judge's clock: not written */
	cJSON *o = cJSON_CreateObject();
	cua_timing_to_json(o, &t);
	cr_expect_null(cJSON_GetObjectItem(o, "judge_ms"));
	cr_expect_null(cJSON_GetObjectItem(o, "claim_overhead_ms"));
	cr_assert_eq(cua_timing_from_json(o, &back, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_eq(back.judge_ms.n, 0);
	cr_expect_eq(cua_timing_stats(&back)->median, 0.5,
	             "a schema 1 timing is measured by its events");
	cJSON_Delete(o);
}

Test(verdict, a_timing_without_its_event_statistics_is_refused_naming_them)
{
	char err[CUA_ERR_LEN] = "";
	struct cua_timing back;
	cJSON *o = cJSON_Parse("{\"host_ms\": {\"n\": 1, \"median\": 2}}");
	cr_expect_eq(cua_timing_from_json(o, &back, err, sizeof(err)), CUA_E_PARSE);
	cr_expect_str_eq(err, "event_ms: expected an object");
	cJSON_Delete(o);
}

Test(verdict, an_evaluation_writes_its_cases_and_timing_with_their_codecs)
{
	/* evals.jsonl's cases and timing are the judge's events, member for member. */
	struct cua_eval e;
	cua_eval_init(&e, "candidate");
	e.n_cases = 1;
	snprintf(e.cases[0].shape, sizeof(e.cases[0].shape), "timed");
	e.cases[0].secret = true;
	e.cases[0].ok = true;
	e.cases[0].first_bad = -1;
	e.timing.done = true;
	e.timing.judge_ms = (struct cua_stats){.n = 10, .median = 2};
	e.timing.event_ms = (struct cua_stats){.n = 10, .median = 2.1};
	e.timing.host_ms = (struct cua_stats){.n = 10, .median = 2.2};
	cJSON *j = cua_eval_to_json(&e);
	cJSON *c = cJSON_CreateObject(), *t = cJSON_CreateObject();
	cua_case_to_json(c, &e.cases[0]);
	cua_timing_to_json(t, &e.timing);
	cr_expect(cJSON_Compare(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "cases"), 0), c, true));
	cr_expect(cJSON_Compare(cJSON_GetObjectItem(j, "timing"), t, true));
	cJSON_Delete(c);
	cJSON_Delete(t);
	cJSON_Delete(j);
	cua_eval_clear(&e);
}
