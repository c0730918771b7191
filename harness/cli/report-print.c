/* report-print.c — runs and prints a report: what `eval` and `baselines` share.
 * What came from a kernel, the compiler or a file (messages, logs, symbols,
 * output) is printed with its control characters escaped (cua_fput_term): a
 * kernel's text cannot clear the screen and draw a table of its own. */
#include "cli/cli.h"
#include "eval/precheck.h"

#include <math.h>
#include <string.h>
#include <cjson/cJSON.h>

static void print_eval_row(const struct cua_eval *e, const struct cua_report *r)
{
	char name[80];
	snprintf(name, sizeof(name), "%s%s", e->subject, e->imported ? "*" : "");
	printf("%-22s %-16s", name, cua_verdict_name(e->verdict));
	if (e->verdict == CUA_VERDICT_OK && e->timing.done) {
		const struct cua_stats *s = cua_timing_stats(&e->timing);
		printf(" %10.4f %9.4f %4d", s->median, s->iqr, s->n);
		if (e->pct_sol > 0)
			printf(" %6.1f", e->pct_sol);
		else
			printf(" %6s", "-");
	} else
		printf(" %10s %9s %4s %6s", "-", "-", "-", "-");
	if (e->imported)
		printf("   imported\n");
	else
		printf("   %s%.2f s\n", e->cache_hit ? "cached " : "", e->compile_s);
	(void)r;
}

static void print_failure(const struct cua_eval *e)
{
	if (e->verdict == CUA_VERDICT_OK)
		return;
	printf("\n%s: %s\n", e->subject, cua_verdict_name(e->verdict));
	if (e->message[0]) {
		fputs("  ", stdout);
		cua_fput_term(stdout, e->message);
		fputs("\n", stdout);
	}
	for (int i = 0; i < e->n_violations; i++) {
		fputs("  forbidden: ", stdout);
		cua_fput_term(stdout, e->violations[i].symbol);
		fputs(" — ", stdout);
		cua_fput_term(stdout, e->violations[i].reason);
		fputs("\n", stdout);
	}
	if ((e->verdict == CUA_VERDICT_COMPILE_ERROR ||
	     e->verdict == CUA_VERDICT_COMPILE_TIMEOUT) && e->compile_log) {
		fputs("--- compiler output ---\n", stdout);
		cua_fput_term(stdout, e->compile_log);
		fputs("\n-----------------------\n", stdout);
	}
	if (e->output_tail && e->output_tail[0]) {
		fputs("--- kernel output (trimmed) ---\n", stdout);
		cua_fput_term(stdout, e->output_tail);
		fputs("\n-------------------------------\n", stdout);
	}
}

static void print_checks(const struct cua_eval *e)
{
	int n = e->n_cases, bad = 0;
	double ma, mr;
	for (int i = 0; i < e->n_cases; i++)
		bad += !e->cases[i].ok;
	cua_eval_max_errors(e, &ma, &mr);
	if (n)
		printf("%-22s %d/%d correctness cases passed; max abs err %.3g, max rel err "
		       "%.3g\n", e->subject, n - bad, n, ma, mr);
}

