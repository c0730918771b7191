/* cmd-table.c — `cuarena table RUN...`: paper tables from result folders, in the
 * CUDA Agent Table-1 layout or the KernelBench fast_p layout, as markdown,
 * LaTeX or CSV. Metric definitions: docs/SCORING.md. */
#include "cli/cli.h"
#include "results/metrics.h"

#include <math.h>
#include <string.h>
#include <cjson/cJSON.h>

enum layout { CUDA_AGENT, KERNELBENCH };
enum format { MD, LATEX, CSV };

struct table {
	enum layout layout;
	enum format format;
	bool margin_given;
	int n_runs;
	struct cua_results **runs;
	struct cua_scores *scores;
	int n_levels;
	int levels[CUA_SCORE_MAX_LEVELS];   /* present in any run, ascending */
};

/* A percentage (fraction in) or a speedup, or the format's blank. */
static void put_pct(FILE *f, const struct table *t, double frac)
{
	if (!isfinite(frac))
		fputs(t->format == CSV ? "" : t->format == LATEX ? "--" : "—", f);
	else
		fprintf(f, "%.1f", frac * 100);
}

static void put_x(FILE *f, const struct table *t, double x)
{
	if (!isfinite(x))
		fputs(t->format == CSV ? "" : t->format == LATEX ? "--" : "—", f);
	else
		fprintf(f, t->format == CSV ? "%.3f" : "%.2f", x);
}

static void put_text(FILE *f, const struct table *t, const char *s)
{
	cua_fput_esc(f, s, t->format == MD ? CUA_ESC_MD : t->format == LATEX ? CUA_ESC_LATEX
	                                                                       : CUA_ESC_CSV);
}

static const char *level_name(int level, char *buf, size_t len)
{
	if (level < 0)
		snprintf(buf, len, "Overall");
	else if (level == 0)
		snprintf(buf, len, "L?");
	else
		snprintf(buf, len, "L%d", level);
	return buf;
}

/* The group of run r for a level (-1 = Overall), NULL if the run lacks it. */
static const struct cua_group *group(const struct table *t, int r, int level)
{
	return level < 0 ? &t->scores[r].overall : cua_scores_level(&t->scores[r], level);
}

/* One sentence saying what the numbers are. */
static void caption(FILE *f, const struct table *t)
{
	const struct cua_score_opts *o = &t->scores[0].opts;
	const char *primary = o->primary[0] ? o->primary : o->baselines[0];
	if (o->pick == CUA_PICK_FINAL)
		fprintf(f, "Scored: the final turn of each task");
	else
		fprintf(f, "Scored: the best correct turn of each task by speedup vs %s", primary);
	if (t->layout == CUDA_AGENT) {
		fprintf(f, ". Cell: pass %%");
		for (int b = 0; b < o->n_baselines; b++)
			fprintf(f, " / faster than %s %%", o->baselines[b]);
		for (int b = 0; b < o->n_baselines; b++)
			fprintf(f, " / geomean speedup vs %s", o->baselines[b]);
		if (t->margin_given)
			fprintf(f, ". Faster: speedup > %.4g (by more than %g %%)",
			        cua_margin_speedup(o->margin), o->margin * 100);
		else
			fprintf(f, ". Faster: speedup > 1");
	} else {
		fprintf(f, ". fast_p: %% of tasks correct with speedup vs %s > p (fast_0: correct)",
		        o->baselines[0]);
	}
	fprintf(f, "; geomean over correct tasks; Overall weights each level by its task count.");
}

/* ---- CUDA Agent Table 1 ----------------------------------------------------------- */

static void ca_values(FILE *f, const struct table *t, const struct cua_group *g,
                      const char *sep)
{
	int nb = t->scores[0].opts.n_baselines;
	if (!g && t->format == MD) {
		fputs("—", f);   /* the run has no task of this level */
		return;
	}
	if (!g) {
		for (int k = 0; k < 1 + 2 * nb; k++) {
			if (k)
				fputs(sep, f);
			put_pct(f, t, NAN);
		}
		return;
	}
	put_pct(f, t, g->v.pass);
	for (int b = 0; b < nb; b++) {
		fputs(sep, f);
		put_pct(f, t, t->margin_given ? g->v.faster_margin[b] : g->v.faster[b]);
	}
	for (int b = 0; b < nb; b++) {
		fputs(sep, f);
		put_x(f, t, g->v.geomean[b]);
	}
}

