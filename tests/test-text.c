/* test-text.c — text from outside as data: UTF-8 validation and cleaning
 * (harness/util.c, cua_utf8_valid / cua_utf8_clean). */
#include <criterion/criterion.h>
#include <string.h>

#include "common.h"

static bool valid(const char *s) { return cua_utf8_valid(s, strlen(s)); }

Test(text, well_formed_utf8_is_valid)
{
	cr_expect(valid(""));
	cr_expect(valid("plain ascii, tabs\tand\nnewlines"));
	cr_expect(valid("\xc3\xa9t\xc3\xa9"));                 /* été */
	cr_expect(valid("\xe2\x88\x91 \xe2\x86\x92"));         /* ∑ → */
	cr_expect(valid("\xf0\x9f\x98\x80"));                 /* U+1F600 */
	cr_expect(valid("\xf4\x8f\xbf\xbf"));                 /* U+10FFFF */
	cr_expect(valid("\xed\x9f\xbf"));                     /* U+D7FF, below the surrogates */
}

Test(text, ill_formed_utf8_is_refused)
{
	cr_expect_not(valid("\xff"));                 /* never a UTF-8 byte */
	cr_expect_not(valid("\xc0\xaf"));             /* overlong '/' */
	cr_expect_not(valid("\xe0\x80\xaf"));         /* overlong, three bytes */
	cr_expect_not(valid("\xed\xa0\x80"));         /* a surrogate, U+D800 */
	cr_expect_not(valid("\xf4\x90\x80\x80"));     /* above U+10FFFF */
	cr_expect_not(valid("\xc3"));                 /* cut short at the end */
	cr_expect_not(valid("\xe2\x88"));
	cr_expect_not(valid("a\x80z"));               /* a lone continuation byte */
	cr_expect_not(cua_utf8_valid("a\0b", 3));     /* NUL inside */
}

Test(text, cleaning_replaces_each_bad_byte_and_keeps_the_rest)
{
	size_t n = 0;
	char *c = cua_utf8_clean("ok \xff \xc3\xa9 \xed\xa0\x80!", 13, &n);
	/* \xff -> U+FFFD; é kept; each of the surrogate's three bytes -> U+FFFD */
	const char *want = "ok \xef\xbf\xbd \xc3\xa9 \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd!";
	cr_expect_str_eq(c, want);
	cr_expect_eq(n, strlen(want));
	cr_expect(cua_utf8_valid(c, n));
	free(c);
}

Test(text, cleaning_drops_nul_bytes_and_keeps_valid_text_byte_for_byte)
{
	char *c = cua_utf8_clean("a\0b", 3, NULL);
	cr_expect_str_eq(c, "ab");
	free(c);
	const char *good = "\xe2\x88\x91 x \xf0\x9f\x98\x80\n";
	c = cua_utf8_clean(good, strlen(good), NULL);
	cr_expect_str_eq(c, good);
	free(c);
}

Test(text, a_sequence_cut_by_the_end_of_the_buffer_is_replaced)
{
	char *c = cua_utf8_clean("x\xe2\x88", 3, NULL);
	cr_expect_str_eq(c, "x\xef\xbf\xbd\xef\xbf\xbd");
	free(c);
}

/* ---- terminals (cua_term_text) -------------------------------------------------- */

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>

#include "episode/episode.h"
#include "judge/verdict.h"
#include "cuarena-test.h"

static void expect_term(const char *in, const char *want)
{
	char *got = cua_term_text(in);
	cr_expect_str_eq(got, want, "for '%s'", in);
	free(got);
}

/* The attack: a kernel's message cleared the screen of `cuarena eval` and drew
 * a fake "ok 41.7x" table. */
Test(text, a_terminal_is_shown_control_characters_as_escapes)
{
	expect_term("\x1b[2J\x1b[Hcandidate ok 41.7x", "\\x1b[2J\\x1b[Hcandidate ok 41.7x");
	expect_term("bell\a, cr\r, del\x7f, backspace\b", "bell\\x07, cr\\x0d, del\\x7f, backspace\\x08");
	expect_term("\xc2\x9b" "2J (C1 CSI)", "\\u009b2J (C1 CSI)");
	expect_term("\xe2\x80\xae" "evil \xe2\x81\xa6x", "\\u202eevil \\u2066x");   /* bidi */
	expect_term("", "");
	expect_term(NULL, "");
}

Test(text, a_terminal_keeps_newlines_tabs_and_text)
{
	expect_term("line 1\n\tline 2: \xc3\xa9t\xc3\xa9 \xe2\x88\x91 \xf0\x9f\x98\x80",
	            "line 1\n\tline 2: \xc3\xa9t\xc3\xa9 \xe2\x88\x91 \xf0\x9f\x98\x80");
	expect_term("\xe2\x80\x94 and \xc2\xa0", "\xe2\x80\x94 and \xc2\xa0");   /* not controls */
	expect_term("bad \xff byte", "bad \xef\xbf\xbd byte");
}

/* ---- bounded lengths (cua_trim_text) --------------------------------------------- */

/* Regression: the cut fell inside a UTF-8 sequence, so a trimmed compile log
 * with a non-ASCII character (a path, a quote) at the cut was ill-formed. */
