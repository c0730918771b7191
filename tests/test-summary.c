/* test-summary.c — the Criterion suite's output in the form of every suite of
 * `make test` (docs/CODE-STYLE.md): a "FAIL  suite/test" line for each test that
 * failed, crashed or timed out, with its failed assertions' file, line and message,
 * and last "unit: N passed, N failed" (a crash counted as a failure, skips after).
 * The total is printed at exit, after Criterion's own report (its "[====]
 * Synthesis" line), so that it is the suite's last line. */
#include <criterion/criterion.h>
#include <criterion/hooks.h>
#include <stdio.h>
#include <stdlib.h>

ReportHook(POST_TEST)(struct criterion_test_stats *st)
{
	if (st->test_status != CR_STATUS_FAILED || st->crashed)
		return;   /* a crash has its own line (TEST_CRASH) */
	printf("FAIL  %s/%s", st->test->category, st->test->name);
	if (st->timed_out)
		printf(": timed out");
	printf("\n");
	for (const struct criterion_assert_stats *a = st->asserts; a; a = a->next)
		if (!a->passed)
			printf("      %s:%u: %s\n", a->file ? a->file : "?", a->line,
			       a->message && a->message[0] ? a->message : "(assertion failed)");
	fflush(stdout);
}

ReportHook(TEST_CRASH)(struct criterion_test_stats *st)
{
	printf("FAIL  %s/%s: crashed (signal %d, exit %d)\n", st->test->category, st->test->name,
	       st->signal, st->exit_code);
	fflush(stdout);
}

static size_t n_passed, n_failed, n_skipped;

/* At exit, after Criterion's own report (its "[====] Synthesis" line follows the
 * POST_ALL hook), so that this is the suite's last line. */
static void summary_line(void)
{
	fflush(stderr);
	printf("unit: %zu passed, %zu failed", n_passed, n_failed);
	if (n_skipped)
		printf(", %zu skipped", n_skipped);
	printf("\n");
	fflush(stdout);
}

ReportHook(POST_ALL)(struct criterion_global_stats *stats)
{
	/* tests_failed counts the crashed ones too (Criterion's "Failing") */
	n_passed = stats->tests_passed;
	n_failed = stats->tests_failed;
	n_skipped = stats->tests_skipped;
	atexit(summary_line);
}
