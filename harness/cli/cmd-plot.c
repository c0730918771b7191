/* cmd-plot.c — `cuarena plot RUN... --out DIR`: fast_p curves, speedup
 * distributions per level, per-task speedup bars and %SOL vs arithmetic
 * intensity, drawn by gnuplot from the scripts in plots/ (plot-gnuplot.h). */
#include "cli/cli.h"
#include "results/metrics.h"
#include "boards/plot-gnuplot.h"

#include <errno.h>
#include <math.h>
#include <string.h>

struct plotting {
	struct cua_plot p;
	int n;
	struct cua_results **runs;
	struct cua_scores *s;
	const char *baseline;
	int written;
	int failed;
};

static FILE *data_file(struct plotting *g, const char *name)
{
	char path[CUA_PATH_BUF];
	cua_plot_data_path(&g->p, name, path, sizeof(path));
	FILE *f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "cuarena plot: %s: cannot write: %s\n", path, strerror(errno));
	return f;
}

/* The variables every script of several runs reads: nruns, baseline, labels. */
static void common_vars(FILE *v, const struct plotting *g)
{
	fprintf(v, "nruns = %d\nbaseline = \"", g->n);
	cua_fput_esc(v, g->baseline, CUA_ESC_GNUPLOT);
	fputs("\"\n", v);
	for (int r = 0; r < g->n; r++) {
		char label[160];
		fprintf(v, "label%d = \"", r + 1);
		cua_fput_esc(v, cua_results_label(g->runs[r], label, sizeof(label)), CUA_ESC_GNUPLOT);
		fputs("\"\n", v);
	}
}

/* A header line of quoted run labels for columnheader(). */
static void header(FILE *f, const struct plotting *g, const char *first)
{
	fprintf(f, "\"%s\"", first);
	for (int r = 0; r < g->n; r++) {
		char label[160];
		fputs(" \"", f);
		cua_fput_esc(f, cua_results_label(g->runs[r], label, sizeof(label)), CUA_ESC_GNUPLOT);
		fputc('"', f);
	}
	fputc('\n', f);
}

static void draw(struct plotting *g, const char *name, char *vars)
{
	char err[CUA_ERR_LEN];
	if (cua_plot_run(&g->p, name, vars, err, sizeof(err)) == CUA_OK) {
		printf("%s/%s.%s\n", g->p.out, name, g->p.format);
		g->written++;
	} else {
		fprintf(stderr, "cuarena plot: %s\n", err);
		g->failed++;
	}
	free(vars);
}

/* An in-memory FILE for the variables text. */
struct membuf {
	char *s;
	size_t len;
	FILE *f;
};

static FILE *vars_open(struct membuf *m)
{
	m->s = NULL;
	m->len = 0;
	m->f = open_memstream(&m->s, &m->len);
	CUA_ASSERT(m->f);
	return m->f;
}

static char *vars_close(struct membuf *m)
{
	fclose(m->f);
	return m->s;
}

/* ---- fast_p curves -------------------------------------------------------------------- */

static void fastp(struct plotting *g)
{
	double maxx = 0;
	for (int r = 0; r < g->n; r++)
		for (int i = 0; i < g->s[r].n_tasks; i++)
			if (g->s[r].tasks[i].correct && isfinite(g->s[r].tasks[i].speedup[0]))
				maxx = fmax(maxx, g->s[r].tasks[i].speedup[0]);
	double pmax = ceil(fmin(fmax(2.5, maxx * 1.1), 20.0) * 2) / 2;
	FILE *f = data_file(g, "fastp");
	if (!f) {
		g->failed++;
		return;
	}
	header(f, g, "p");
	int steps = (int)lround(pmax * 100);
	for (int k = 0; k <= steps; k++) {
		double p = k / 100.0;
		fprintf(f, "%.2f", p);
		for (int r = 0; r < g->n; r++) {
			int hit = 0, n = g->s[r].n_tasks;
			for (int i = 0; i < n; i++) {
				const struct cua_task_score *t = &g->s[r].tasks[i];
				hit += t->correct && (k == 0 || t->speedup[0] > p);
			}
			fprintf(f, " %.4f", n ? 100.0 * hit / n : 0.0);
		}
		fputc('\n', f);
	}
	fclose(f);
	struct membuf m;
	FILE *v = vars_open(&m);
	common_vars(v, g);
	fprintf(v, "pmax = %g\n", pmax);
	draw(g, "fastp", vars_close(&m));
}