static void cuda_agent(FILE *f, const struct table *t)
{
	char name[16];
	int nb = t->scores[0].opts.n_baselines;
	int ncol = 1 + t->n_levels;   /* Overall + levels */

	if (t->format == MD) {
		caption(f, t);
		fprintf(f, "\n\n| Agent | Version |");
		for (int c = 0; c < ncol; c++)
			fprintf(f, " %s |", level_name(c ? t->levels[c - 1] : -1, name, sizeof(name)));
		fprintf(f, "\n| --- | --- |");
		for (int c = 0; c < ncol; c++)
			fprintf(f, " --- |");
		fputc('\n', f);
		for (int r = 0; r < t->n_runs; r++) {
			fputs("| ", f);
			put_text(f, t, t->runs[r]->agent);
			fputs(" | ", f);
			put_text(f, t, t->runs[r]->version);
			fputs(" |", f);
			for (int c = 0; c < ncol; c++) {
				fputc(' ', f);
				ca_values(f, t, group(t, r, c ? t->levels[c - 1] : -1), " / ");
				fputs(" |", f);
			}
			fputc('\n', f);
		}
	} else if (t->format == LATEX) {
		int per = 1 + 2 * nb;
		fprintf(f, "%% cuarena table --layout cuda-agent (needs \\usepackage{booktabs})\n%% ");
		caption(f, t);
		fprintf(f, "\n\\begin{tabular}{ll");
		for (int c = 0; c < ncol; c++)
			fprintf(f, "*{%d}{r}", per);
		fprintf(f, "}\n\\toprule\n &");
		for (int c = 0; c < ncol; c++)
			fprintf(f, " & \\multicolumn{%d}{c}{%s}", per,
			        level_name(c ? t->levels[c - 1] : -1, name, sizeof(name)));
		fprintf(f, " \\\\\n");
		for (int c = 0; c < ncol; c++)
			fprintf(f, "\\cmidrule(lr){%d-%d}", 3 + c * per, 2 + (c + 1) * per);
		fprintf(f, "\nAgent & Version");
		for (int c = 0; c < ncol; c++) {
			fprintf(f, " & Pass");
			for (int b = 0; b < nb; b++) {
				fprintf(f, " & $>$");
				put_text(f, t, t->scores[0].opts.baselines[b]);
			}
			for (int b = 0; b < nb; b++) {
				fprintf(f, " & GM ");
				put_text(f, t, t->scores[0].opts.baselines[b]);
			}
		}
		fprintf(f, " \\\\\n\\midrule\n");
		for (int r = 0; r < t->n_runs; r++) {
			put_text(f, t, t->runs[r]->agent);
			fputs(" & ", f);
			put_text(f, t, t->runs[r]->version);
			for (int c = 0; c < ncol; c++) {
				fputs(" & ", f);
				ca_values(f, t, group(t, r, c ? t->levels[c - 1] : -1), " & ");
			}
			fprintf(f, " \\\\\n");
		}
		fprintf(f, "\\bottomrule\n\\end{tabular}\n");
	} else {
		fprintf(f, "agent,version,run");
		for (int c = 0; c < ncol; c++) {
			const char *l = c ? level_name(t->levels[c - 1], name, sizeof(name)) : "overall";
			char low[16];
			snprintf(low, sizeof(low), "%s", l);
			for (char *p = low; *p; p++)
				*p = (char)(*p == '?' ? 'x' : (*p >= 'A' && *p <= 'Z') ? *p + 32 : *p);
			fprintf(f, ",%s_tasks,%s_pass_pct", low, low);
			for (int b = 0; b < nb; b++)
				fprintf(f, ",%s_faster_%s_pct", low, t->scores[0].opts.baselines[b]);
			for (int b = 0; b < nb; b++)
				fprintf(f, ",%s_geomean_%s", low, t->scores[0].opts.baselines[b]);
		}
		fputc('\n', f);
		for (int r = 0; r < t->n_runs; r++) {
			put_text(f, t, t->runs[r]->agent);
			fputc(',', f);
			put_text(f, t, t->runs[r]->version);
			fputc(',', f);
			put_text(f, t, t->runs[r]->run_id);
			for (int c = 0; c < ncol; c++) {
				const struct cua_group *g = group(t, r, c ? t->levels[c - 1] : -1);
				if (g)
					fprintf(f, ",%d,", g->n);
				else
					fputs(",,", f);
				ca_values(f, t, g, ",");
			}
			fputc('\n', f);
		}
	}
}

