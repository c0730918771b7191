/* cmd-compare.c — `cuarena compare OLD NEW [--threshold PCT]`: what changed per
 * task between two runs (SAME / FASTER / SLOWER / AMBIGUOUS from the timing
 * distributions, correctness flips), exit 1 on any regression: a nightly check. */
#include "cli/cli.h"
#include "results/metrics.h"

#include <math.h>
#include <string.h>
#include <cjson/cJSON.h>

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void put_ms(FILE *f, const struct cua_rec *r)
{
	if (!r || !cua_rec_correct(r)) {
		fputs(r ? cua_verdict_name(r->verdict) : "—", f);
		return;
	}
	if (!r->timed || !isfinite(r->ms.median)) {
		fputs("ok, untimed", f);
		return;
	}
	fprintf(f, "%.4g", r->ms.median);
	if (isfinite(r->ms.q1) && isfinite(r->ms.q3))
		fprintf(f, " [%.4g, %.4g]", r->ms.q1, r->ms.q3);
}

static cJSON *side_json(const struct cua_rec *r)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "verdict", r ? cua_verdict_name(r->verdict) : "not_run");
	cJSON_AddNumberToObject(o, "turn", r ? r->turn : 0);
	if (r && r->timed && isfinite(r->ms.median)) {
		cJSON_AddNumberToObject(o, "median_ms", r->ms.median);
		if (isfinite(r->ms.q1) && isfinite(r->ms.q3)) {
			cJSON_AddNumberToObject(o, "q1_ms", r->ms.q1);
			cJSON_AddNumberToObject(o, "q3_ms", r->ms.q3);
		}
		if (isfinite(r->sm_mhz))
			cJSON_AddNumberToObject(o, "sm_mhz", r->sm_mhz);
	}
	return o;
}

static void describe(FILE *f, const char *which, const struct cua_results *r)
{
	fprintf(f, "%s: %s (%s %s, %s, %s)\n", which, r->dir, r->agent, r->version,
	        r->device[0] ? r->device : "unnamed GPU", r->created[0] ? r->created : "no date");
}