/* ---- distribution per level ------------------------------------------------------------ */

static void dist(struct plotting *g)
{
	int levels[CUA_SCORE_MAX_LEVELS], nl = 0, points = 0;
	for (int r = 0; r < g->n; r++)
		for (int i = 0; i < g->s[r].n_levels; i++) {
			int l = g->s[r].levels[i].level, k = 0;
			while (k < nl && levels[k] < l)
				k++;
			if (k < nl && levels[k] == l)
				continue;
			memmove(levels + k + 1, levels + k, (size_t)(nl - k) * sizeof(int));
			levels[k] = l;
			nl++;
		}
	FILE *f = data_file(g, "dist");
	if (!f) {
		g->failed++;
		return;
	}
	double w = 0.8 / (g->n + 0.5);
	int nblocks = 0;
	double lo = 0.9, hi = 1.1;   /* 1x is always in view */
	struct membuf runs_of;   /* the run of each block, for the legend colours */
	FILE *rb = vars_open(&runs_of);
	fprintf(f, "# box_x speedup point_x; one block per (level, run) with a point\n");
	for (int li = 0; li < nl; li++)
		for (int r = 0; r < g->n; r++) {
			double x = li + 1 + (r - (g->n - 1) / 2.0) * w;
			int in_block = 0;
			for (int i = 0; i < g->s[r].n_tasks; i++) {
				const struct cua_task_score *t = &g->s[r].tasks[i];
				if (t->level != levels[li] || !t->correct || !isfinite(t->speedup[0]))
					continue;
				/* a deterministic jitter spreads equal speedups sideways */
				double j = ((in_block * 37) % 11 - 5) / 5.0 * w * 0.3;
				fprintf(f, "%.4f %.6g %.4f\n", x, t->speedup[0], x + j);
				lo = fmin(lo, t->speedup[0]);
				hi = fmax(hi, t->speedup[0]);
				in_block++;
				points++;
			}
			if (in_block) {
				fputs("\n\n", f);
				fprintf(rb, "%s%d", nblocks++ ? " " : "", r + 1);
			}
		}
	fclose(f);
	char *blockruns = vars_close(&runs_of);
	if (points == 0) {
		printf("(dist: no correct task with a speedup: no plot)\n");
		free(blockruns);
		return;
	}
	struct membuf m;
	FILE *v = vars_open(&m);
	common_vars(v, g);
	fprintf(v, "blockruns = \"%s\"\nymin = %.6g\nymax = %.6g\n", blockruns, lo / 1.25,
	        hi * 1.25);
	free(blockruns);
	fprintf(v, "nlevels = %d\nnblocks = %d\nset xtics (", nl, nblocks);
	for (int li = 0; li < nl; li++) {
		int ntask = 0;
		for (int r = 0; r < g->n; r++) {
			const struct cua_group *gr = cua_scores_level(&g->s[r], levels[li]);
			ntask = gr && gr->n > ntask ? gr->n : ntask;
		}
		if (levels[li])
			fprintf(v, "%s\"L%d (%d tasks)\" %d", li ? ", " : "", levels[li], ntask, li + 1);
		else
			fprintf(v, "%s\"L? (%d tasks)\" %d", li ? ", " : "", ntask, li + 1);
	}
	fprintf(v, ")\n");
	draw(g, "dist", vars_close(&m));
}

/* ---- per-task bars --------------------------------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every task id of every run, sorted, deduplicated (borrowed strings). */
static int all_tasks(const struct plotting *g, const char ***out)
{
	int cap = 0, n = 0;
	for (int r = 0; r < g->n; r++)
		cap += g->runs[r]->n_tasks;
	const char **ids = calloc((size_t)cap + 1, sizeof(*ids));
	CUA_ASSERT(ids);
	for (int r = 0; r < g->n; r++)
		for (int i = 0; i < g->runs[r]->n_tasks; i++)
			ids[n++] = g->runs[r]->tasks[i].id;
	qsort(ids, (size_t)n, sizeof(*ids), cmp_str);
	int m = 0;
	for (int i = 0; i < n; i++)
		if (m == 0 || strcmp(ids[m - 1], ids[i]))
			ids[m++] = ids[i];
	*out = ids;
	return m;
}

