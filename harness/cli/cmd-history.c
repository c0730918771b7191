/* cmd-history.c — `cuarena history DIR [--out DIR]`: the run folders under DIR in
 * order of creation, with geomean, pass rate and fast_1 per run, and a trend plot
 * (plots/trend.gp) for nightly runs. */
#include "cli/cli.h"
#include "results/metrics.h"
#include "boards/plot-gnuplot.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <cjson/cJSON.h>

struct row {
	struct cua_results *run;
	struct cua_scores s;
};

static int cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c = strcmp(x->run->created, y->run->created);
	return c ? c : strcmp(x->run->run_id, y->run->run_id);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void put(FILE *f, const char *fmt, double v)
{
	if (isfinite(v))
		fprintf(f, fmt, v);
	else
		fputs("—", f);
}

static void label_of(const struct cua_results *r, char *buf, size_t len)
{
	snprintf(buf, len, "%.16s", r->created[0] ? r->created : r->run_id);
	char *t = strchr(buf, 'T');
	if (t)
		*t = ' ';
}

static int trend_plot(struct cua_cli *cli, const char *out, const char *format,
                      const struct row *rows, int n)
{
	char err[CUA_ERR_LEN], path[CUA_PATH_BUF];
	struct cua_plot p = {.root = cli->root, .out = out, .format = format};
	if (cua_mkdirs(out, err, sizeof(err)) != CUA_OK) {
		fprintf(stderr, "cuarena history: %s\n", err);
		return CUA_EXIT_ENV;
	}
	cua_plot_data_path(&p, "trend", path, sizeof(path));
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "cuarena history: %s: cannot write: %s\n", path, strerror(errno));
		return CUA_EXIT_ENV;
	}
	fprintf(f, "# index \"date\" geomean pass_pct fast1_pct \"run\"\n");
	for (int i = 0; i < n; i++) {
		const struct cua_group *g = &rows[i].s.overall;
		char label[32];
		label_of(rows[i].run, label, sizeof(label));
		fprintf(f, "%d \"%s\" ", i, label);
		if (isfinite(g->v.geomean[0]))
			fprintf(f, "%.6g", g->v.geomean[0]);
		else
			fputs("NaN", f);
		fprintf(f, " %.4f %.4f \"", g->v.pass * 100, g->v.fast_p[0][3] * 100);
		cua_fput_esc(f, rows[i].run->run_id, CUA_ESC_GNUPLOT);
		fputs("\"\n", f);
	}
	fclose(f);
	char vars[256];
	snprintf(vars, sizeof(vars), "baseline = \"nvcc\"\nnrows = %d\nwidth = %d\n", n,
	         n > 12 ? (n * 70 > 4000 ? 4000 : n * 70) : 960);
	if (cua_plot_run(&p, "trend", vars, err, sizeof(err)) != CUA_OK) {
		fprintf(stderr, "cuarena history: %s\n", err);
		return CUA_EXIT_ENV;
	}
	fprintf(stderr, "cuarena history: wrote %s/trend.%s\n", out, format);
	return CUA_EXIT_OK;
}