/* ---- KernelBench fast_p ----------------------------------------------------------- */

static void kb_values(FILE *f, const struct table *t, const struct cua_group *g,
                      const char *sep)
{
	for (int k = 0; k < CUA_FAST_P_N; k++) {
		if (k)
			fputs(sep, f);
		put_pct(f, t, g->v.fast_p[0][k]);
	}
	fputs(sep, f);
	put_x(f, t, g->v.geomean[0]);
}

static void kernelbench(FILE *f, const struct table *t)
{
	char name[16];
	if (t->format == MD) {
		caption(f, t);
		fprintf(f, "\n\n| Agent | Version | Level | Tasks |");
		for (int k = 0; k < CUA_FAST_P_N; k++)
			fprintf(f, " fast_%g |", cua_fast_p[k]);
		fprintf(f, " GeoMean |\n| --- | --- | --- | ---: |");
		for (int k = 0; k <= CUA_FAST_P_N; k++)
			fprintf(f, " ---: |");
		fputc('\n', f);
	} else if (t->format == LATEX) {
		fprintf(f, "%% cuarena table --layout kernelbench (needs \\usepackage{booktabs})\n%% ");
		caption(f, t);
		fprintf(f, "\n\\begin{tabular}{lllr*{%d}{r}}\n\\toprule\nAgent & Version & Level & "
		           "Tasks", CUA_FAST_P_N + 1);
		for (int k = 0; k < CUA_FAST_P_N; k++)
			fprintf(f, " & $\\mathrm{fast}_{%g}$", cua_fast_p[k]);
		fprintf(f, " & GeoMean \\\\\n\\midrule\n");
	} else {
		fprintf(f, "agent,version,run,level,tasks");
		for (int k = 0; k < CUA_FAST_P_N; k++)
			fprintf(f, ",fast_%g_pct", cua_fast_p[k]);
		fprintf(f, ",geomean_%s\n", t->scores[0].opts.baselines[0]);
	}
	for (int r = 0; r < t->n_runs; r++) {
		for (int c = 0; c <= t->n_levels; c++) {
			int level = c ? t->levels[c - 1] : -1;
			const struct cua_group *g = group(t, r, level);
			if (!g)
				continue;
			level_name(level, name, sizeof(name));
			if (t->format == MD) {
				fputs("| ", f);
				put_text(f, t, t->runs[r]->agent);
				fputs(" | ", f);
				put_text(f, t, t->runs[r]->version);
				fprintf(f, " | %s | %d | ", name, g->n);
				kb_values(f, t, g, " | ");
				fputs(" |\n", f);
			} else if (t->format == LATEX) {
				put_text(f, t, t->runs[r]->agent);
				fputs(" & ", f);
				put_text(f, t, t->runs[r]->version);
				fprintf(f, " & %s & %d & ", name, g->n);
				kb_values(f, t, g, " & ");
				fputs(" \\\\\n", f);
			} else {
				put_text(f, t, t->runs[r]->agent);
				fputc(',', f);
				put_text(f, t, t->runs[r]->version);
				fputc(',', f);
				put_text(f, t, t->runs[r]->run_id);
				fprintf(f, ",%s,%d,", name, g->n);
				kb_values(f, t, g, ",");
				fputc('\n', f);
			}
		}
	}
	if (t->format == LATEX)
		fprintf(f, "\\bottomrule\n\\end{tabular}\n");
}

/* ---- the command -------------------------------------------------------------------- */

/* Parses a percentage in [0, max). */
static bool parse_pct(const char *s, double max, double *out)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || *end || !(v >= 0) || !(v < max))
		return false;
	*out = v / 100;
	return true;
}