Test(text, a_trimmed_text_is_cut_on_character_boundaries)
{
	struct cua_buf b = { 0 };
	for (int i = 0; i < 400; i++)
		cua_buf_printf(&b, "\xc3\xa9\xe2\x88\x91\xf0\x9f\x98\x80x");   /* 2+3+4+1 bytes */
	for (size_t max = 20; max < 60; max++) {
		char *t = cua_trim_text(b.s, b.len, max);
		cr_expect(cua_utf8_valid(t, strlen(t)), "trimmed to %zu: '%s'", max, t);
		cr_expect_leq(strlen(t), max + 40, "trimmed to %zu is %zu bytes", max, strlen(t));
		cr_expect_not_null(strstr(t, "bytes cut"));
		free(t);
	}
	free(b.s);
}

/* ---- JSON: every string from outside is valid UTF-8 ------------------------------- */

Test(text, an_evaluation_is_written_as_valid_utf8_whatever_its_text)
{
	struct cua_eval e;
	cua_eval_init(&e, "candidate");
	cua_eval_fail(&e, CUA_VERDICT_RUNTIME_ERROR, "leaked: \xff\xfe token \x1b[2J");
	e.compile_log = strdup("warning: \xc3 cut \xe2\x82");
	e.output_tail = strdup("printf \x80\x80 output");
	e.n_violations = 1;
	snprintf(e.violations[0].symbol, sizeof(e.violations[0].symbol), "sym\xf5\x80");
	snprintf(e.violations[0].reason, sizeof(e.violations[0].reason), "why \xc0\xaf");
	cJSON *j = cua_eval_to_json(&e);
	char *line = cJSON_PrintUnformatted(j);
	cr_assert_not_null(line);
	cr_expect(cua_utf8_valid(line, strlen(line)), "not valid UTF-8: %s", line);
	cr_expect_null(strchr(line, '\x1b'), "a raw escape in the JSON: %s", line);
	/* and it reads back, with the replacement characters */
	cJSON *back = cJSON_Parse(line);
	struct cua_eval r;
	char err[CUA_ERR_LEN];
	cr_assert_eq(cua_eval_from_json(back, &r, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_str_eq(r.message, "leaked: \xef\xbf\xbd\xef\xbf\xbd token \x1b[2J");
	cr_expect_str_eq(r.output_tail, "printf \xef\xbf\xbd\xef\xbf\xbd output");
	cua_eval_clear(&r);
	cJSON_Delete(back);
	free(line);
	cJSON_Delete(j);
	cua_eval_clear(&e);
}

Test(text, json_add_text_keeps_valid_text_and_cleans_the_rest)
{
	cJSON *o = cJSON_CreateObject();
	cua_json_add_text(o, "ok", "\xc3\xa9t\xc3\xa9");
	cua_json_add_text(o, "bad", "a\xff" "b");
	cr_expect_str_eq(cJSON_GetObjectItem(o, "ok")->valuestring, "\xc3\xa9t\xc3\xa9");
	cr_expect_str_eq(cJSON_GetObjectItem(o, "bad")->valuestring, "a\xef\xbf\xbd" "b");
	cJSON_Delete(o);
}

/* The feedback an agent reads (env, serve, trajectories.jsonl): valid UTF-8
 * whatever the verdict's message and the compiler's log held. */
Test(text, an_agents_feedback_is_valid_utf8)
{
	tmp_make();
	char dir[4200], err[CUA_ERR_LEN], work[4200];
	struct cua_task *t;
	snprintf(dir, sizeof(dir), "%s/tasks/L1/021-relu", root());
	cr_assert_eq(cua_task_load(dir, &t, err, sizeof(err)), CUA_OK, "%s", err);
	struct cua_report base;
	memset(&base, 0, sizeof(base));
	base.task = t;
	struct cua_eval_opts o;
	cua_eval_opts_init(&o, root(), "/bin/false", tmp);
	snprintf(work, sizeof(work), "%s/work", tmp);
	struct cua_episode ep;
	cr_assert_eq(cua_episode_begin(&ep, t, &o, &base, CUA_REWARD_CUDA_AGENT, 2, work, NULL,
	                               err, sizeof(err)), CUA_OK, "%s", err);
	struct cua_step st;
	memset(&st, 0, sizeof(st));
	st.turn = 1;
	cua_eval_init(&st.eval, "candidate");
	cua_eval_fail(&st.eval, CUA_VERDICT_COMPILE_ERROR, "nvcc failed \xff");
	st.eval.compile_log = strdup("/cuarena/src/k.cu(3): error: \xe2\x88 cut");
	cua_episode_restore(&ep, &st, 1);
	cr_assert_not_null(ep.obs_text);
	cr_expect(cua_utf8_valid(ep.obs_text, strlen(ep.obs_text)), "feedback: %s", ep.obs_text);
	cr_expect_not_null(strstr(ep.obs_text, "error:"), "feedback: %s", ep.obs_text);
	cua_eval_clear(&st.eval);
	cua_episode_clear(&ep);
	cua_task_free(t);
	tmp_remove();
}