static const struct cua_task_score *find_score(const struct cua_scores *s, const char *id)
{
	for (int i = 0; i < s->n_tasks; i++)
		if (!strcmp(s->tasks[i].id, id))
			return &s->tasks[i];
	return NULL;
}

static void bars(struct plotting *g)
{
	const char **ids;
	int n = all_tasks(g, &ids);
	FILE *f = data_file(g, "bars");
	if (!f) {
		free(ids);
		g->failed++;
		return;
	}
	header(f, g, "task");
	double lo = 0, hi = 0;   /* log2 of the speedups; 1x (0) always in view */
	int points = 0;
	int *bars_of = calloc((size_t)g->n + 1, sizeof(*bars_of));   /* per run */
	CUA_ASSERT(bars_of);
	for (int i = 0; i < n; i++) {
		fprintf(f, "\"%s\"", ids[i]);
		for (int r = 0; r < g->n; r++) {
			const struct cua_task_score *t = find_score(&g->s[r], ids[i]);
			if (t && t->correct && isfinite(t->speedup[0]) && t->speedup[0] > 0) {
				fprintf(f, " %.6g", t->speedup[0]);
				lo = fmin(lo, log2(t->speedup[0]));
				hi = fmax(hi, log2(t->speedup[0]));
				bars_of[r]++;
				points++;
			} else
				fputs(" NaN", f);
		}
		fputc('\n', f);
	}
	fclose(f);
	/* gnuplot refuses a histogram column without a valid point ("No valid
	 * points", and plot failed): such a run is only named in the key, and a
	 * figure of no bar at all is not drawn */
	if (points == 0) {
		printf("(bars: no correct task with a speedup: no plot)\n");
		free(bars_of);
		free(ids);
		return;
	}
	struct membuf m;
	FILE *v = vars_open(&m);
	common_vars(v, g);
	for (int pass = 0; pass < 2; pass++) {   /* barcols, then nobarcols */
		fputs(pass ? "nobarcols = \"" : "barcols = \"", v);
		for (int r = 0, k = 0; r < g->n; r++)
			if ((bars_of[r] > 0) == !pass)
				fprintf(v, "%s%d", k++ ? " " : "", r + 2);
		fputs("\"\n", v);
	}
	for (int r = 0; r < g->n; r++)
		if (!bars_of[r]) {
			char label[160];
			printf("(bars: %s has no correct task with a speedup: no bars for it)\n",
			       cua_results_label(g->runs[r], label, sizeof(label)));
		}
	free(bars_of);
	int width = 160 + n * (g->n * 16 + 14);
	fprintf(v, "width = %d\nheight = 620\nymin = %.4f\nymax = %.4f\n",
	        width < 960 ? 960 : width > 8000 ? 8000 : width, lo - 0.4, hi + 0.4);
	free(ids);
	draw(g, "bars", vars_close(&m));
}

/* ---- %SOL vs arithmetic intensity ---------------------------------------------------- */

/* flops / bytes of a task at its timed shape, as its run recorded them
 * (baselines.jsonl): NaN when the run did not record them, 0 when the task
 * does no flops (a log axis has no place for it). */
static double intensity(const struct cua_results *run, const char *id)
{
	const struct cua_results_task *t = cua_results_find(run, id);
	if (!t || isnan(t->flops) || isnan(t->bytes))
		return NAN;
	return t->flops > 0 && t->bytes > 0 ? t->flops / t->bytes : 0;
}

/* Every plot reads only the runs: a task's flops and bytes come from its run,
 * never from today's catalogue, which may have changed since (issue 19). */
