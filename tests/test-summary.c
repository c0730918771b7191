/* test-summary.c — the Criterion suite's last line in the form every suite of
 * `make test` ends with (docs/CODE-STYLE.md): "unit: N passed, N failed", a crash
 * counted as a failure, skips after. */
#include <criterion/criterion.h>
#include <criterion/hooks.h>
#include <stdio.h>

ReportHook(POST_ALL)(struct criterion_global_stats *stats)
{
	printf("unit: %zu passed, %zu failed", stats->tests_passed,
	       stats->tests_failed + stats->tests_crashed);
	if (stats->tests_skipped)
		printf(", %zu skipped", stats->tests_skipped);
	printf("\n");
	fflush(stdout);
}
