/* cmd-board.c — `cuarena board RUN... [--md FILE] [--html DIR]`: a leaderboard
 * across agents and agent versions, as markdown and as static HTML (inline CSS
 * and a few lines of inline JS for sortable columns; no external resources),
 * with a page per task showing every agent's verdict, speedup and kernel. */
#include "cli/cli.h"
#include "results/metrics.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#define NVCC 0
#define LIB 1

struct entry {
	struct cua_results *run;
	struct cua_scores s;
	char label[160];
};

struct board {
	int n;
	struct entry *e;          /* sorted by GeoMean vs nvcc, best first */
	int n_tasks;
	char (*tasks)[128];       /* every task any run mentions, sorted (ids as results.h) */
};

/* ---- building the board ------------------------------------------------------------ */

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	double gx = x->s.overall.v.geomean[NVCC], gy = y->s.overall.v.geomean[NVCC];
	if (isnan(gx) != isnan(gy))
		return isnan(gx) ? 1 : -1;
	if (gx != gy && !isnan(gx))
		return gx > gy ? -1 : 1;
	if (x->s.overall.v.pass != y->s.overall.v.pass)
		return x->s.overall.v.pass > y->s.overall.v.pass ? -1 : 1;
	return strcmp(x->label, y->label);
}

static int cmp_id(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* One entry per (agent, version, GPU): the latest run by `created` wins. */
static void build(struct board *b, struct cua_results **runs, int n, const struct cua_score_opts *o)
{
	b->e = calloc((size_t)n + 1, sizeof(*b->e));
	CUA_ASSERT(b->e);
	for (int i = 0; i < n; i++) {
		struct cua_results *r = runs[i];
		int k;
		for (k = 0; k < b->n; k++) {
			struct cua_results *q = b->e[k].run;
			if (!strcmp(q->agent, r->agent) && !strcmp(q->version, r->version) &&
			    !strcmp(q->device, r->device))
				break;
		}
		if (k < b->n) {
			struct cua_results *q = b->e[k].run;
			bool newer = strcmp(r->created, q->created) >= 0;
			fprintf(stderr, "cuarena board: %s and %s are both %s %s on %s: keeping the "
			                "later, %s\n", q->dir, r->dir, r->agent, r->version,
			        r->device[0] ? r->device : "an unnamed GPU", newer ? r->dir : q->dir);
			if (!newer)
				continue;
			cua_scores_clear(&b->e[k].s);
		} else
			k = b->n++;
		b->e[k].run = r;
		cua_results_label(r, b->e[k].label, sizeof(b->e[k].label));
		cua_scores_compute(r, o, &b->e[k].s);
	}
	qsort(b->e, (size_t)b->n, sizeof(*b->e), cmp_entry);
	int cap = 0;
	for (int k = 0; k < b->n; k++)
		cap += b->e[k].run->n_tasks;
	b->tasks = calloc((size_t)cap + 1, sizeof(*b->tasks));
	CUA_ASSERT(b->tasks);
	for (int k = 0; k < b->n; k++)
		for (int i = 0; i < b->e[k].run->n_tasks; i++) {
			const char *id = b->e[k].run->tasks[i].id;
			bool seen = false;
			for (int j = 0; j < b->n_tasks && !seen; j++)
				seen = !strcmp(b->tasks[j], id);
			if (!seen)
				snprintf(b->tasks[b->n_tasks++], sizeof(b->tasks[0]), "%s", id);
		}
	qsort(b->tasks, (size_t)b->n_tasks, sizeof(*b->tasks), cmp_id);
}

static void board_free(struct board *b)
{
	for (int k = 0; k < b->n; k++)
		cua_scores_clear(&b->e[k].s);
	free(b->e);
	free(b->tasks);
}

/* The score of task `id` in entry e, NULL if that run does not mention it. */
static const struct cua_task_score *task_score(const struct entry *e, const char *id)
{
	for (int i = 0; i < e->s.n_tasks; i++)
		if (!strcmp(e->s.tasks[i].id, id))
			return &e->s.tasks[i];
	return NULL;
}

/* What a task's outcome was: the scored verdict, else the final one, else
 * "not run". */
static const char *verdict_of(const struct entry *e, const struct cua_task_score *t,
                              const char **message)
{
	*message = "";
	if (!t)
		return "not in this run";
	const struct cua_rec *r = t->rec;
	if (!r) {
		const struct cua_results_task *tr = cua_results_find(e->run, t->id);
		r = tr ? cua_results_scored(tr, "nvcc", CUA_PICK_FINAL) : NULL;
	}
	if (!r)
		return "not run";
	*message = r->message;
	return cua_verdict_name(r->verdict);
}

static void date_of(const struct cua_results *r, char *buf, size_t len)
{
	snprintf(buf, len, "%.10s", r->created[0] ? r->created : "?");
}

/* Task page file name: the id with anything but [A-Za-z0-9._-] made '-'. */
static void page_name(const char *id, char *buf, size_t len)
{
	snprintf(buf, len, "%s", id);
	for (char *p = buf; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' || *p == '-'))
			*p = '-';
}

static bool final(const struct board *b)
{
	return b->n > 0 && b->e[0].s.opts.pick == CUA_PICK_FINAL;
}

/* ---- markdown ------------------------------------------------------------------------ */

static void put_num(FILE *f, const char *fmt, double v)
{
	if (isfinite(v))
		fprintf(f, fmt, v);
	else
		fputs("—", f);
}

static void write_md(FILE *f, const struct board *b)
{
	fprintf(f, "GeoMean: geometric mean speedup vs nvcc over correct tasks (95 %% bootstrap "
	           "interval), levels weighted by task count; Fast@p: %% of tasks correct and "
	           "more than p× faster than nvcc; Correct: %% of tasks correct; %%SOL: median "
	           "fraction of the speed of light over correct tasks. Scored: the %s of each "
	           "task.\n\n", final(b) ? "final turn" : "best correct turn");
	fprintf(f, "| Rank | Agent | Version | GPU | GeoMean | Fast@1 | Fast@1.5 | Correct | "
	           "%%SOL | Tasks | Date |\n");
	fprintf(f, "| ---: | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
	for (int k = 0; k < b->n; k++) {
		const struct entry *e = &b->e[k];
		const struct cua_group *g = &e->s.overall;
		char date[16];
		date_of(e->run, date, sizeof(date));
		fprintf(f, "| %d | ", k + 1);
		cua_fput_esc(f, e->run->agent, CUA_ESC_MD);
		fputs(" | ", f);
		cua_fput_esc(f, e->run->version, CUA_ESC_MD);
		fputs(" | ", f);
		cua_fput_esc(f, e->run->device[0] ? e->run->device : "?", CUA_ESC_MD);
		fputs(" | ", f);
		put_num(f, "%.2f", g->v.geomean[NVCC]);
		if (isfinite(g->lo.geomean[NVCC]))
			fprintf(f, " [%.2f, %.2f]", g->lo.geomean[NVCC], g->hi.geomean[NVCC]);
		fputs(" | ", f);
		put_num(f, "%.1f", g->v.fast_p[NVCC][3] * 100);
		fputs(" | ", f);
		put_num(f, "%.1f", g->v.fast_p[NVCC][4] * 100);
		fputs(" | ", f);
		put_num(f, "%.1f", g->v.pass * 100);
		fputs(" | ", f);
		put_num(f, "%.1f", g->v.median_sol);
		fprintf(f, " | %d | %s |\n", g->n, date);
	}
}

/* ---- HTML ------------------------------------------------------------------------------ */

static const char css[] =
	"body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;"
	"margin:2em auto;max-width:1200px;padding:0 1em;color:#1d2330;background:#fff}\n"
	"h1{font-size:1.6em;margin:.2em 0}h2{font-size:1.2em;margin-top:2em}\n"
	"p.note{color:#555;max-width:60em}\n"
	"table{border-collapse:collapse;margin:1em 0;min-width:60%}\n"
	"th,td{padding:.35em .7em;border-bottom:1px solid #dde1e8;text-align:left;"
	"white-space:nowrap}\n"
	"th{background:#f3f5f9;font-weight:600;cursor:pointer;user-select:none}\n"
	"th:hover{background:#e6eaf2}\n"
	"th[aria-sort=ascending]::after{content:' \\25B2'}th[aria-sort=descending]::after"
	"{content:' \\25BC'}\n"
	"td.num{text-align:right;font-variant-numeric:tabular-nums}\n"
	"tbody tr:nth-child(even){background:#fafbfd}\n"
	"tr.win{background:#e9f7ee !important}\n"
	"small{color:#667}\n"
	".ok{color:#17803d;font-weight:600}.bad{color:#b42318;font-weight:600}.na{color:#889}\n"
	"a{color:#1f5fbf;text-decoration:none}a:hover{text-decoration:underline}\n"
	"details{margin:.6em 0;border:1px solid #dde1e8;border-radius:6px;padding:.4em .8em}\n"
	"summary{cursor:pointer;font-weight:600}\n"
	"pre{background:#f6f8fa;padding:.8em;overflow:auto;font:13px/1.4 'DejaVu Sans Mono',"
	"monospace;max-height:40em}\n";

/* Sortable tables: click a header (ascending, then descending). Cells sort by
 * data-v when present (numbers numerically; empty values last), else by text.
 * index.html#sort=N-desc sorts by column N on load. */
static const char js[] =
	"function cuaSort(table, col, asc) {\n"
	"  var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);\n"
	"  var ths = table.tHead.rows[0].cells;\n"
	"  for (var i = 0; i < ths.length; i++) ths[i].removeAttribute('aria-sort');\n"
	"  ths[col].setAttribute('aria-sort', asc ? 'ascending' : 'descending');\n"
	"  function key(r) { var c = r.cells[col];\n"
	"    return c.hasAttribute('data-v') ? c.getAttribute('data-v') : c.textContent.trim(); }\n"
	"  rows.sort(function (a, b) {\n"
	"    var x = key(a), y = key(b);\n"
	"    if (x === '' || y === '') return (x === '') - (y === '');\n"
	"    var nx = Number(x), ny = Number(y);\n"
	"    var d = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);\n"
	"    return asc ? d : -d;\n"
	"  });\n"
	"  rows.forEach(function (r) { body.appendChild(r); });\n"
	"}\n"
	"document.querySelectorAll('table.sortable').forEach(function (table) {\n"
	"  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {\n"
	"    th.addEventListener('click', function () {\n"
	"      cuaSort(table, col, th.getAttribute('aria-sort') !== 'ascending');\n"
	"    });\n"
	"  });\n"
	"});\n"
	"var m = /sort=(\\d+)(-desc)?/.exec(location.hash);\n"
	"var first = document.querySelector('table.sortable');\n"
	"if (m && first && +m[1] < first.tHead.rows[0].cells.length)\n"
	"  cuaSort(first, +m[1], !m[2]);\n";

static void html_head(FILE *f, const char *title)
{
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	           "<title>");
	cua_fput_esc(f, title, CUA_ESC_HTML);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", css);
}

static void html_tail(FILE *f)
{
	fprintf(f, "<script>\n%s</script>\n</body>\n</html>\n", js);
}

/* A numeric cell: the shown text and its sort key; NaN shows "—" and sorts last. */
static void td_num(FILE *f, const char *fmt, double v, const char *suffix)
{
	if (!isfinite(v)) {
		fputs("<td class=\"num\" data-v=\"\">—</td>", f);
		return;
	}
	fprintf(f, "<td class=\"num\" data-v=\"%.6g\">", v);
	fprintf(f, fmt, v);
	fprintf(f, "%s</td>", suffix);
}

static void td_text(FILE *f, const char *s)
{
	fputs("<td>", f);
	cua_fput_esc(f, s, CUA_ESC_HTML);
	fputs("</td>", f);
}

static FILE *open_out(const char *dir, const char *name, char *err, size_t errlen)
{
	char path[CUA_PATH_BUF];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f)
		cua_errf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
	return f;
}

static enum cua_status write_index(const char *dir, const struct board *b, char *err,
                                   size_t errlen)
{
	FILE *f = open_out(dir, "index.html", err, errlen);
	if (!f)
		return CUA_E_IO;
	html_head(f, "cuarena leaderboard");
	fprintf(f, "<h1>cuarena leaderboard</h1>\n<p class=\"note\">GeoMean: geometric mean "
	           "speedup vs the nvcc reference over correct tasks, levels weighted by task "
	           "count, with its 95&nbsp;%% bootstrap interval. Fast@p: share of tasks that "
	           "are correct and more than p&times; faster than nvcc. Correct: share of "
	           "tasks correct. %%SOL: median fraction of the speed of light over correct "
	           "tasks. Each task is scored by its %s. Click a column to sort.</p>\n",
	        final(b) ? "final turn" : "best correct turn");
	fprintf(f, "<table id=\"board\" class=\"sortable\">\n<thead><tr><th>Rank</th>"
	           "<th>Agent</th><th>Version</th><th>GPU</th><th>GeoMean</th><th>Fast@1</th>"
	           "<th>Fast@1.5</th><th>Correct</th><th>%%SOL</th><th>Tasks</th><th>Date</th>"
	           "</tr></thead>\n<tbody>\n");
	for (int k = 0; k < b->n; k++) {
		const struct entry *e = &b->e[k];
		const struct cua_group *g = &e->s.overall;
		char date[16];
		date_of(e->run, date, sizeof(date));
		fprintf(f, "<tr><td class=\"num\" data-v=\"%d\">%d</td>", k + 1, k + 1);
		td_text(f, e->run->agent);
		td_text(f, e->run->version);
		td_text(f, e->run->device[0] ? e->run->device : "?");
		double gm = g->v.geomean[NVCC];
		if (isfinite(gm)) {
			fprintf(f, "<td class=\"num\" data-v=\"%.6g\">%.2f&times;", gm, gm);
			if (isfinite(g->lo.geomean[NVCC]))
				fprintf(f, " <small>[%.2f, %.2f]</small>", g->lo.geomean[NVCC],
				        g->hi.geomean[NVCC]);
			fputs("</td>", f);
		} else
			fputs("<td class=\"num\" data-v=\"\">—</td>", f);
		td_num(f, "%.1f", g->v.fast_p[NVCC][3] * 100, "%");
		td_num(f, "%.1f", g->v.fast_p[NVCC][4] * 100, "%");
		td_num(f, "%.1f", g->v.pass * 100, "%");
		td_num(f, "%.1f", g->v.median_sol, "%");
		fprintf(f, "<td class=\"num\" data-v=\"%d\">%d</td>", g->n, g->n);
		td_text(f, date);
		fputs("</tr>\n", f);
	}
	fprintf(f, "</tbody>\n</table>\n<h2>Tasks</h2>\n<table id=\"tasks\" class=\"sortable\">\n"
	           "<thead><tr><th>Task</th><th>Level</th><th>Best</th><th>Best speedup</th>"
	           "<th>Correct</th></tr></thead>\n<tbody>\n");
	for (int i = 0; i < b->n_tasks; i++) {
		const char *id = b->tasks[i];
		char page[128];
		const struct entry *best = NULL;
		double best_x = NAN;
		int ok = 0, level = 0, present = 0;
		for (int k = 0; k < b->n; k++) {
			const struct cua_task_score *t = task_score(&b->e[k], id);
			if (!t)
				continue;
			present++;
			level = t->level;
			if (!t->correct)
				continue;
			ok++;
			if (!best || (isfinite(t->speedup[NVCC]) && !(best_x >= t->speedup[NVCC]))) {
				best = &b->e[k];
				best_x = t->speedup[NVCC];
			}
		}
		page_name(id, page, sizeof(page));
		fprintf(f, "<tr><td data-v=\"");
		cua_fput_esc(f, id, CUA_ESC_HTML);
		fprintf(f, "\"><a href=\"tasks/%s.html\">", page);
		cua_fput_esc(f, id, CUA_ESC_HTML);
		fprintf(f, "</a></td><td class=\"num\" data-v=\"%d\">%d</td>", level, level);
		td_text(f, best ? best->label : "—");
		td_num(f, "%.2f", best_x, "&times;");
		fprintf(f, "<td class=\"num\" data-v=\"%d\">%d of %d</td></tr>\n", ok, ok, present);
	}
	fprintf(f, "</tbody>\n</table>\n");
	html_tail(f);
	if (fclose(f) != 0) {
		cua_errf(err, errlen, "%s/index.html: cannot write", dir);
		return CUA_E_IO;
	}
	return CUA_OK;
}

static enum cua_status write_task(const char *dir, const struct board *b, const char *id,
                                  char *err, size_t errlen)
{
	char page[160], title[200];
	page_name(id, page, sizeof(page) - 8);
	strcat(page, ".html");
	FILE *f = open_out(dir, page, err, errlen);
	if (!f)
		return CUA_E_IO;
	snprintf(title, sizeof(title), "%s — cuarena", id);
	html_head(f, title);
	fprintf(f, "<p><a href=\"../index.html\">&larr; leaderboard</a></p>\n<h1>");
	cua_fput_esc(f, id, CUA_ESC_HTML);
	fprintf(f, "</h1>\n<p class=\"note\">Each agent's scored evaluation (%s). The "
	           "fastest correct kernel is highlighted and shown first.</p>\n",
	        final(b) ? "its final turn"
	                 : "its best correct turn; the last turn's verdict when none was correct");

	/* the winner: the highest speedup vs nvcc among correct entries */
	int win = -1;
	for (int k = 0; k < b->n; k++) {
		const struct cua_task_score *t = task_score(&b->e[k], id);
		if (t && t->correct &&
		    (win < 0 || (isfinite(t->speedup[NVCC]) &&
		                 !(task_score(&b->e[win], id)->speedup[NVCC] >= t->speedup[NVCC]))))
			win = k;
	}
	fprintf(f, "<table id=\"agents\" class=\"sortable\">\n<thead><tr><th>Agent</th>"
	           "<th>Version</th><th>Verdict</th><th>Turn</th><th>Speedup vs nvcc</th>"
	           "<th>vs library</th><th>%%SOL</th></tr></thead>\n<tbody>\n");
	for (int k = 0; k < b->n; k++) {
		const struct entry *e = &b->e[k];
		const struct cua_task_score *t = task_score(e, id);
		const char *msg;
		const char *v = verdict_of(e, t, &msg);
		fprintf(f, "<tr%s>", k == win ? " class=\"win\"" : "");
		td_text(f, e->run->agent);
		td_text(f, e->run->version);
		fprintf(f, "<td class=\"%s\" title=\"", !t ? "na" : t->correct ? "ok" : "bad");
		cua_fput_esc(f, msg, CUA_ESC_HTML);
		fputs("\">", f);
		cua_fput_esc(f, v, CUA_ESC_HTML);
		fputs("</td>", f);
		if (t && t->turn)
			fprintf(f, "<td class=\"num\" data-v=\"%d\">%d</td>", t->turn, t->turn);
		else
			fputs("<td class=\"num\" data-v=\"\">—</td>", f);
		td_num(f, "%.2f", t ? t->speedup[NVCC] : NAN, "&times;");
		td_num(f, "%.2f", t ? t->speedup[LIB] : NAN, "&times;");
		td_num(f, "%.1f", t ? t->pct_sol : NAN, "%");
		fputs("</tr>\n", f);
	}
	fprintf(f, "</tbody>\n</table>\n<h2>Kernels</h2>\n");
	for (int pass = 0; pass < 2; pass++)
		for (int k = 0; k < b->n; k++) {
			if ((pass == 0) != (k == win))
				continue;
			const struct entry *e = &b->e[k];
			const struct cua_task_score *t = task_score(e, id);
			if (!t || !t->rec)
				continue;
			const struct cua_results_task *tr = cua_results_find(e->run, id);
			char *code = tr ? cua_results_code(e->run, tr, t->turn) : NULL;
			fprintf(f, "<details%s><summary>", k == win ? " open" : "");
			cua_fput_esc(f, e->label, CUA_ESC_HTML);
			fprintf(f, " — turn %d, %s", t->turn, cua_verdict_name(t->rec->verdict));
			if (isfinite(t->speedup[NVCC]))
				fprintf(f, ", %.2f&times; vs nvcc", t->speedup[NVCC]);
			fputs("</summary>\n<pre><code>", f);
			if (code)
				cua_fput_esc(f, code, CUA_ESC_HTML);
			else
				fputs("(no code in trajectories.jsonl for this turn)", f);
			fputs("</code></pre>\n</details>\n", f);
			free(code);
		}
	html_tail(f);
	if (fclose(f) != 0) {
		cua_errf(err, errlen, "%s/%s: cannot write", dir, page);
		return CUA_E_IO;
	}
	return CUA_OK;
}

static enum cua_status write_html(const char *dir, const struct board *b, char *err,
                                  size_t errlen)
{
	char sub[CUA_PATH_BUF];
	snprintf(sub, sizeof(sub), "%s/tasks", dir);
	enum cua_status st = cua_mkdirs(sub, err, errlen);
	if (st == CUA_OK)
		st = write_index(dir, b, err, errlen);
	for (int i = 0; st == CUA_OK && i < b->n_tasks; i++)
		st = write_task(sub, b, b->tasks[i], err, errlen);
	return st;
}

/* ---- the command ------------------------------------------------------------------------ */

int cmd_board(struct cua_cli *cli, int argc, char **argv)
{
	char err[CUA_ERR_LEN];
	char **dirs = calloc((size_t)argc + 1, sizeof(*dirs));
	const char *md = NULL, *html = NULL;
	struct cua_score_opts o;
	struct board b = {0};
	struct cua_results **runs = NULL;
	int n = 0, rc = CUA_EXIT_OK;

	CUA_ASSERT(dirs);
	cua_score_opts_init(&o);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--md") && i + 1 < argc)
			md = argv[++i];
		else if (!strcmp(argv[i], "--html") && i + 1 < argc)
			html = argv[++i];
		else if (!strcmp(argv[i], "--final"))
			o.pick = CUA_PICK_FINAL;
		else if (argv[i][0] == '-') {
			rc = cua_cli_usage("board");
			goto out;
		} else
			dirs[n++] = argv[i];
	}
	if (n == 0) {
		rc = cua_cli_usage("board");
		goto out;
	}
	runs = cua_results_load_many(dirs, n, "cuarena board", stderr, err, sizeof(err));
	if (!runs) {
		fprintf(stderr, "cuarena board: %s\n", err);
		rc = CUA_EXIT_USAGE;
		goto out;
	}
	build(&b, runs, n, &o);
	if (md) {
		FILE *f = fopen(md, "w");
		if (!f) {
			fprintf(stderr, "cuarena board: %s: cannot write: %s\n", md, strerror(errno));
			rc = CUA_EXIT_ENV;
			goto out;
		}
		write_md(f, &b);
		if (fclose(f) != 0) {
			fprintf(stderr, "cuarena board: %s: cannot write\n", md);
			rc = CUA_EXIT_ENV;
			goto out;
		}
	}
	if (html && write_html(html, &b, err, sizeof(err)) != CUA_OK) {
		fprintf(stderr, "cuarena board: %s\n", err);
		rc = CUA_EXIT_ENV;
		goto out;
	}
	if (!md && !html)
		write_md(stdout, &b);
	else
		printf("board: %d entr%s, %d task%s%s%s%s%s\n", b.n, b.n == 1 ? "y" : "ies",
		       b.n_tasks, b.n_tasks == 1 ? "" : "s", md ? "; markdown " : "", md ? md : "",
		       html ? "; html " : "", html ? html : "");
out:
	board_free(&b);
	cua_results_free_many(runs, n);
	free(dirs);
	return rc;
}
