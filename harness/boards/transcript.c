/* transcript.c — an episode's page: its turn lines read through the results
 * reader's walk, and the page written from them and the loaded run
 * (transcript.h). Every string from the run is written escaped. */
#include "boards/transcript.h"

#include <math.h>
#include <string.h>
#include <cjson/cJSON.h>

/* ---- loading the turn lines --------------------------------------------------------- */

/* A string member as valid UTF-8 (heap), NULL when absent or not a string. */
static char *clean_str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!cJSON_IsString(v))
		return NULL;
	return cua_utf8_clean(v->valuestring, strlen(v->valuestring), NULL);
}

/* A finite number member, NaN otherwise. */
static double num_or_nan(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(v) && isfinite(v->valuedouble) ? v->valuedouble : NAN;
}

/* The index of task id in run->tasks, -1 when the run has no such task. */
static int task_index(const struct cua_results *run, const char *id)
{
	const struct cua_results_task *t = cua_results_find(run, id);
	return t ? (int)(t - run->tasks) : -1;
}

/* One line of trajectories.jsonl: a turn's text kept, an end line's rewards. The
 * loader has checked these lines already; what does not fit is skipped. */
static enum cua_status take_line(void *ctx, const cJSON *o, const struct cua_results_at *at,
                                 char *err, size_t errlen)
{
	struct cua_transcript *tr = ctx;
	const char *kind = cua_json_str(o, "kind"), *id = cua_json_str(o, "task");
	int task = task_index(tr->run, id);
	if (task < 0)
		return CUA_OK;
	if (!strcmp(kind, "end")) {
		const cJSON *rw = cJSON_GetObjectItemCaseSensitive(o, "rewards");
		int n = cJSON_IsArray(rw) ? cJSON_GetArraySize(rw) : 0;
		if (n <= 0)
			return CUA_OK;
		free(tr->rewards[task]);
		tr->rewards[task] = cua_xcalloc((size_t)n, sizeof(double));
		tr->n_rewards[task] = n;
		for (int i = 0; i < n; i++) {
			const cJSON *v = cJSON_GetArrayItem(rw, i);
			tr->rewards[task][i] = cJSON_IsNumber(v) ? v->valuedouble : NAN;
		}
		return CUA_OK;
	}
	double turn = num_or_nan(o, "turn");
	if (strcmp(kind, "turn") || !(turn >= 1 && turn <= 1e9) || turn != floor(turn))
		return CUA_OK;
	if (tr->n == tr->cap) {
		tr->cap = tr->cap ? tr->cap * 2 : 64;
		tr->turns = cua_xrealloc(tr->turns, (size_t)tr->cap * sizeof(*tr->turns));
	}
	struct cua_turn_text *x = &tr->turns[tr->n++];
	memset(x, 0, sizeof(*x));
	x->task = task;
	x->turn = (int)turn;
	x->line = at->line;
	x->observation = clean_str(o, "observation");
	x->reply = clean_str(o, "reply");
	x->code = clean_str(o, "code");
	const cJSON *tok = cJSON_GetObjectItemCaseSensitive(o, "tokens");
	x->prompt_tokens = num_or_nan(tok, "prompt");
	x->completion_tokens = num_or_nan(tok, "completion");
	x->latency_s = num_or_nan(o, "latency_s");
	x->recovered = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "recovered"));
	return CUA_OK;
}

