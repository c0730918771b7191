/* cmd-board.c — `cuarena board RUN... [--md FILE] [--html DIR]`: a leaderboard
 * across agents and agent versions, as markdown and as static HTML: the board, a
 * page per task (every agent's verdict, speedup and kernel, the prompt) and a
 * page per episode (every turn: boards/transcript.h), with one stylesheet and
 * one script beside them (boards/html.h) and nothing fetched from anywhere. */
#include "cli/cli.h"
#include "boards/html.h"
#include "boards/transcript.h"
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
	char slug[128];           /* its folder under episodes/ */
};

struct board {
	int n;
	struct entry *e;          /* sorted by GeoMean vs nvcc, best first */
	int n_tasks;
	char (*tasks)[64];        /* every task any run mentions, sorted */
	char (*pages)[128];       /* each task's page name (HTML only) */
	char **prompts;           /* each task's prompt, the first run's that recorded it */
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
	for (int i = 0; b->prompts && i < b->n_tasks; i++)
		free(b->prompts[i]);
	free(b->prompts);
	free(b->pages);
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

/* ---- HTML ------------------------------------------------------------------------------
 * DIR/index.html          the leaderboard, and the tasks with one cell per agent, each
 *                         linked to that agent's episode of the task
 * DIR/tasks/T.html        a task: every agent's scored kernel and speedup, its prompt
 * DIR/episodes/A/T.html   one agent's episode of a task, every turn (transcript.h)
 * DIR/board.css, board.js shared by every page (html.h)
 * One page per episode keeps the index as small as its table, whatever the sources. */

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

/* A text cell, escaped. */
static void td_text(FILE *f, const char *s)
{
	fputs("<td>", f);
	cua_fput_esc(f, s, CUA_ESC_HTML);
	fputs("</td>", f);
}

/* Names made from ids and labels that two different ones may share ("a/b" and
 * "a-b"): the later one gets "-2", "-3" ... so no page overwrites another. */
static void unique_name(char (*names)[128], int n, const char *from, char *out)
{
	char base[112];
	cua_html_file_name(from, base, sizeof(base));
	snprintf(out, 128, "%s", base);
	for (int k = 2;; k++) {
		bool taken = false;
		for (int i = 0; i < n && !taken; i++)
			taken = !strcmp(names[i], out);
		if (!taken)
			return;
		snprintf(out, 128, "%s-%d", base, k);
	}
}

/* Each task's page name and each entry's folder, unique; the prompts, none yet. */
static void name_pages(struct board *b)
{
	b->pages = cua_xcalloc((size_t)b->n_tasks + 1, sizeof(*b->pages));
	for (int i = 0; i < b->n_tasks; i++)
		unique_name(b->pages, i, b->tasks[i], b->pages[i]);
	char (*slugs)[128] = cua_xcalloc((size_t)b->n + 1, sizeof(*slugs));
	for (int k = 0; k < b->n; k++) {
		unique_name(slugs, k, b->e[k].label, slugs[k]);
		snprintf(b->e[k].slug, sizeof(b->e[k].slug), "%s", slugs[k]);
	}
	free(slugs);
	b->prompts = cua_xcalloc((size_t)b->n_tasks + 1, sizeof(*b->prompts));
}

/* The index of task id in b->tasks (sorted), -1 when no run mentions it. */
static int task_slot(const struct board *b, const char *id)
{
	const char (*hit)[64] = bsearch(id, b->tasks, (size_t)b->n_tasks, sizeof(*b->tasks),
	                                cmp_id);
	return hit ? (int)(hit - b->tasks) : -1;
}

/* The link from the board's top to entry e's episode of task slot i, at its
 * scored turn when it has one. */
static void episode_href(FILE *f, const struct board *b, const struct entry *e, int i,
                         const char *up, int turn)
{
	fprintf(f, "%sepisodes/%s/%s.html", up, e->slug, b->pages[i]);
	if (turn)
		fprintf(f, "#turn-%d", turn);
}

/* DIR/index.html: the board, then the tasks with one cell per agent. */
static enum cua_status write_index(const char *dir, const struct board *b, char *err,
                                   size_t errlen)
{
	FILE *f = cua_html_open(dir, "index.html", err, errlen);
	if (!f)
		return CUA_E_IO;
	cua_html_head(f, "cuarena leaderboard", "");
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
	fprintf(f, "</tbody>\n</table>\n<h2>Tasks</h2>\n<p class=\"note\">A task opens its page "
	           "(every agent's kernel, the prompt); a cell opens that agent's episode of "
	           "the task, turn by turn: sources, diffs, verdicts, feedback.</p>\n"
	           "<table id=\"tasks\" class=\"sortable\">\n<thead><tr><th>Task</th>"
	           "<th>Level</th><th>Best</th><th>Best speedup</th><th>Correct</th>");
	for (int k = 0; k < b->n; k++) {
		fputs("<th>", f);
		cua_fput_esc(f, b->e[k].label, CUA_ESC_HTML);
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
	for (int i = 0; i < b->n_tasks; i++) {
		const char *id = b->tasks[i];
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
		fprintf(f, "<tr><td data-v=\"");
		cua_fput_esc(f, id, CUA_ESC_HTML);
		fprintf(f, "\"><a href=\"tasks/%s.html\">", b->pages[i]);
		cua_fput_esc(f, id, CUA_ESC_HTML);
		fprintf(f, "</a></td><td class=\"num\" data-v=\"%d\">%d</td>", level, level);
		td_text(f, best ? best->label : "—");
		td_num(f, "%.2f", best_x, "&times;");
		fprintf(f, "<td class=\"num\" data-v=\"%d\">%d of %d</td>", ok, ok, present);
		/* the agent x task cells: the scored speedup, or the verdict */
		for (int k = 0; k < b->n; k++) {
			const struct cua_task_score *t = task_score(&b->e[k], id);
			if (!t) {
				fputs("<td class=\"na\" data-v=\"\">—</td>", f);
				continue;
			}
			const char *msg;
			const char *v = verdict_of(&b->e[k], t, &msg);
			bool timed = t->correct && isfinite(t->speedup[NVCC]);
			if (timed)
				fprintf(f, "<td class=\"num\" data-v=\"%.6g\">", t->speedup[NVCC]);
			else
				fputs("<td data-v=\"\">", f);
			fputs("<a class=\"", f);
			fputs(t->correct ? "ok" : "bad", f);
			fputs("\" href=\"", f);
			episode_href(f, b, &b->e[k], i, "", t->turn);
			fputs("\" title=\"", f);
			cua_fput_esc(f, msg[0] ? msg : v, CUA_ESC_HTML);
			fputs("\">", f);
			if (timed)
				fprintf(f, "%.2f&times;", t->speedup[NVCC]);
			else
				cua_fput_esc(f, t->correct ? "ok" : v, CUA_ESC_HTML);
			fputs("</a></td>", f);
		}
		fputs("</tr>\n", f);
	}
	fprintf(f, "</tbody>\n</table>\n");
	cua_html_tail(f, "");
	return cua_html_close(f, dir, "index.html", err, errlen);
}

/* DIR/T.html, task slot i's page. */
static enum cua_status write_task(const char *dir, const struct board *b, int i, char *err,
                                  size_t errlen)
{
	const char *id = b->tasks[i];
	char page[160], title[200];
	snprintf(page, sizeof(page), "%s.html", b->pages[i]);
	FILE *f = cua_html_open(dir, page, err, errlen);
	if (!f)
		return CUA_E_IO;
	snprintf(title, sizeof(title), "%s — cuarena", id);
	cua_html_head(f, title, "../");
	fprintf(f, "<p><a href=\"../index.html\">&larr; leaderboard</a></p>\n<h1>");
	cua_fput_esc(f, id, CUA_ESC_HTML);
	fprintf(f, "</h1>\n<p class=\"note\">Each agent's scored evaluation (%s). The "
	           "fastest correct kernel is highlighted and shown first. An agent's "
	           "episode opens from its turn; <a href=\"#prompt\">the prompt</a> is "
	           "below.</p>\n",
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
	           "<th>vs library</th><th>%%SOL</th><th>Episode</th></tr></thead>\n<tbody>\n");
	for (int k = 0; k < b->n; k++) {
		const struct entry *e = &b->e[k];
		const struct cua_task_score *t = task_score(e, id);
		const struct cua_results_task *tr = t ? cua_results_find(e->run, id) : NULL;
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
		if (t && t->turn) {
			fprintf(f, "<td class=\"num\" data-v=\"%d\"><a href=\"", t->turn);
			episode_href(f, b, e, i, "../", t->turn);
			fprintf(f, "\">%d</a></td>", t->turn);
		} else
			fputs("<td class=\"num\" data-v=\"\">—</td>", f);
		td_num(f, "%.2f", t ? t->speedup[NVCC] : NAN, "&times;");
		td_num(f, "%.2f", t ? t->speedup[LIB] : NAN, "&times;");
		td_num(f, "%.1f", t ? t->pct_sol : NAN, "%");
		if (tr) {
			int turns = 0;
			for (int j = 0; j < tr->n_evals; j++)
				turns = tr->evals[j].turn > turns ? tr->evals[j].turn : turns;
			fputs("<td><a href=\"", f);
			episode_href(f, b, e, i, "../", 0);
			fprintf(f, "\">%d turn%s</a></td>", turns, turns == 1 ? "" : "s");
		} else
			fputs("<td class=\"na\">—</td>", f);
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
			fputs("</summary>\n<pre><code class=\"src\">", f);
			if (code)
				cua_fput_esc(f, code, CUA_ESC_HTML);
			else
				fputs("(no code in trajectories.jsonl for this turn)", f);
			fputs("</code></pre>\n</details>\n", f);
			free(code);
		}
	fputs("<h2 id=\"prompt\">The task's prompt</h2>\n", f);
	if (b->prompts[i]) {
		fputs("<p class=\"note\">What the agent was shown at turn 1 (<code>cuarena show</code>'s "
		      "text when the run was made).</p>\n<pre class=\"text\">", f);
		cua_fput_esc(f, b->prompts[i], CUA_ESC_HTML);
		fputs("</pre>\n", f);
	} else
		fputs("<p class=\"note\">No run of this board recorded it (no turn 1 with its "
		      "observation).</p>\n", f);
	cua_html_tail(f, "../");
	return cua_html_close(f, dir, page, err, errlen);
}

/* Entry e's episode pages, one per task its run mentions; the first prompt seen
 * for a task becomes the one its page shows. */
static enum cua_status write_episodes(const char *dir, struct board *b, struct entry *e,
                                      char *err, size_t errlen)
{
	char sub[CUA_PATH_BUF];
	struct cua_transcript *tr = NULL;
	enum cua_status st = cua_pathf(sub, sizeof(sub), err, errlen, "%s/episodes/%s", dir,
	                               e->slug);
	if (st == CUA_OK)
		st = cua_mkdirs(sub, err, errlen);
	if (st == CUA_OK)
		st = cua_transcript_load(e->run, &tr, err, errlen);
	for (int j = 0; st == CUA_OK && j < e->run->n_tasks; j++) {
		const struct cua_results_task *t = &e->run->tasks[j];
		int i = task_slot(b, t->id);
		if (i < 0)
			continue;
		const struct cua_turn_text *first = cua_transcript_turn(tr, t, 1);
		if (!b->prompts[i] && first && first->observation && first->observation[0])
			b->prompts[i] = cua_xstrdup(first->observation);
		const struct cua_task_score *ts = task_score(e, t->id);
		char page[160], title[300], task_href[160];
		snprintf(page, sizeof(page), "%s.html", b->pages[i]);
		snprintf(task_href, sizeof(task_href), "../../tasks/%s.html", b->pages[i]);
		snprintf(title, sizeof(title), "%s — %s — cuarena", t->id, e->label);
		FILE *f = cua_html_open(sub, page, err, errlen);
		if (!f) {
			st = CUA_E_IO;
			break;
		}
		cua_html_head(f, title, "../../");
		struct cua_episode_page ep = {
			.tr = tr, .task = t, .label = e->label, .up = "../../",
			.task_href = task_href, .prompt = b->prompts[i],
			.scored_turn = ts ? ts->turn : 0,
		};
		cua_transcript_write(f, &ep);
		cua_html_tail(f, "../../");
		st = cua_html_close(f, sub, page, err, errlen);
	}
	cua_transcript_free(tr);
	return st;
}

/* The whole HTML board under dir: episodes first, since they find the prompts the
 * task pages show. */
static enum cua_status write_html(const char *dir, struct board *b, char *err, size_t errlen)
{
	char sub[CUA_PATH_BUF];
	name_pages(b);
	snprintf(sub, sizeof(sub), "%s/tasks", dir);
	enum cua_status st = cua_mkdirs(sub, err, errlen);
	if (st == CUA_OK)
		st = cua_html_write_assets(dir, err, errlen);
	for (int k = 0; st == CUA_OK && k < b->n; k++)
		st = write_episodes(dir, b, &b->e[k], err, errlen);
	if (st == CUA_OK)
		st = write_index(dir, b, err, errlen);
	for (int i = 0; st == CUA_OK && i < b->n_tasks; i++)
		st = write_task(sub, b, i, err, errlen);
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