int cmd_compare(struct cua_cli *cli, int argc, char **argv)
{
	char err[CUA_ERR_LEN];
	char *dirs[2];
	int n = 0, rc = CUA_EXIT_OK;
	double threshold = 0.05;
	enum cua_pick pick = CUA_PICK_BEST;
	struct cua_results **runs = NULL;
	const char **ids = NULL;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--threshold") && i + 1 < argc) {
			char *end;
			double v = strtod(argv[++i], &end);
			if (end == argv[i] || *end || !(v > 0) || !(v < 100)) {
				fprintf(stderr, "cuarena compare: --threshold takes a percentage in "
				                "(0, 100), not '%s'\n", argv[i]);
				return CUA_EXIT_USAGE;
			}
			threshold = v / 100;
		} else if (!strcmp(argv[i], "--final"))
			pick = CUA_PICK_FINAL;
		else if (argv[i][0] == '-' || n == 2)
			return cua_cli_usage("compare");
		else
			dirs[n++] = argv[i];
	}
	if (n != 2)
		return cua_cli_usage("compare");
	runs = cua_results_load_many(dirs, 2, "cuarena compare", stderr, err, sizeof(err));
	if (!runs) {
		fprintf(stderr, "cuarena compare: %s\n", err);
		return CUA_EXIT_USAGE;
	}
	const struct cua_results *old = runs[0], *new = runs[1];
	if (strcmp(old->device, new->device))
		fprintf(stderr, "cuarena compare: warning: the runs are on different GPUs (%s, %s): "
		                "times are not comparable\n", old->device, new->device);

	int cap = old->n_tasks + new->n_tasks, nt = 0;
	ids = calloc((size_t)cap + 1, sizeof(*ids));
	CUA_ASSERT(ids);
	for (int i = 0; i < old->n_tasks; i++)
		ids[nt++] = old->tasks[i].id;
	for (int i = 0; i < new->n_tasks; i++)
		if (!cua_results_find(old, new->tasks[i].id))
			ids[nt++] = new->tasks[i].id;
	qsort(ids, (size_t)nt, sizeof(*ids), cmp_str);

	int count[CUA_CHANGE_COUNT] = {0}, regressions = 0;
	cJSON *j = NULL, *jt = NULL;
	if (cli->json) {
		j = cJSON_CreateObject();
		cJSON_AddStringToObject(j, "old", old->dir);
		cJSON_AddStringToObject(j, "new", new->dir);
		cJSON_AddNumberToObject(j, "threshold", threshold);
		cJSON_AddStringToObject(j, "pick", pick == CUA_PICK_FINAL ? "final" : "best");
		jt = cJSON_AddArrayToObject(j, "tasks");
	} else {
		describe(stdout, "old", old);
		describe(stdout, "new", new);
		printf("threshold %g %%; %s; times are event medians [q1, q3] in ms\n\n",
		       threshold * 100, pick == CUA_PICK_FINAL ? "final turn of each task"
		                                                : "best correct turn of each task");
		printf("| Task | Old ms | New ms | New/Old | Status | Note |\n"
		       "| --- | ---: | ---: | ---: | --- | --- |\n");
	}
	for (int i = 0; i < nt; i++) {
		const struct cua_results_task *to = cua_results_find(old, ids[i]);
		const struct cua_results_task *tn = cua_results_find(new, ids[i]);
		double ratio;
		const char *why;
		enum cua_change c = cua_compare_task(to, tn, pick, threshold, &ratio, &why);
		const struct cua_rec *ro = to ? cua_results_scored(to, "nvcc", CUA_PICK_FINAL) : NULL;
		const struct cua_rec *rn = tn ? cua_results_scored(tn, "nvcc", CUA_PICK_FINAL) : NULL;
		if (pick == CUA_PICK_BEST) {   /* show the scored evaluation when there is one */
			const struct cua_rec *b;
			if (to && (b = cua_results_scored(to, "nvcc", CUA_PICK_BEST)))
				ro = b;
			if (tn && (b = cua_results_scored(tn, "nvcc", CUA_PICK_BEST)))
				rn = b;
		}
		count[c]++;
		regressions += cua_change_is_regression(c);
		if (c == CUA_CHANGE_FAILING && rn && !why[0])
			why = rn->message;
		if (j) {
			cJSON *o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "task", ids[i]);
			cJSON_AddStringToObject(o, "status", cua_change_name(c));
			cJSON_AddBoolToObject(o, "regression", cua_change_is_regression(c));
			if (isfinite(ratio))
				cJSON_AddNumberToObject(o, "ratio", ratio);
			cJSON_AddItemToObject(o, "old", side_json(ro));
			cJSON_AddItemToObject(o, "new", side_json(rn));
			cJSON_AddStringToObject(o, "note", why);
			cJSON_AddItemToArray(jt, o);
			continue;
		}
		printf("| %s | ", ids[i]);
		put_ms(stdout, ro);
		fputs(" | ", stdout);
		put_ms(stdout, rn);
		if (isfinite(ratio))
			printf(" | %.3f | ", ratio);
		else
			fputs(" | — | ", stdout);
		if (cua_change_is_regression(c))
			printf("**%s** | ", cua_change_name(c));
		else
			printf("%s | ", cua_change_name(c));
		char *shown = cua_term_text(why);   /* a kernel's message: no escapes */
		cua_fput_esc(stdout, shown, CUA_ESC_MD);
		free(shown);
		fputs(" |\n", stdout);
	}
	if (j) {
		cJSON *s = cJSON_AddObjectToObject(j, "summary");
		for (int c = 0; c < CUA_CHANGE_COUNT; c++)
			cJSON_AddNumberToObject(s, cua_change_name((enum cua_change)c), count[c]);
		cJSON_AddNumberToObject(j, "regressions", regressions);
		cua_cli_print_json(j);
	} else {
		printf("\n%d task%s:", nt, nt == 1 ? "" : "s");
		bool first = true;
		for (int c = 0; c < CUA_CHANGE_COUNT; c++) {
			if (!count[c])
				continue;
			char low[16];
			snprintf(low, sizeof(low), "%s", cua_change_name((enum cua_change)c));
			for (char *p = low; *p; p++)
				*p = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
			printf("%s %d %s", first ? "" : ",", count[c], low);
			first = false;
		}
		printf("; %d regression%s\n", regressions, regressions == 1 ? "" : "s");
	}
	if (regressions)
		rc = CUA_EXIT_FAILED;
	free(ids);
	cua_results_free_many(runs, 2);
	return rc;
}