/* By task, turn, then line: the last of equal (task, turn) is the later line. */
static int cmp_turn(const void *a, const void *b)
{
	const struct cua_turn_text *x = a, *y = b;
	if (x->task != y->task)
		return x->task < y->task ? -1 : 1;
	if (x->turn != y->turn)
		return x->turn < y->turn ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

enum cua_status cua_transcript_load(const struct cua_results *run, struct cua_transcript **out,
                                    char *err, size_t errlen)
{
	char path[CUA_PATH_BUF];
	struct cua_transcript *tr = cua_xcalloc(1, sizeof(*tr));
	tr->run = run;
	tr->rewards = cua_xcalloc((size_t)run->n_tasks + 1, sizeof(*tr->rewards));
	tr->n_rewards = cua_xcalloc((size_t)run->n_tasks + 1, sizeof(*tr->n_rewards));
	*out = NULL;
	snprintf(path, sizeof(path), "%s/" CUA_RESULTS_TRAJ, run->dir);
	enum cua_status st = cua_results_each_line(path, CUA_RESULTS_SKIP_TORN, take_line, tr,
	                                           NULL, err, errlen);
	if (st != CUA_OK) {
		cua_transcript_free(tr);
		return st;
	}
	if (tr->n > 1)
		qsort(tr->turns, (size_t)tr->n, sizeof(*tr->turns), cmp_turn);
	*out = tr;
	return CUA_OK;
}

void cua_transcript_free(struct cua_transcript *tr)
{
	if (!tr)
		return;
	for (int i = 0; i < tr->n; i++) {
		free(tr->turns[i].observation);
		free(tr->turns[i].reply);
		free(tr->turns[i].code);
	}
	for (int i = 0; i < tr->run->n_tasks; i++)
		free(tr->rewards[i]);
	free(tr->rewards);
	free(tr->n_rewards);
	free(tr->turns);
	free(tr);
}

const struct cua_turn_text *cua_transcript_turn(const struct cua_transcript *tr,
                                                const struct cua_results_task *t, int turn)
{
	int task = (int)(t - tr->run->tasks), lo = 0, hi = tr->n;
	/* the last line of (task, turn): the first index past it, minus one */
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		const struct cua_turn_text *x = &tr->turns[mid];
		if (x->task < task || (x->task == task && x->turn <= turn))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	const struct cua_turn_text *x = &tr->turns[lo - 1];
	return x->task == task && x->turn == turn ? x : NULL;
}

/* ---- the reply's prose ----------------------------------------------------------------- */

char *cua_transcript_prose(const char *reply, const char *code, const char *mark)
{
	if (!reply || !reply[0])
		return NULL;
	struct cua_buf b = {0};
	const char *at = code && code[0] ? strstr(reply, code) : NULL;
	if (at)
		cua_buf_printf(&b, "%.*s%s%s", (int)(at - reply), reply, mark, at + strlen(code));
	else
		cua_buf_printf(&b, "%s", reply);
	/* nothing left but the mark, fences with their language word, and space */
	bool prose = false;
	for (const char *p = b.s; *p && !prose;) {
		if (at && !strncmp(p, mark, strlen(mark)))
			p += strlen(mark);
		else if (!strncmp(p, "```", 3)) {
			p += 3;
			while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '+')
				p++;
		} else if (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
			p++;
		else
			prose = true;
	}
	if (!prose) {
		free(b.s);
		return NULL;
	}
	return b.s;
}

/* ---- the page -------------------------------------------------------------------------- */

/* Text from the run, escaped for HTML text and attribute values alike. */
static void esc(FILE *f, const char *s)
{
	cua_fput_esc(f, s, CUA_ESC_HTML);
}

/* The evaluation of a turn: the last line of it (a resumed run may repeat one). */
static const struct cua_rec *eval_of(const struct cua_results_task *t, int turn)
{
	const struct cua_rec *r = NULL;
	for (int i = 0; i < t->n_evals; i++)
		if (t->evals[i].turn == turn)
			r = &t->evals[i];
	return r;
}

/* The turn's verdict: its evaluation's, else its turn line's, else "not recorded". */
static const char *verdict_text(const struct cua_results_task *t, const struct cua_rec *r,
                                int turn)
{
	if (r)
		return cua_verdict_name(r->verdict);
	const char *v = NULL;
	for (int i = 0; i < t->n_turns; i++)
		if (t->turns[i].turn == turn && t->turns[i].verdict != CUA_VERDICT_COUNT)
			v = cua_verdict_name(t->turns[i].verdict);
	return v ? v : "not recorded";
}

static bool verdict_ok(const struct cua_results_task *t, const struct cua_rec *r, int turn)
{
	return !strcmp(verdict_text(t, r, turn), "ok");
}

/* Every turn the run has of the task (an evaluation or a turn line), ascending. */
static int turns_of(const struct cua_results_task *t, int **out)
{
	int n = 0, cap = t->n_evals + t->n_turns + 1;
	int *v = cua_xcalloc((size_t)cap, sizeof(*v));
	for (int i = 0; i < t->n_evals + t->n_turns; i++) {
		int k = i < t->n_evals ? t->evals[i].turn : t->turns[i - t->n_evals].turn, j = 0;
		while (j < n && v[j] < k)
			j++;
		if (j < n && v[j] == k)
			continue;
		memmove(v + j + 1, v + j, (size_t)(n - j) * sizeof(*v));
		v[j] = k;
		n++;
	}
	*out = v;
	return n;
}

/* Whether a timed record has quartiles (imported figures may carry zeros). */
static bool quartiles(const struct cua_rec *r)
{
	return r->timed && isfinite(r->ms.q1) && isfinite(r->ms.q3) && r->ms.q1 > 0 &&
	       r->ms.q3 >= r->ms.q1;
}

/* A record's time: median [q1, q3] and the sample count, "—" when untimed. */
static void put_ms(FILE *f, const struct cua_rec *r)
{
	if (!r || !r->timed || !isfinite(r->ms.median)) {
		fputs("—", f);
		return;
	}
	fprintf(f, "%.4g ms", r->ms.median);
	if (quartiles(r))
		fprintf(f, " <small>[%.4g, %.4g]</small>", r->ms.q1, r->ms.q3);
	if (r->ms.n > 0)
		fprintf(f, " <small>n %d</small>", r->ms.n);
}

/* A speedup with the interval its two sides' quartiles give: from the baseline's
 * q1 over the kernel's q3 to its q3 over the kernel's q1 (the middle halves of
 * both sample sets, taken against each other). */
static void put_speedup(FILE *f, const struct cua_results_task *t, const struct cua_rec *r,
                        const struct cua_speedup *s)
{
	if (!isfinite(s->x)) {
		fputs("—", f);
		return;
	}
	fprintf(f, "%.3f&times;", s->x);
	const struct cua_rec *b = cua_results_baseline(t, s->baseline);
	if (b && quartiles(b) && quartiles(r))
		fprintf(f, " <small>[%.3f, %.3f]</small>", b->ms.q1 / r->ms.q3, b->ms.q3 / r->ms.q1);
}

/* A token count, "—" when the agent reported none. */
static void put_count(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.0f", v);
	else
		fputs("—", f);
}

/* The agent's time to answer: seconds, or milliseconds under one. */
static void put_latency(FILE *f, const struct cua_turn_text *x)
{
	if (!x || !isfinite(x->latency_s))
		fputs("—", f);
	else if (x->latency_s < 1)
		fprintf(f, "%.3g ms", x->latency_s * 1e3);
	else
		fprintf(f, "%.1f s", x->latency_s);
}

/* How many lines a source has (a last line without its newline counts). */
static int lines_of(const char *s)
{
	int n = 0;
	for (; s && *s; s++)
		n += *s == '\n' || (s[1] == '\0');
	return n;
}

/* The links up, the title, how the episode ended, and the task's baselines. */
static void write_header(FILE *f, const struct cua_episode_page *p, int best)
{
	const struct cua_results *run = p->tr->run;
	const struct cua_results_task *t = p->task;
	fprintf(f, "<p><a href=\"%sindex.html\">&larr; leaderboard</a> &middot; <a href=\"",
	        p->up);
	esc(f, p->task_href);
	fputs("\">task page</a></p>\n<h1>", f);
	esc(f, t->id);
	fputs(" <small>&mdash; ", f);
	esc(f, p->label);
	fputs("</small></h1>\n<p class=\"note\">Run ", f);
	esc(f, run->run_id);
	fputs(run->device[0] ? " on " : "", f);
	esc(f, run->device);
	if (run->reward[0]) {
		fputs(", reward schedule ", f);
		esc(f, run->reward);
	}
	if (run->turns)
		fprintf(f, ", up to %d turns", run->turns);
	fputs(". ", f);
	if (t->ended) {
		fputs("The episode ended: ", f);
		esc(f, t->end_reason[0] ? t->end_reason : "(no reason given)");
		fputs(". ", f);
	} else
		fputs("The episode has no end line (the run was cut short). ", f);
	if (best)
		fprintf(f, "Best turn: <a href=\"#turn-%d\">%d</a>", best, best);
	else
		fputs("No turn was correct", f);
	if (p->scored_turn && p->scored_turn != best)
		fprintf(f, "; the board scores turn <a href=\"#turn-%d\">%d</a>", p->scored_turn,
		        p->scored_turn);
	fputs(". Speedup = time(baseline) / time(kernel), medians of the judge's samples; "
	      "[lo, hi] pairs each side's quartiles (baseline q1 / kernel q3, q3 / q1).</p>\n", f);
	if (t->n_baselines) {
		fputs("<table class=\"facts wide\"><thead><tr><th>Baseline</th><th>Verdict</th>"
		      "<th>Time: median [q1, q3]</th></tr></thead>\n<tbody>\n", f);
		for (int i = 0; i < t->n_baselines; i++) {
			const struct cua_rec *b = &t->baselines[i];
			if (cua_results_baseline(t, b->subject) != b)
				continue;   /* a later line of the subject is the one read */
			fputs("<tr><td>", f);
			esc(f, b->subject);
			fprintf(f, "%s</td><td class=\"%s\">", b->imported ? " <small>imported</small>" : "",
			        cua_rec_correct(b) ? "ok" : "bad");
			esc(f, cua_verdict_name(b->verdict));
			fputs("</td><td>", f);
			put_ms(f, b);
			fputs("</td></tr>\n", f);
		}
		fputs("</tbody></table>\n", f);
	}
}

/* The turns at a glance, each linked to its section. */
static void write_overview(FILE *f, const struct cua_episode_page *p, const int *turns, int n,
                           int best)
{
	const struct cua_results_task *t = p->task;
	fputs("<table id=\"turns\" class=\"facts wide\"><thead><tr><th>Turn</th><th>Verdict</th>"
	      "<th>Reward</th><th>vs nvcc</th><th>Tokens in / out</th><th>Latency</th></tr>"
	      "</thead>\n<tbody>\n", f);
	for (int i = 0; i < n; i++) {
		const struct cua_rec *r = eval_of(t, turns[i]);
		const struct cua_turn_text *x = cua_transcript_turn(p->tr, t, turns[i]);
		fprintf(f, "<tr%s><td><a href=\"#turn-%d\">%d</a>%s</td><td class=\"%s\">",
		        turns[i] == best ? " class=\"best\"" : "", turns[i], turns[i],
		        turns[i] == best ? " <span class=\"badge\">best</span>" : "",
		        verdict_ok(t, r, turns[i]) ? "ok" : "bad");
		esc(f, verdict_text(t, r, turns[i]));
		fputs("</td><td class=\"num\">", f);
		if (r && isfinite(r->reward))
			fprintf(f, "%g", r->reward);
		else
			fputs("—", f);
		fputs("</td><td class=\"num\">", f);
		double x_nvcc = r ? cua_rec_speedup(r, "nvcc") : NAN;
		if (isfinite(x_nvcc))
			fprintf(f, "%.3f&times;", x_nvcc);
		else
			fputs("—", f);
		fputs("</td><td class=\"num\">", f);
		put_count(f, x ? x->prompt_tokens : NAN);
		fputs(" / ", f);
		put_count(f, x ? x->completion_tokens : NAN);
		fputs("</td><td class=\"num\">", f);
		put_latency(f, x);
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

/* A run's text (escaped) in a <details> under `summary` (the board's own markup). */
static void text_block(FILE *f, const char *summary, const char *text, bool open)
{
	fprintf(f, "<details%s><summary>%s</summary><pre class=\"text\">", open ? " open" : "",
	        summary);
	esc(f, text);
	fputs("</pre></details>\n", f);
}

/* Turn turns[i]'s section: what it was shown first (its first turn only), its facts,
 * its source and the diff from the last turn with one, the reply's prose, and the
 * feedback it got (the next turn's observation). */
static void write_turn(FILE *f, const struct cua_episode_page *p, const int *turns, int n,
                       int i, int best)
{
	const struct cua_results_task *t = p->task;
	int k = turns[i];
	const struct cua_rec *r = eval_of(t, k);
	const struct cua_turn_text *x = cua_transcript_turn(p->tr, t, k);
	const char *v = verdict_text(t, r, k);
	bool ok = verdict_ok(t, r, k);

	fprintf(f, "<section class=\"turn%s\" id=\"turn-%d\">\n<h2>Turn %d <span class=\"%s\">",
	        k == best ? " best" : "", k, k, ok ? "ok" : "bad");
	esc(f, v);
	fputs("</span>", f);
	if (k == best)
		fputs(" <span class=\"badge\">best</span>", f);
	if (k == p->scored_turn && k != best)
		fputs(" <span class=\"badge\">scored</span>", f);
	fputs("</h2>\n", f);

	/* what the agent was shown before its first turn (later ones: the feedback
	 * of the turn before, shown there) */
	const char *shown = x ? x->observation : NULL;
	if (i == 0 && k == 1 && shown && p->prompt && !strcmp(shown, p->prompt)) {
		fputs("<p>Shown: <a href=\"", f);
		esc(f, p->task_href);
		fputs("#prompt\">the task's prompt</a> (on the task page).</p>\n", f);
	} else if (i == 0 && shown && shown[0])
		text_block(f, k == 1 ? "Shown to the agent: the prompt" : "Shown to the agent", shown,
		           false);

	fputs("<table class=\"facts\"><tbody>\n<tr><th>Verdict</th><td>", f);
	fprintf(f, "<span class=\"%s\">", ok ? "ok" : "bad");
	esc(f, v);
	fputs("</span>", f);
	if (r && r->message[0]) {
		fputs(": <span class=\"msg\">", f);
		esc(f, r->message);
		fputs("</span>", f);
	}
	fputs("</td></tr>\n<tr><th>Reward</th><td>", f);
	if (r && isfinite(r->reward))
		fprintf(f, "%g", r->reward);
	else
		fputs("—", f);
	int task = (int)(t - p->tr->run->tasks);
	if (p->tr->rewards[task] && k <= p->tr->n_rewards[task] &&
	    isfinite(p->tr->rewards[task][k - 1]) &&
	    !(r && p->tr->rewards[task][k - 1] == r->reward))
		fprintf(f, " <small>(settled at the episode's end: %g)</small>",
		        p->tr->rewards[task][k - 1]);
	fputs("</td></tr>\n", f);
	bool any = false;
	for (int j = 0; r && j < r->n_speedups; j++)
		any = any || isfinite(r->speedups[j].x);
	if (any) {
		fputs("<tr><th>Speedup</th><td>", f);
		for (int j = 0; j < r->n_speedups; j++) {
			fputs(j ? "<br>vs " : "vs ", f);
			esc(f, r->speedups[j].baseline);
			fputs(" ", f);
			put_speedup(f, t, r, &r->speedups[j]);
		}
		fputs("</td></tr>\n", f);
	}
	if (r && r->timed) {
		fputs("<tr><th>Time</th><td>", f);
		put_ms(f, r);
		fputs("</td></tr>\n", f);
	}
	if (r && isfinite(r->pct_sol))
		fprintf(f, "<tr><th>%%SOL</th><td>%.1f %%</td></tr>\n", r->pct_sol);
	fputs("<tr><th>Tokens</th><td>", f);
	put_count(f, x ? x->prompt_tokens : NAN);
	fputs(" in, ", f);
	put_count(f, x ? x->completion_tokens : NAN);
	fputs(" out</td></tr>\n<tr><th>Latency</th><td>", f);
	put_latency(f, x);
	fputs("</td></tr>\n</tbody></table>\n", f);

	const char *code = x ? x->code : NULL;
	if (code && code[0]) {
		fprintf(f, "<details open><summary>Source <small>(%d lines)</small></summary>"
		           "<pre><code class=\"src\" id=\"src-%d\">", lines_of(code), k);
		esc(f, code);
		fputs("</code></pre></details>\n", f);
		int prev = 0;
		for (int j = i - 1; j >= 0 && !prev; j--) {
			const struct cua_turn_text *y = cua_transcript_turn(p->tr, t, turns[j]);
			if (y && y->code && y->code[0])
				prev = turns[j];
		}
		if (prev)
			fprintf(f, "<details open class=\"diff\" data-from=\"src-%d\" data-to=\"src-%d\">"
			           "<summary>Diff from turn %d <small class=\"count\"></small></summary>"
			           "<pre class=\"diff\"></pre></details>\n", prev, k, prev);
	} else
		fputs("<p class=\"note\">No source: the reply held no code.</p>\n", f);

	char *prose = x ? cua_transcript_prose(x->reply, code, "[the source above]") : NULL;
	if (prose)
		text_block(f, "The agent's reply <small>(its code cut out)</small>", prose, false);
	free(prose);

	/* the feedback on this turn is what the next turn was shown */
	if (i + 1 < n) {
		const struct cua_turn_text *y = cua_transcript_turn(p->tr, t, turns[i + 1]);
		if (y && y->observation && y->observation[0])
			text_block(f, "Feedback shown to the agent", y->observation, true);
		else if (y && y->recovered)
			fputs("<p class=\"note\">The feedback shown to the agent is not recorded: the "
			      "next turn was recovered on a resume from the source left on disk.</p>\n", f);
		else
			fputs("<p class=\"note\">The feedback shown to the agent is not recorded.</p>\n",
			      f);
	} else {
		fputs("<p class=\"note\">No feedback was shown: the episode ended here", f);
		if (t->ended && t->end_reason[0]) {
			fputs(" (", f);
			esc(f, t->end_reason);
			fputs(")", f);
		}
		fputs(".</p>\n", f);
	}
	fputs("</section>\n", f);
}

void cua_transcript_write(FILE *f, const struct cua_episode_page *p)
{
	const struct cua_results_task *t = p->task;
	const struct cua_rec *best_rec = cua_results_scored(t, "nvcc", CUA_PICK_BEST);
	int best = best_rec ? best_rec->turn : 0, *turns = NULL;
	int n = turns_of(t, &turns);
	write_header(f, p, best);
	if (n == 0)
		fputs("<p class=\"note\">The run holds no turn of this task.</p>\n", f);
	else
		write_overview(f, p, turns, n, best);
	for (int i = 0; i < n; i++)
		write_turn(f, p, turns, n, i, best);
	free(turns);
}
