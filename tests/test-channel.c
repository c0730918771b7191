/* test-channel.c — the runner's report channel is sealed (harness/judge/channel.c):
 * lines verify only with their key, their place and their text; the parent
 * judges unsealed lines and the guard's SIGSYS as sandbox violations, and
 * takes sealed ones (the real runner, which on a machine without a GPU reports
 * that through the channel). */
#include <criterion/criterion.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/channel.h"
#include "compile/compile.h"
#include "eval/eval.h"
#include "catalogue/task.h"
#include "cuarena-test.h"

static struct cua_channel_key key;

static void make_key(void)
{
	char err[CUA_ERR_LEN];
	cr_assert_eq(cua_channel_key_new(&key, err, sizeof(err)), CUA_OK, "%s", err);
}

Test(channel, a_sealed_line_verifies_as_itself_only)
{
	make_key();
	const char *json = "{\"event\":\"result\",\"verdict\":\"wrong_output\"}";
	size_t len = 0;
	char *line = cua_channel_seal(&key, 7, json, strlen(json), &len);
	cr_assert_eq(line[len - 1], '\n');
	const char *got;
	size_t gn;
	cr_assert(cua_channel_verify(&key, 7, line, len - 1, &got, &gn));
	cr_expect_eq(gn, strlen(json));
	cr_expect_eq(memcmp(got, json, gn), 0);

	cr_expect_not(cua_channel_verify(&key, 6, line, len - 1, &got, &gn), "another place");
	cr_expect_not(cua_channel_verify(&key, 8, line, len - 1, &got, &gn), "replayed later");
	struct cua_channel_key other = key;
	other.k[31] ^= 1;
	cr_expect_not(cua_channel_verify(&other, 7, line, len - 1, &got, &gn), "another key");
	cr_assert_eq(line[len], '\0', "the sealed line is also a string");
	char *edited = malloc(len + 1);
	memcpy(edited, line, len + 1);
	char *v = strstr(edited, "wrong_output");
	memcpy(v, "ok\",\"x\":\"ut", 12);   /* same length, other verdict */
	cr_expect_not(cua_channel_verify(&key, 7, edited, len - 1, &got, &gn), "edited text");
	cr_expect_not(cua_channel_verify(&key, 7, line, len - 2, &got, &gn), "cut short");
	cr_expect_not(cua_channel_verify(&key, 7, json, strlen(json), &got, &gn), "unsealed");
	cr_expect_not(cua_channel_verify(&key, 7, "", 0, &got, &gn));
	free(edited);
	free(line);
}

Test(channel, keys_are_random_and_round_trip_as_hex)
{
	struct cua_channel_key a, b, back;
	char err[CUA_ERR_LEN], hex[65];
	cr_assert_eq(cua_channel_key_new(&a, err, sizeof(err)), CUA_OK);
	cr_assert_eq(cua_channel_key_new(&b, err, sizeof(err)), CUA_OK);
	cr_expect_neq(memcmp(a.k, b.k, sizeof(a.k)), 0);
	cua_channel_key_hex(&a, hex);
	cr_expect_eq(strlen(hex), 64);
	cr_assert(cua_channel_key_parse(hex, &back));
	cr_expect_eq(memcmp(a.k, back.k, sizeof(a.k)), 0);
	cr_expect_not(cua_channel_key_parse(NULL, &back));
	cr_expect_not(cua_channel_key_parse("abc", &back));
	hex[10] = 'g';
	cr_expect_not(cua_channel_key_parse(hex, &back));
	hex[10] = '0';
	hex[63] = '\0';
	cr_expect_not(cua_channel_key_parse(hex, &back), "63 digits");
}

/* ---- the parent's side: cua_eval_source with a stand-in runner ------------- */

static void eval_with_runner(const char *runner, struct cua_eval *e)
{
	if (!cua_find_nvcc())
		cr_skip_test("no nvcc: the oracle is built from the task's reference");
	char dir[4200], cache[4200], err[CUA_ERR_LEN] = "";
	const char *exe = built(runner, X_OK);
	snprintf(dir, sizeof(dir), "%s/tasks/L1/019-relu", root());
	snprintf(cache, sizeof(cache), "%s/test-cache-channel", build_dir());
	struct cua_task *t;
	cr_assert_eq(cua_task_load(dir, &t, err, sizeof(err)), CUA_OK, "%s", err);
	struct cua_eval_opts o;
	cua_eval_opts_init(&o, root(), exe, cache);
	o.time = false;
	enum cua_status st =
	    cua_eval_source(t, NULL, CUA_SUBJECT_REFERENCE, "nvcc", &o, e, NULL, err, sizeof(err));
	cr_assert_eq(st, CUA_OK, "%s", err);
	cua_task_free(t);
}

Test(channel, an_unsealed_report_is_a_sandbox_violation, .timeout = 300)
{
	struct cua_eval e;
	eval_with_runner("tests/helpers/runner-forge", &e);
	cr_expect_str_eq(cua_verdict_name(e.verdict), "sandbox_violation", "%s", e.message);
	cr_expect_not_null(strstr(e.message, "2 lines on the judge's report channel were "
	                                     "not written by the judge"), "%s", e.message);
	cr_expect_not(e.timing.done, "the forged timing was not taken");
	cua_eval_clear(&e);
}

/* The kernel runs in a process of the judge's, never in the judge: a judge that
 * dies is the harness's failure, not a verdict on the kernel (until 2026-12-01
 * a death by SIGSYS was the runner's guard stopping the kernel's own code). */
Test(channel, a_judge_that_dies_is_a_harness_error, .timeout = 300)
{
	struct cua_eval e;
	eval_with_runner("tests/helpers/runner-sigsys", &e);
	cr_expect_str_eq(cua_verdict_name(e.verdict), "harness_error", "%s", e.message);
	cr_expect_not_null(strstr(e.message, "the judge died of SIGSYS"), "%s", e.message);
	cua_eval_clear(&e);
}

Test(channel, the_real_runner_is_heard, .timeout = 300)
{
	if (access("/dev/nvidiactl", F_OK) == 0)
		cr_skip_test("a GPU is present: the GPU suite covers the runner's reports");
	struct cua_eval e;
	eval_with_runner("cuarena", &e);
	cr_expect_str_eq(cua_verdict_name(e.verdict), "harness_error", "%s", e.message);
	cr_expect_not_null(strstr(e.message, "no CUDA device"), "%s", e.message);
	cua_eval_clear(&e);
}