int cmd_table(struct cua_cli *cli, int argc, char **argv)
{
	struct table t = {.layout = CUDA_AGENT, .format = MD};
	struct cua_score_opts o;
	char err[CUA_ERR_LEN];
	char **dirs = calloc((size_t)argc + 1, sizeof(*dirs));
	int n = 0, rc = CUA_EXIT_OK;
	bool baselines_given = false;

	CUA_ASSERT(dirs);
	cua_score_opts_init(&o);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--layout") && v) {
			i++;
			if (!strcmp(v, "cuda-agent"))
				t.layout = CUDA_AGENT;
			else if (!strcmp(v, "kernelbench"))
				t.layout = KERNELBENCH;
			else {
				fprintf(stderr, "cuarena table: --layout takes cuda-agent or kernelbench, "
				                "not '%s'\n", v);
				rc = CUA_EXIT_USAGE;
				goto out;
			}
		} else if (!strcmp(a, "--format") && v) {
			i++;
			if (!strcmp(v, "md"))
				t.format = MD;
			else if (!strcmp(v, "latex"))
				t.format = LATEX;
			else if (!strcmp(v, "csv"))
				t.format = CSV;
			else {
				fprintf(stderr, "cuarena table: --format takes md, latex or csv, not '%s'\n", v);
				rc = CUA_EXIT_USAGE;
				goto out;
			}
		} else if (!strcmp(a, "--baselines") && v) {
			i++;
			if (!cua_score_opts_baselines(&o, v, err, sizeof(err))) {
				fprintf(stderr, "cuarena table: --baselines %s\n", err);
				rc = CUA_EXIT_USAGE;
				goto out;
			}
			baselines_given = true;
		} else if (!strcmp(a, "--primary") && v && v[0] && strlen(v) < sizeof(o.primary)) {
			snprintf(o.primary, sizeof(o.primary), "%s", argv[++i]);
		} else if (!strcmp(a, "--margin") && v) {
			i++;
			if (!parse_pct(v, 100, &o.margin)) {
				fprintf(stderr, "cuarena table: --margin takes a percentage in [0, 100), "
				                "not '%s'\n", v);
				rc = CUA_EXIT_USAGE;
				goto out;
			}
			t.margin_given = true;
		} else if (!strcmp(a, "--final")) {
			o.pick = CUA_PICK_FINAL;
		} else if (a[0] == '-') {
			rc = cua_cli_usage("table");
			goto out;
		} else
			dirs[n++] = argv[i];
	}
	if (n == 0) {
		rc = cua_cli_usage("table");
		goto out;
	}
	if (t.layout == KERNELBENCH) {
		if (!baselines_given)
			o.n_baselines = 1;   /* nvcc */
		else if (o.n_baselines != 1) {
			fprintf(stderr, "cuarena table: the kernelbench layout takes one baseline "
			                "(--baselines NAME)\n");
			rc = CUA_EXIT_USAGE;
			goto out;
		}
	}
	t.runs = cua_results_load_many(dirs, n, "cuarena table", stderr, err, sizeof(err));
	if (!t.runs) {
		fprintf(stderr, "cuarena table: %s\n", err);
		rc = CUA_EXIT_USAGE;
		goto out;
	}
	t.n_runs = n;
	t.scores = calloc((size_t)n, sizeof(*t.scores));
	CUA_ASSERT(t.scores);
	for (int r = 0; r < n; r++) {
		cua_scores_compute(t.runs[r], &o, &t.scores[r]);
		for (int l = 0; l < t.scores[r].n_levels; l++) {
			int lv = t.scores[r].levels[l].level, k = 0;
			while (k < t.n_levels && t.levels[k] < lv)
				k++;
			if (k < t.n_levels && t.levels[k] == lv)
				continue;
			memmove(t.levels + k + 1, t.levels + k, (size_t)(t.n_levels - k) * sizeof(int));
			t.levels[k] = lv;
			t.n_levels++;
		}
	}
	if (cli->json) {
		cJSON *j = cJSON_CreateObject();
		cJSON_AddStringToObject(j, "layout", t.layout == CUDA_AGENT ? "cuda-agent"
		                                                             : "kernelbench");
		cJSON *a = cJSON_AddArrayToObject(j, "runs");
		for (int r = 0; r < n; r++)
			cJSON_AddItemToArray(a, cua_scores_to_json(t.runs[r], &t.scores[r]));
		cua_cli_print_json(j);
	} else if (t.layout == CUDA_AGENT)
		cuda_agent(stdout, &t);
	else
		kernelbench(stdout, &t);
out:
	if (t.scores)
		for (int r = 0; r < t.n_runs; r++)
			cua_scores_clear(&t.scores[r]);
	free(t.scores);
	cua_results_free_many(t.runs, t.n_runs);
	free(dirs);
	return rc;
}