int cmd_history(struct cua_cli *cli, int argc, char **argv)
{
	const char *dir = NULL, *out = NULL, *format = "png";
	char err[CUA_ERR_LEN];
	struct row *rows = NULL;
	char **names = NULL;
	int n = 0, nn = 0, rc = CUA_EXIT_OK;

	for (int i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(argv[i], "--out") && v)
			out = argv[++i];
		else if (!strcmp(argv[i], "--format") && v) {
			if (strcmp(v, "png") && strcmp(v, "svg")) {
				fprintf(stderr, "cuarena history: --format takes png or svg, not '%s'\n", v);
				return CUA_EXIT_USAGE;
			}
			format = argv[++i];
		} else if (argv[i][0] == '-' || dir)
			return cua_cli_usage("history");
		else
			dir = argv[i];
	}
	if (!dir)
		return cua_cli_usage("history");
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "cuarena history: %s: cannot open: %s\n", dir, strerror(errno));
		return CUA_EXIT_USAGE;
	}
	struct dirent *e;
	int cap = 0;
	while ((e = readdir(d)) != NULL) {
		char sub[CUA_PATH_BUF];
		struct stat st;
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name);
		if (stat(sub, &st) != 0 || !S_ISDIR(st.st_mode))
			continue;
		if (nn == cap) {
			cap = cap ? cap * 2 : 16;
			names = realloc(names, (size_t)cap * sizeof(*names));
			CUA_ASSERT(names);
		}
		names[nn++] = strdup(sub);
	}
	closedir(d);
	if (nn > 1)
		qsort(names, (size_t)nn, sizeof(*names), cmp_name);
	rows = calloc((size_t)nn + 1, sizeof(*rows));
	CUA_ASSERT(rows);
	struct cua_score_opts o;
	cua_score_opts_init(&o);
	o.n_baselines = 1;
	o.resamples = 0;
	for (int i = 0; i < nn; i++) {
		char rj[CUA_PATH_BUF];
		struct stat st;
		snprintf(rj, sizeof(rj), "%s/" CUA_RESULTS_RUN_JSON, names[i]);
		if (stat(rj, &st) != 0) {
			fprintf(stderr, "cuarena history: warning: %s: no run.json: not a run folder, "
			                "skipped\n", names[i]);
			continue;
		}
		struct cua_results **one = cua_results_load_many(&names[i], 1, "cuarena history", stderr, err,
		                                     sizeof(err));
		if (!one) {
			fprintf(stderr, "cuarena history: warning: %s: skipped\n", err);
			continue;
		}
		rows[n].run = one[0];
		free(one);
		cua_scores_compute(rows[n].run, &o, &rows[n].s);
		n++;
	}
	if (n == 0) {
		fprintf(stderr, "cuarena history: %s: no run folders (with a run.json) in it\n", dir);
		rc = CUA_EXIT_USAGE;
		goto out;
	}
	qsort(rows, (size_t)n, sizeof(*rows), cmp_row);
	if (cli->json) {
		cJSON *j = cJSON_CreateArray();
		for (int i = 0; i < n; i++)
			cJSON_AddItemToArray(j, cua_scores_to_json(rows[i].run, &rows[i].s));
		cua_cli_print_json(j);
	} else {
		printf("GeoMean: geometric mean speedup vs nvcc over correct tasks; Fast@1: %% of "
		       "tasks correct and faster than nvcc; Pass: %% correct. Oldest first.\n\n"
		       "| Date | Run | Agent | Version | GPU | Tasks | Pass | Fast@1 | GeoMean | "
		       "Δ GeoMean |\n| --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: |\n");
		for (int i = 0; i < n; i++) {
			const struct cua_results *r = rows[i].run;
			const struct cua_group *g = &rows[i].s.overall;
			char label[32];
			label_of(r, label, sizeof(label));
			printf("| %s | ", label);
			cua_fput_esc(stdout, r->run_id, CUA_ESC_MD);
			fputs(" | ", stdout);
			cua_fput_esc(stdout, r->agent, CUA_ESC_MD);
			fputs(" | ", stdout);
			cua_fput_esc(stdout, r->version, CUA_ESC_MD);
			fputs(" | ", stdout);
			cua_fput_esc(stdout, r->device[0] ? r->device : "?", CUA_ESC_MD);
			printf(" | %d | ", g->n);
			put(stdout, "%.1f", g->v.pass * 100);
			fputs(" | ", stdout);
			put(stdout, "%.1f", g->v.fast_p[0][3] * 100);
			fputs(" | ", stdout);
			put(stdout, "%.2f", g->v.geomean[0]);
			fputs(" | ", stdout);
			double prev = i ? rows[i - 1].s.overall.v.geomean[0] : NAN;
			put(stdout, "%+.2f", g->v.geomean[0] - prev);
			fputs(" |\n", stdout);
		}
	}
	if (out)
		rc = trend_plot(cli, out, format, rows, n);
out:
	for (int i = 0; i < n; i++) {
		cua_scores_clear(&rows[i].s);
		cua_results_free(rows[i].run);
	}
	free(rows);
	for (int i = 0; i < nn; i++)
		free(names[i]);
	free(names);
	return rc;
}