static void roofline(struct plotting *g)
{
	int missing = 0, points = 0;
	FILE *f = data_file(g, "roofline");
	if (!f) {
		g->failed++;
		return;
	}
	fprintf(f, "# intensity (flop/byte) pct_sol task; one block per run\n");
	for (int r = 0; r < g->n; r++) {
		int in_block = 0;
		for (int i = 0; i < g->s[r].n_tasks; i++) {
			const struct cua_task_score *t = &g->s[r].tasks[i];
			if (!t->correct || !isfinite(t->pct_sol))
				continue;
			double ai = intensity(g->runs[r], t->id);
			if (isnan(ai))
				missing++;
			if (!(ai > 0))
				continue;
			const char *sl = strchr(t->id, '/');
			fprintf(f, "%.6g %.4g \"%s\"\n", ai, t->pct_sol, sl ? sl + 1 : t->id);
			in_block++;
			points++;
		}
		if (!in_block)
			fputs("NaN NaN \"\"\n", f);
		fputs("\n\n", f);
	}
	fclose(f);
	if (missing)
		fprintf(stderr, "cuarena plot: roofline: %d correct task%s with a %%SOL left out: "
		        "%s baselines.jsonl do%s not record the task's flops and bytes (a run "
		        "written before cuarena recorded them)\n", missing, missing == 1 ? "" : "s",
		        g->n == 1 ? "its run's" : "their runs'", g->n == 1 ? "es" : "");
	if (points == 0) {
		printf("(roofline: no correct task with a known %%SOL and recorded flops and "
		       "bytes: no plot)\n");
		return;
	}
	struct membuf m;
	FILE *v = vars_open(&m);
	common_vars(v, g);
	fprintf(v, "labels = %d\nwidth = 1040\n", points <= 40);
	draw(g, "roofline", vars_close(&m));
}

/* ---- the command ------------------------------------------------------------------------ */

int cmd_plot(struct cua_cli *cli, int argc, char **argv)
{
	char err[CUA_ERR_LEN];
	char **dirs = calloc((size_t)argc + 1, sizeof(*dirs));
	struct plotting g = {.p = {.root = cli->root, .format = "png"}, .baseline = "nvcc"};
	struct cua_score_opts o;
	int n = 0, rc = CUA_EXIT_OK;

	CUA_ASSERT(dirs);
	cua_score_opts_init(&o);
	for (int i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(argv[i], "--out") && v)
			g.p.out = argv[++i];
		else if (!strcmp(argv[i], "--format") && v) {
			if (strcmp(v, "png") && strcmp(v, "svg")) {
				fprintf(stderr, "cuarena plot: --format takes png or svg, not '%s'\n", v);
				rc = CUA_EXIT_USAGE;
				goto out;
			}
			g.p.format = argv[++i];
		} else if (!strcmp(argv[i], "--baseline") && v && v[0] &&
		           strlen(v) < sizeof(o.baselines[0]))
			g.baseline = argv[++i];
		else if (!strcmp(argv[i], "--final"))
			o.pick = CUA_PICK_FINAL;
		else if (argv[i][0] == '-') {
			rc = cua_cli_usage("plot");
			goto out;
		} else
			dirs[n++] = argv[i];
	}
	if (n == 0 || !g.p.out) {
		if (n > 0)
			fprintf(stderr, "cuarena plot: --out DIR is required\n");
		rc = cua_cli_usage("plot");
		goto out;
	}
	o.n_baselines = 1;
	snprintf(o.baselines[0], sizeof(o.baselines[0]), "%s", g.baseline);
	o.resamples = 0;
	g.runs = cua_results_load_many(dirs, n, "cuarena plot", stderr, err, sizeof(err));
	if (!g.runs) {
		fprintf(stderr, "cuarena plot: %s\n", err);
		rc = CUA_EXIT_USAGE;
		goto out;
	}
	g.n = n;
	g.s = calloc((size_t)n, sizeof(*g.s));
	CUA_ASSERT(g.s);
	for (int r = 0; r < n; r++)
		cua_scores_compute(g.runs[r], &o, &g.s[r]);
	if (cua_mkdirs(g.p.out, err, sizeof(err)) != CUA_OK) {
		fprintf(stderr, "cuarena plot: %s\n", err);
		rc = CUA_EXIT_ENV;
		goto out;
	}
	char gp[CUA_PATH_BUF];
	if (!cua_plot_find_gnuplot(gp, sizeof(gp))) {
		fprintf(stderr, "cuarena plot: no gnuplot: install gnuplot-nox (tools/deps.sh) "
		                "or set CUARENA_GNUPLOT\n");
		rc = CUA_EXIT_ENV;
		goto out;
	}
	fastp(&g);
	dist(&g);
	bars(&g);
	roofline(&g);
	if (g.failed)
		rc = CUA_EXIT_ENV;
out:
	if (g.s)
		for (int r = 0; r < g.n; r++)
			cua_scores_clear(&g.s[r]);
	free(g.s);
	cua_results_free_many(g.runs, g.n);
	free(dirs);
	return rc;
}