int cua_cli_report(struct cua_cli *cli, const char *task, const char *src,
                   const struct cua_eval_opts *base_opts)
{
	struct cua_catalogue cat;
	const struct cua_task *t;
	struct cua_report r;
	char err[CUA_ERR_LEN];

	int rc = cua_cli_task(cli, task, &cat, &t);
	if (rc != CUA_EXIT_OK) {
		cua_catalogue_clear(&cat);
		return rc;
	}
	if (!cua_have_gpu()) {
		fprintf(stderr, "cuarena: no NVIDIA GPU on this machine (no /dev/nvidia*): "
		                "evaluating a kernel needs a CUDA device.\n");
		cua_catalogue_clear(&cat);
		return CUA_EXIT_ENV;
	}
	enum cua_status st = cua_report_run(t, src, base_opts, &r, err, sizeof(err));
	if (st != CUA_OK) {
		fputs("cuarena: ", stderr);
		cua_fput_term(stderr, err);
		fputs("\n", stderr);
		cua_report_clear(&r);
		cua_catalogue_clear(&cat);
		return st == CUA_E_NOT_FOUND ? CUA_EXIT_ENV : CUA_EXIT_FAILED;
	}
	/* A child that could not see a GPU is the environment's fault: say so once. */
	if (!r.device.known && r.base[0].verdict == CUA_VERDICT_HARNESS_ERROR &&
	    strstr(r.base[0].message, "no CUDA device")) {
		fputs("cuarena: ", stderr);
		cua_fput_term(stderr, r.base[0].message);
		fputs("\n", stderr);
		cua_report_clear(&r);
		cua_catalogue_clear(&cat);
		return CUA_EXIT_ENV;
	}
	bool all_ok = true;
	for (int i = 0; i < r.n_base; i++)
		all_ok &= r.base[i].verdict == CUA_VERDICT_OK;
	if (src)
		all_ok = r.candidate.verdict == CUA_VERDICT_OK;

	if (cli->json) {
		cJSON *o = cua_report_to_json(&r);
		cua_cli_print_json(o);
	} else {
		printf("task    %s — %s (%s, atol %g, rtol %g)\n", t->id, t->title,
		       cua_precision_name(t->precision), t->atol, t->rtol);
		if (r.device.known)
			printf("device  %s (sm_%d%d, %d SMs, driver %s, CUDA %d.%d)\n",
			       r.device.name, r.device.cc_major, r.device.cc_minor, r.device.sms,
			       r.device.driver_version[0] ? r.device.driver_version : "?",
			       r.device.runtime / 1000, r.device.runtime % 1000 / 10);
		printf("\n%-22s %-16s %10s %9s %4s %6s   %s\n", "kernel", "verdict",
		       "median ms", "IQR ms", "n", "%SOL", "compile");
		if (src)
			print_eval_row(&r.candidate, &r);
		for (int i = 0; i < r.n_base; i++)
			print_eval_row(&r.base[i], &r);
		for (int i = 0; i < r.n_base; i++)
			if (r.base[i].imported) {
				fputs("* imported: ", stdout);
				cua_fput_term(stdout, r.base[i].message);
				fputs("\n", stdout);
				break;
			}
		printf("\n");
		if (src) {
			print_checks(&r.candidate);
			for (int i = 0; i < r.n_base; i++) {
				double s = cua_speedup(&r.base[i], &r.candidate);
				if (s > 0)
					printf("speedup vs %-12s %.3fx\n", r.base[i].subject, s);
			}
			print_failure(&r.candidate);
		} else
			for (int i = 0; i < r.n_base; i++)
				print_checks(&r.base[i]);
		for (int i = 0; i < r.n_base; i++)
			print_failure(&r.base[i]);
	}
	cua_report_clear(&r);
	cua_catalogue_clear(&cat);
	return all_ok ? CUA_EXIT_OK : CUA_EXIT_FAILED;
}

int cua_cli_precheck(struct cua_cli *cli, const char *task, const char *src,
                     const struct cua_eval_opts *o)
{
	struct cua_catalogue cat;
	const struct cua_task *t;
	struct cua_eval e;
	struct cua_build b;
	char err[CUA_ERR_LEN];

	int rc = cua_cli_task(cli, task, &cat, &t);
	if (rc != CUA_EXIT_OK) {
		cua_catalogue_clear(&cat);
		return rc;
	}
	cua_eval_init(&e, "candidate");
	enum cua_status st = cua_precheck(t, src, CUA_SUBJECT_CANDIDATE, "candidate", o, NULL,
	                                  &b, &e, err, sizeof(err));
	cua_build_clear(&b);
	if (st != CUA_OK) {
		fputs("cuarena: ", stderr);
		cua_fput_term(stderr, err);
		fputs("\n", stderr);
		cua_eval_clear(&e);
		cua_catalogue_clear(&cat);
		return st == CUA_E_NOT_FOUND || st == CUA_E_IO ? CUA_EXIT_ENV : CUA_EXIT_FAILED;
	}
	if (cli->json) {
		cJSON *j = cua_eval_to_json(&e);
		cJSON_AddStringToObject(j, "task", t->id);
		cJSON_AddBoolToObject(j, "compile_only", true);
		cua_cli_print_json(j);
	} else {
		printf("task    %s — %s (%s)\n", t->id, t->title, cua_precision_name(t->precision));
		printf("%-22s %-21s %scompiled in %.2f s%s\n", e.subject, cua_verdict_name(e.verdict),
		       e.cache_hit ? "cached; " : "", e.compile_s,
		       e.verdict == CUA_VERDICT_OK
		           ? "; symbols and SASS pass the checks; not run (--compile-only)"
		           : "");
		print_failure(&e);
	}
	rc = e.verdict == CUA_VERDICT_OK ? CUA_EXIT_OK : CUA_EXIT_FAILED;
	cua_eval_clear(&e);
	cua_catalogue_clear(&cat);
	return rc;
}
