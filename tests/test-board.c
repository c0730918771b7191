/* test-board.c — `cuarena board`: the markdown and static HTML leaderboard, its
 * per-task pages and its episode pages (transcripts: every turn's source, diff,
 * verdict, feedback), checked as files and then in a real browser (headless
 * Chromium: screenshots and the DOM after the page's script ran: sorting,
 * highlighting, diffs, and no text of a run turned into markup). The browser
 * tests skip when chromium is absent (tools/deps.sh installs it). */
#include <criterion/criterion.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuarena-test.h"
#include "boards/transcript.h"

#include <cjson/cJSON.h>

/* tmp is made by make_board, after any skip check, so a skipped test leaves
 * nothing behind. */
TestSuite(board, .fini = tmp_remove);

/* Builds the board of basic (alpha v1), beta (beta v2) and weighted
 * (cuda-agent paper) into tmp/html and tmp/board.md. */
static void make_board(void)
{
	char cmd[8192];
	int status;
	tmp_make();
	snprintf(cmd, sizeof(cmd), "board tests/data/results/basic tests/data/results/beta "
	                           "tests/data/results/weighted --html %s/html --md %s/board.md",
	         tmp, tmp);
	char *out = run_cuarena(cmd, &status);
	cr_assert_eq(status, 0, "%s", out);
	free(out);
}

/* True when a, b, c occur in s in that order. */
static bool in_order(const char *s, const char *a, const char *b, const char *c)
{
	const char *x = strstr(s, a), *y = x ? strstr(x, b) : NULL, *z = y ? strstr(y, c) : NULL;
	return z != NULL;
}

/* ---- files ---------------------------------------------------------------------------- */

Test(board, the_markdown_ranks_runs_by_geomean)
{
	make_board();
	char *md = tmp_read("board.md");
	cr_expect(strstr(md, "| Rank | Agent | Version | GPU | GeoMean | Fast@1 | Fast@1.5 | "
	                     "Correct | %SOL | Tasks | Date |") != NULL, "%s", md);
	cr_expect(strstr(md, "| 2 | beta | v2 | NVIDIA H200 | 1.87 [") != NULL, "%s", md);
	cr_expect(strstr(md, "] | 80.0 | 60.0 | 80.0 | 83.5 | 5 | 2026-11-30 |") != NULL, "%s", md);
	cr_expect(in_order(md, "| 1 | cuda-agent |", "| 2 | beta |", "| 3 | alpha |"), "%s", md);
	free(md);
}

/* Every page of tmp/html (found by find) and its assets, each checked by fn. */
static void each_page(void (*fn)(const char *rel, const char *text))
{
	int status;
	char cmd[4300];
	snprintf(cmd, sizeof(cmd), "cd '%s/html' && find . -type f | sort", tmp);
	char *list = sh(cmd, &status), *save = NULL;
	cr_assert_eq(status, 0);
	int n = 0;
	for (char *line = strtok_r(list, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char rel[4200];
		snprintf(rel, sizeof(rel), "html/%s", line + 2);
		char *text = tmp_read(rel);
		fn(rel, text);
		free(text);
		n++;
	}
	cr_assert_gt(n, 3, "the board wrote pages");
	free(list);
}

static void no_external_resource(const char *rel, const char *text)
{
	static const char *const external[] = {"src=\"http", "href=\"http", "src=\"//",
	                                       "href=\"//", "@import", "url(", "fetch(",
	                                       "XMLHttpRequest"};
	for (size_t i = 0; i < CUA_ARRAY_LEN(external); i++)
		cr_expect(strstr(text, external[i]) == NULL, "%s has '%s'", rel, external[i]);
}

Test(board, the_html_needs_nothing_but_its_own_files)
{
	make_board();
	each_page(no_external_resource);
	char *html = tmp_read("html/index.html");
	cr_expect(strstr(html, "<link rel=\"stylesheet\" href=\"board.css\">") != NULL);
	cr_expect(strstr(html, "<script src=\"board.js\"></script>") != NULL);
	cr_expect(strstr(html, "<a href=\"tasks/L1-001-sgemm.html\">L1/001-sgemm</a>") != NULL);
	free(html);
	char *js = tmp_read("html/board.js");
	cr_expect(strstr(js, "addEventListener('click'") != NULL, "the headers sort on click");
	/* the script builds text nodes from text: no way for data to become markup */
	static const char *const sinks[] = {"innerHTML", "outerHTML", "insertAdjacentHTML",
	                                    "document.write", "eval(", "Function("};
	for (size_t i = 0; i < CUA_ARRAY_LEN(sinks); i++)
		cr_expect(strstr(js, sinks[i]) == NULL, "board.js uses %s", sinks[i]);
	free(js);
	char *page = tmp_read("html/episodes/beta-v2/L1-001-sgemm.html");
	cr_expect(strstr(page, "<link rel=\"stylesheet\" href=\"../../board.css\">") != NULL);
	cr_expect(strstr(page, "<script src=\"../../board.js\"></script>") != NULL);
	free(page);
}

Test(board, each_task_has_a_page_with_every_agents_kernel)
{
	make_board();
	char *page = tmp_read("html/tasks/L1-001-sgemm.html");
	/* the winner (beta, 2.70x) is highlighted and its kernel escaped */
	cr_expect(strstr(page, "<tr class=\"win\"><td>beta</td>") != NULL, "%s", page);
	cr_expect(strstr(page, "// L1/001-sgemm, turn 1: a&lt;b &amp;&amp; c&gt;d, "
	                       "&quot;quoted&quot;") != NULL, "%s", page);
	cr_expect(strstr(page, "a<b") == NULL, "nothing of the kernel is left unescaped");
	cr_expect(strstr(page, "<details open><summary>beta v2 — turn 1, ok, 2.70&times; "
	                       "vs nvcc</summary>") != NULL, "%s", page);
	/* alpha's scored turn (2 of 3) opens its episode at that turn */
	cr_expect(strstr(page, "<a href=\"../episodes/alpha-v1/L1-001-sgemm.html#turn-2\">2</a>")
	          != NULL, "%s", page);
	cr_expect(strstr(page, "<a href=\"../episodes/alpha-v1/L1-001-sgemm.html\">3 turns</a>")
	          != NULL, "%s", page);
	/* the prompt is turn 1's observation of the first run that has one */
	cr_expect(strstr(page, "<h2 id=\"prompt\">The task's prompt</h2>") != NULL);
	free(page);
	struct stat st;
	char path[4200];
	snprintf(path, sizeof(path), "%s/html/tasks/L3-002-b.html", tmp);
	cr_expect_eq(stat(path, &st), 0, "every task of every run has a page");
}

Test(board, each_agent_task_cell_opens_that_episode)
{
	make_board();
	char *html = tmp_read("html/index.html");
	cr_expect(strstr(html, "<th>alpha v1</th>") && strstr(html, "<th>beta v2</th>") &&
	          strstr(html, "<th>cuda-agent paper</th>"), "a column per agent\n%s", html);
	/* scored at turn 2, 1.50x: the cell says so and opens the episode there */
	cr_expect(strstr(html, "<td class=\"num\" data-v=\"1.5\"><a class=\"ok\" href=\"episodes/"
	                       "alpha-v1/L1-001-sgemm.html#turn-2\" title=\"ok\">1.50&times;</a>"
	                       "</td>") != NULL, "%s", html);
	/* never correct: the last verdict, its message as the title */
	cr_expect(strstr(html, "<a class=\"bad\" href=\"episodes/alpha-v1/L1-025-softmax.html\" "
	                       "title=\"the nan output\">nan_output</a>") != NULL, "%s", html);
	free(html);
	struct stat st;
	char path[4200];
	snprintf(path, sizeof(path), "%s/html/episodes/alpha-v1/L1-001-sgemm.html", tmp);
	cr_expect_eq(stat(path, &st), 0, "the cell's episode page exists");
}

/* ---- transcripts ---------------------------------------------------------------------- */

/* The board of tests/data/results/hostile: every text of its episode is an
 * attempt to put markup or script into the page (make-fixtures.py). */
static void make_hostile_board(void)
{
	char cmd[8192];
	int status;
	tmp_make();
	snprintf(cmd, sizeof(cmd), "board tests/data/results/hostile --html %s/html", tmp);
	char *out = run_cuarena(cmd, &status);
	cr_assert_eq(status, 0, "%s", out);
	free(out);
}

#define HOSTILE_EPISODE "episodes/mallory-script--v-1-/L1-021-relu.html"

static int count(const char *s, const char *what)
{
	int n = 0;
	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

static void only_our_markup(const char *rel, const char *text)
{
	if (strstr(rel, ".html") == NULL)
		return;
	/* the one script element is the board's own; no image, no handler */
	cr_expect_eq(count(text, "<script"), 1, "%s: a <script> that is not board.js", rel);
	cr_expect(strstr(text, "<script src=\"") != NULL, "%s", rel);
	cr_expect(strstr(text, "<img") == NULL, "%s: an <img> element", rel);
	cr_expect(strstr(text, "<b>") == NULL && strstr(text, "<b ") == NULL, "%s: a <b>", rel);
	cr_expect(strstr(text, "onerror=\"") == NULL, "%s: an onerror attribute", rel);
}

Test(board, no_text_of_a_run_becomes_markup_in_any_page)
{
	make_hostile_board();
	each_page(only_our_markup);
	char *page = tmp_read("html/" HOSTILE_EPISODE);
	cr_expect(strstr(page, "&lt;/script&gt;&lt;script&gt;document.body.appendChild(") != NULL,
	          "the source is shown as text\n%s", page);
	cr_expect(strstr(page, "&lt;img src=x onerror=&quot;document.body.setAttribute(") != NULL);
	cr_expect(strstr(page, "mallory&lt;script&gt; v&quot;1&quot;") != NULL, "the label");
	free(page);
	/* a task id is a file name made safe, and text in the page */
	char *index = tmp_read("html/index.html");
	cr_expect(strstr(index, "<a href=\"tasks/L1-099--img-src-x-onerror-alert-1--.html\">"
	                        "L1/099-&lt;img src=x onerror=alert(1)&gt;</a>") != NULL, "%s",
	          index);
	free(index);
}

Test(board, the_reply_shown_is_the_reply_without_its_code)
{
	static const struct {
		const char *reply, *code, *want;
	} cases[] = {
		{"Here:\n```cuda\nint x;\n```\nDone.", "int x;\n", "Here:\n```cuda\n[src]```\nDone."},
		{"```cuda\nint x;\n```", "int x;\n", NULL},             /* nothing but the code */
		{"```c++\nint x;\n```\n\n", "int x;\n", NULL},
		{"I stop.", NULL, "I stop."},                          /* no code at all */
		{"prose and a different int y;", "int x;\n", "prose and a different int y;"},
		{"", "int x;\n", NULL},
		{NULL, "int x;\n", NULL},
	};
	for (size_t i = 0; i < CUA_ARRAY_LEN(cases); i++) {
		char *got = cua_transcript_prose(cases[i].reply, cases[i].code, "[src]");
		if (!cases[i].want)
			cr_expect_null(got, "case %zu: %s", i, got);
		else
			cr_expect(got && !strcmp(got, cases[i].want), "case %zu: %s", i,
			          got ? got : "(null)");
		free(got);
	}
}

/* The board reads a run through the results reader and its rules: a torn line is
 * skipped with a warning naming its file, line and bytes. */
Test(board, a_run_folder_is_read_by_the_results_readers_rules)
{
	char cmd[8192];
	int status;
	tmp_make();
	snprintf(cmd, sizeof(cmd), "board tests/data/results/torn --html %s/html", tmp);
	char *out = run_cuarena(cmd, &status);
	cr_expect_eq(status, 0, "%s", out);
	cr_expect(strstr(out, "trajectories.jsonl: line 4: torn last line skipped") != NULL, "%s",
	          out);
	free(out);
	char *page = tmp_read("html/episodes/alpha-v1/L1-021-relu.html");
	cr_expect(strstr(page, "id=\"turn-3\"") != NULL, "the three whole turns are shown");
	free(page);
	/* a line torn in the middle (a failed write an older writer left): skipped
	 * and named with its bytes, never the whole folder refused (issue 26) */
	snprintf(cmd, sizeof(cmd), "board tests/data/results/bad-json --html %s/bad", tmp);
	out = run_cuarena(cmd, &status);
	cr_expect_eq(status, 0, "%s", out);
	cr_expect(strstr(out, "bad-json/evals.jsonl: line 3: 47 bytes torn by a failed write") !=
	          NULL, "%s", out);
	free(out);
}

/* docs/board/ is the board of the committed H200 run, as the README says: made
 * again here, it must come out the same (tools/readme-figures.sh writes it). */
Test(board, the_committed_sample_board_is_what_board_makes_of_the_sample_run)
{
	char cmd[8192];
	int status;
	tmp_make();
	snprintf(cmd, sizeof(cmd), "board examples/runs/2026-11-29-h200-replay --html %s/html", tmp);
	char *out = run_cuarena(cmd, &status);
	cr_assert_eq(status, 0, "%s", out);
	free(out);
	snprintf(cmd, sizeof(cmd), "diff -r -q '%s/docs/board' '%s/html' 2>&1 | head -5", root(),
	         tmp);
	out = sh(cmd, &status);
	cr_expect_str_empty(out, "docs/board/ is not what `cuarena board` makes of the sample run "
	                    "now (tools/readme-figures.sh remakes it):\n%s", out);
	free(out);
}

/* ---- in the browser ----------------------------------------------------------------- */

static const char *chromium(void)
{
	static char path[4096];
	static const char *const names[] = {"chromium", "chromium-browser", "google-chrome"};
	const char *env = getenv("CUARENA_CHROMIUM");
	if (env && access(env, X_OK) == 0)
		return env;
	for (size_t i = 0; i < CUA_ARRAY_LEN(names); i++) {
		const char *p = getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin";
		while (*p) {
			const char *colon = strchr(p, ':');
			int n = colon ? (int)(colon - p) : (int)strlen(p);
			snprintf(path, sizeof(path), "%.*s/%s", n, p, names[i]);
			if (access(path, X_OK) == 0)
				return path;
			p += n + (colon != NULL);
		}
	}
	cr_skip_test("chromium not found: install it (tools/deps.sh: apt-get install chromium) "
	             "to check the board in a browser");
	return NULL;
}

/* The DOM of tmp/html/PAGE after its scripts ran (heap). */
static char *dom(const char *page)
{
	char cmd[8192];
	int status;
	snprintf(cmd, sizeof(cmd), "timeout 120 '%s' --headless --no-sandbox --disable-gpu "
	                           "--user-data-dir=%s/profile --dump-dom 'file://%s/html/%s' "
	                           "2>/dev/null", chromium(), tmp, tmp, page);
	char *out = sh(cmd, &status);
	cr_assert_eq(status, 0, "chromium --dump-dom %s: exit %d", page, status);
	return out;
}

/* A screenshot of tmp/html/PAGE, w x h, into tmp/NAME: checked to be a PNG of
 * that size with more in it than a blank page. */
static void screenshot(const char *page, const char *name, unsigned w, unsigned h)
{
	const char *bin = chromium();
	char cmd[8192], png[4200];
	int status;
	snprintf(png, sizeof(png), "%s/%s", tmp, name);
	snprintf(cmd, sizeof(cmd), "timeout 120 '%s' --headless --no-sandbox --disable-gpu "
	                           "--user-data-dir=%s/profile --hide-scrollbars "
	                           "--screenshot=%s --window-size=%u,%u 'file://%s/html/%s' 2>&1",
	         bin, tmp, png, w, h, tmp, page);
	free(sh(cmd, &status));
	cr_expect_eq(status, 0);
	struct stat st;
	cr_assert_eq(stat(png, &st), 0, "no screenshot of %s", page);
	cr_expect_gt(st.st_size, 20000, "a rendered %s is more than a blank page (%ld bytes)", page,
	             (long)st.st_size);
	unsigned char head[24];
	FILE *f = fopen(png, "rb");
	cr_assert_not_null(f);
	cr_assert_eq(fread(head, 1, sizeof(head), f), sizeof(head));
	fclose(f);
	cr_expect(!memcmp(head + 1, "PNG", 3), "%s is not a PNG", png);
	unsigned gw = (unsigned)head[16] << 24 | head[17] << 16 | head[18] << 8 | head[19];
	unsigned gh = (unsigned)head[20] << 24 | head[21] << 16 | head[22] << 8 | head[23];
	cr_expect(gw == w && gh == h, "%ux%u", gw, gh);
}

Test(board, chromium_renders_the_board_to_a_screenshot)
{
	chromium();
	make_board();
	screenshot("index.html", "board.png", 1280, 900);
}

Test(board, the_dom_holds_the_ranked_rows_and_their_values)
{
	chromium();
	make_board();
	char *d = dom("index.html");
	cr_expect(in_order(d, "<td>cuda-agent</td>", "<td>beta</td>", "<td>alpha</td>"),
	          "ranked by GeoMean: cuda-agent 2.60, beta 1.87, alpha 1.45\n%s", d);
	cr_expect(strstr(d, "<td>beta</td><td>v2</td><td>NVIDIA H200</td>"
	                    "<td class=\"num\" data-v=\"1.87") != NULL, "%s", d);
	cr_expect(strstr(d, ">80.0%</td>") != NULL);
	cr_expect(strstr(d, ">2.60×") != NULL, "%s", d);
	free(d);
}

Test(board, clicking_sort_works_in_the_browser)
{
	chromium();
	make_board();
	/* #sort=N[-desc] runs the same sort a header click runs, on load */
	char *d = dom("index.html#sort=1");
	cr_expect(in_order(d, "<td>alpha</td>", "<td>beta</td>", "<td>cuda-agent</td>"),
	          "by Agent, ascending\n%s", d);
	cr_expect(strstr(d, "<th aria-sort=\"ascending\">Agent</th>") != NULL, "%s", d);
	free(d);
	d = dom("index.html#sort=4");
	cr_expect(in_order(d, "<td>alpha</td>", "<td>beta</td>", "<td>cuda-agent</td>"),
	          "by GeoMean, ascending\n%s", d);
	free(d);
	d = dom("index.html#sort=8-desc");
	cr_expect(in_order(d, "<td>beta</td>", "<td>alpha</td>", "<td>cuda-agent</td>"),
	          "by %%SOL, descending; cuda-agent has none and sorts last\n%s", d);
	free(d);
}

Test(board, the_task_page_shows_every_agent_and_the_winning_kernel)
{
	chromium();
	make_board();
	char *d = dom("tasks/L1-021-relu.html");
	cr_expect(strstr(d, "<tr class=\"win\"><td>beta</td>") != NULL, "%s", d);
	cr_expect(in_order(d, "<td>cuda-agent</td>", "not in this run", "</tr>"), "%s", d);
	cr_expect(strstr(d, "a&lt;b &amp;&amp; c&gt;d") != NULL, "the code is text, not markup");
	free(d);
}

/* ---- transcripts in the browser ------------------------------------------------------ */

/* The section of turn k in a DOM dump (heap): from its <section> to the next. */
static char *section(const char *d, int k)
{
	char open[64];
	snprintf(open, sizeof(open), "id=\"turn-%d\">", k);
	const char *a = strstr(d, open);
	cr_assert_not_null(a, "no section for turn %d", k);
	const char *b = strstr(a, "</section>");
	cr_assert_not_null(b);
	return strndup(a, (size_t)(b - a));
}

Test(board, chromium_shows_every_turn_of_an_episode)
{
	chromium();
	make_hostile_board();
	char *d = dom(HOSTILE_EPISODE);
	/* nothing the run holds ran as script or became an element */
	cr_expect(strstr(d, "id=\"pwned\"") == NULL, "a kernel's <script> ran\n%s", d);
	cr_expect(strstr(d, "data-pwned=\"1\"") == NULL, "an <img onerror> ran\n%s", d);
	cr_expect(strstr(d, "<img") == NULL);
	cr_expect(in_order(d, "id=\"turn-1\"", "id=\"turn-2\"", "id=\"turn-3\"") &&
	          strstr(d, "id=\"turn-4\""), "every turn in order\n%s", d);
	cr_expect(strstr(d, "<section class=\"turn best\" id=\"turn-3\">") != NULL, "%s", d);
	cr_expect_eq(count(d, "<section class=\"turn best\""), 1, "one best turn");
	cr_expect(strstr(d, "<tr class=\"best\"><td><a href=\"#turn-3\">3</a> <span class=\"badge\">"
	                    "best</span>") != NULL, "the overview marks it too\n%s", d);

	char *t1 = section(d, 1);
	/* turn 1 was shown the prompt, which is on the task page */
	cr_expect(strstr(t1, "Shown: <a href=\"../../tasks/L1-021-relu.html#prompt\">the task's "
	                     "prompt</a>") != NULL, "%s", t1);
	/* the source, highlighted by the page's script, its text intact */
	cr_expect(strstr(t1, "<code class=\"src hl\" id=\"src-1\"><span class=\"p\">#include "
	                     "\"cuarena.h\"</span>") != NULL, "%s", t1);
	cr_expect(strstr(t1, "<span class=\"k\">__global__</span> <span class=\"t\">void</span> "
	                     "relu_kernel(") != NULL, "%s", t1);
	cr_expect(strstr(t1, "<span class=\"b\">blockIdx</span>.x") != NULL, "%s", t1);
	cr_expect(strstr(t1, "<span class=\"c\">/* &lt;/script&gt;&lt;script&gt;document.body."
	                     "appendChild(document.createElement('b')).id='pwned'&lt;/script&gt; */"
	                     "</span>") != NULL, "the attack is a comment, as text\n%s", t1);
	/* verdict and message, reward, tokens, latency; no speedup when it failed */
	cr_expect(strstr(t1, "<span class=\"bad\">compile_error</span>: <span class=\"msg\">nvcc "
	                     "failed: expected a ';' &lt;img src=x onerror=\"document.body."
	                     "setAttribute('data-pwned','1')\"&gt;</span>") != NULL, "%s", t1);
	cr_expect(strstr(t1, "<tr><th>Reward</th><td>-1</td></tr>") != NULL, "%s", t1);
	cr_expect(strstr(t1, "<tr><th>Tokens</th><td>1200 in, 340 out</td></tr>") != NULL, "%s",
	          t1);
	cr_expect(strstr(t1, "<tr><th>Latency</th><td>3.5 s</td></tr>") != NULL, "%s", t1);
	cr_expect(strstr(t1, "<th>Speedup</th>") == NULL, "%s", t1);
	/* the reply's prose, its code cut out; then the feedback the agent was shown */
	cr_expect(strstr(t1, "Here is my kernel &lt;/script&gt;&lt;script&gt;") != NULL &&
	          strstr(t1, "[the source above]") != NULL, "%s", t1);
	cr_expect(in_order(t1, "Feedback shown to the agent", "# Turn 1 of 4: compile_error",
	                   "feedback with markup: &lt;/details&gt;&lt;/section&gt;"), "%s", t1);
	free(t1);

	char *t2 = section(d, 2);
	/* the diff from turn 1: one line changed, the rest context */
	cr_expect(strstr(t2, "Diff from turn 1 <small class=\"count\">+1 −1</small>") != NULL,
	          "%s", t2);
	cr_expect(in_order(t2, "<span class=\"del\">- \tif (i &lt; n) y[i] = x[i] &gt; 0.f ? x[i] "
	                       ": 0.f</span>",
	                   "<span class=\"add\">+ \tif (i &lt; n) y[i] = x[i] &gt; 0.f ? x[i] : "
	                   "0.f;</span>", "</pre>"), "%s", t2);
	cr_expect(strstr(t2, "<span class=\"hunk\">⋯ 4 unchanged lines</span>") != NULL, "%s", t2);
	cr_expect(strstr(t2, "The agent's reply") == NULL, "a reply of only code shows no prose");
	free(t2);

	char *t3 = section(d, 3);
	cr_expect(strstr(t3, "<span class=\"badge\">best</span>") != NULL);
	/* each speedup with the interval of the two sides' quartiles */
	cr_expect(strstr(t3, "<tr><th>Speedup</th><td>vs nvcc 1.250× <small>[1.225, 1.275]</small>"
	                     "<br>vs cudnn/relu 1.100× <small>[") != NULL, "%s", t3);
	cr_expect(strstr(t3, "<tr><th>Time</th><td>4.8 ms <small>[4.752, 4.848]</small> "
	                     "<small>n 50</small></td></tr>") != NULL, "%s", t3);
	cr_expect(strstr(t3, "<tr><th>Reward</th><td>2</td></tr>") != NULL, "%s", t3);
	cr_expect(strstr(t3, "<tr><th>%SOL</th><td>88.0 %</td></tr>") != NULL, "%s", t3);
	cr_expect(strstr(t3, "3000 in, 410 out") != NULL && strstr(t3, "5.0 s") != NULL, "%s", t3);
	cr_expect(strstr(t3, "<span class=\"add\">+ \tif (i &lt;= n - 1)") != NULL, "%s", t3);
	free(t3);

	char *t4 = section(d, 4);
	cr_expect(strstr(t4, "No source: the reply held no code.") != NULL, "%s", t4);
	cr_expect(strstr(t4, "I am done. &lt;/script&gt;") != NULL, "%s", t4);
	cr_expect(strstr(t4, "500 ms") != NULL, "%s", t4);
	cr_expect(strstr(t4, "No feedback was shown: the episode ended here (agent stopped).") !=
	          NULL, "%s", t4);
	free(t4);
	free(d);
}

Test(board, chromium_renders_a_transcript_to_a_screenshot)
{
	chromium();
	make_hostile_board();
	screenshot(HOSTILE_EPISODE, "transcript.png", 1280, 1600);
}

Test(board, chromium_shows_the_task_prompt_as_text)
{
	chromium();
	make_hostile_board();
	char *d = dom("tasks/L1-021-relu.html");
	cr_expect(strstr(d, "id=\"pwned\"") == NULL && strstr(d, "data-pwned=\"1\"") == NULL &&
	          strstr(d, "<img") == NULL, "%s", d);
	cr_expect(in_order(d, "<h2 id=\"prompt\">The task's prompt</h2>", "<pre class=\"text\">"
	                      "# Task L1/021-relu: ReLU", "The prompt, with markup in it: "
	                      "&lt;/pre&gt;&lt;/script&gt;&lt;script&gt;"), "%s", d);
	/* the agent's scored kernel, highlighted, and its episode one click away */
	cr_expect(strstr(d, "<code class=\"src hl\">") != NULL, "%s", d);
	cr_expect(strstr(d, "href=\"../" HOSTILE_EPISODE "#turn-3\">3</a>") != NULL, "%s", d);
	free(d);
}

/* ---- size ------------------------------------------------------------------------------ */

/* text of about `bytes` bytes: kernel-like lines, varied by `salt` */
static void filler(struct cua_buf *b, size_t bytes, int salt, const char *kind)
{
	size_t start = b->len;
	for (int i = 0; b->len - start < bytes; i++)
		cua_buf_printf(b, "%s %d.%d: acc += x[i * stride + %d] * w[%d]; /* a < b && c > d */\n",
		               kind, salt, i, (i * 7 + salt) % 97, i % 13);
}

/* A run of n_tasks x 3 turns with the text sizes of an LLM's episodes: a 7 KB
 * prompt (the committed H200 run's mean is 7.1 KB), 4 KB kernels that change
 * a little each turn, 1 KB of prose around each, 1.5 KB of feedback. */
static void write_big_run(const char *dir, int n_tasks)
{
	char path[4600], err[CUA_ERR_LEN];
	char *tmpl = NULL;
	cr_assert_eq(cua_read_file("tests/data/results/basic/baselines.jsonl", 1 << 20, &tmpl,
	                           NULL, err, sizeof(err)), CUA_OK, "%s", err);
	*strchr(tmpl, '\n') = '\0';
	cJSON *base_line = cJSON_Parse(tmpl);
	cr_assert_not_null(base_line);
	free(tmpl);
	const cJSON *base_eval = cJSON_GetObjectItem(base_line, "eval");
	cr_assert_eq(cua_mkdirs(dir, err, sizeof(err)), CUA_OK, "%s", err);
	FILE *files[3];
	static const char *const names[] = {"baselines.jsonl", "evals.jsonl", "trajectories.jsonl"};
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		files[i] = fopen(path, "w");
		cr_assert_not_null(files[i]);
	}
	cJSON *run = cJSON_CreateObject(), *tasks = cJSON_AddArrayToObject(run, "tasks");
	for (int k = 0; k < n_tasks; k++) {
		char id[64];
		snprintf(id, sizeof(id), "L1/%03d-synthetic-task", k + 1);
		cJSON_AddItemToArray(tasks, cJSON_CreateString(id));
		cJSON *bl = cJSON_CreateObject();
		cJSON_AddNumberToObject(bl, "schema", 2);
		cJSON_AddStringToObject(bl, "task", id);
		cJSON_AddItemToObject(bl, "eval", cJSON_Duplicate(base_eval, true));
		char *line = cJSON_PrintUnformatted(bl);
		fprintf(files[0], "%s\n", line);
		free(line);
		cJSON_Delete(bl);
		struct cua_buf prompt = {0};
		filler(&prompt, 7000, k, "prompt");
		for (int turn = 1; turn <= 3; turn++) {
			struct cua_buf code = {0}, reply = {0}, feedback = {0};
			filler(&code, 4000, k * 10 + (turn == 3), "code");
			cua_buf_printf(&code, "// turn %d\n", turn);
			filler(&reply, 1000, turn, "prose");
			cua_buf_printf(&reply, "```cuda\n%s```\n", code.s);
			filler(&feedback, 1500, turn, "feedback");
			cJSON *ev = cJSON_CreateObject();
			cJSON_AddNumberToObject(ev, "schema", 2);
			cJSON_AddStringToObject(ev, "task", id);
			cJSON_AddNumberToObject(ev, "turn", turn);
			cJSON_AddNumberToObject(ev, "reward", turn == 3 ? 2 : -1);
			cJSON *e = cJSON_Duplicate(base_eval, true);
			cJSON_ReplaceItemInObject(e, "subject", cJSON_CreateString("candidate"));
			if (turn < 3) {
				cJSON_ReplaceItemInObject(e, "verdict", cJSON_CreateString("wrong_output"));
				cJSON_DeleteItemFromObject(e, "timing");
			} else {
				cJSON *sp = cJSON_AddObjectToObject(ev, "speedup");
				cJSON_AddNumberToObject(sp, "nvcc", 1.0);
			}
			cJSON_AddItemToObject(ev, "eval", e);
			line = cJSON_PrintUnformatted(ev);
			fprintf(files[1], "%s\n", line);
			free(line);
			cJSON_Delete(ev);
			cJSON *tl = cJSON_CreateObject();
			cJSON_AddNumberToObject(tl, "schema", 2);
			cJSON_AddStringToObject(tl, "kind", "turn");
			cJSON_AddStringToObject(tl, "task", id);
			cJSON_AddNumberToObject(tl, "turn", turn);
			cJSON_AddStringToObject(tl, "observation", turn == 1 ? prompt.s : feedback.s);
			cJSON_AddStringToObject(tl, "reply", reply.s);
			cJSON_AddStringToObject(tl, "code", code.s);
			cJSON_AddStringToObject(tl, "verdict", turn == 3 ? "ok" : "wrong_output");
			cJSON *tok = cJSON_AddObjectToObject(tl, "tokens");
			cJSON_AddNumberToObject(tok, "prompt", 3000 * turn);
			cJSON_AddNumberToObject(tok, "completion", 1200);
			cJSON_AddNumberToObject(tl, "latency_s", 20.5);
			line = cJSON_PrintUnformatted(tl);
			fprintf(files[2], "%s\n", line);
			free(line);
			cJSON_Delete(tl);
			free(code.s);
			free(reply.s);
			free(feedback.s);
		}
		fprintf(files[2], "{\"schema\":2,\"kind\":\"end\",\"task\":\"%s\",\"turns\":3,"
		                  "\"reason\":\"turn limit\",\"best_turn\":3,\"final_turn\":3}\n", id);
		free(prompt.s);
	}
	for (int i = 0; i < 3; i++)
		fclose(files[i]);
	cJSON_AddNumberToObject(run, "schema", 2);
	cJSON *agent = cJSON_AddObjectToObject(run, "agent");
	cJSON_AddStringToObject(agent, "name", "synthetic");
	cJSON_AddStringToObject(agent, "version", "1");
	cJSON_AddNumberToObject(run, "turns", 3);
	char *text = cJSON_Print(run);
	snprintf(path, sizeof(path), "%s/run.json", dir);
	cr_assert_eq(cua_write_file(path, text, strlen(text), err, sizeof(err)), CUA_OK);
	free(text);
	cJSON_Delete(run);
	cJSON_Delete(base_line);
}

static long bytes_under(const char *rel)
{
	char cmd[4400];
	int status;
	snprintf(cmd, sizeof(cmd), "du -sb --apparent-size '%s/%s' | cut -f1", tmp, rel);
	char *out = sh(cmd, &status);
	cr_assert_eq(status, 0);
	long n = atol(out);
	free(out);
	return n;
}

/* The size issue 31 asks to state: a board of 250 tasks x 3 turns. One page per
 * episode keeps the index to its table (a row per task), and every page to one
 * episode's text (~3x its turns' sources plus feedback). */
Test(board, a_board_of_250_tasks_by_3_turns_stays_small)
{
	char cmd[4400], dir[256];
	int status;
	tmp_make();
	snprintf(dir, sizeof(dir), "%s/big", tmp);
	write_big_run(dir, 250);
	snprintf(cmd, sizeof(cmd), "board %s/big --html %s/html", tmp, tmp);
	free(run_cuarena(cmd, &status));
	cr_assert_eq(status, 0);
	long run = bytes_under("big"), index = bytes_under("html/index.html");
	long total = bytes_under("html"), episodes = bytes_under("html/episodes");
	long tasks = bytes_under("html/tasks");
	snprintf(cmd, sizeof(cmd), "find '%s/html' -name '*.html' -printf '%%s\\n' | sort -n | "
	                           "tail -1", tmp);
	char *out = sh(cmd, &status);
	long largest = atol(out);
	free(out);
	fprintf(stderr, "board of 250 tasks x 3 turns: run folder %ld bytes; board %ld bytes "
	                "(index.html %ld, 250 task pages %ld, 250 episode pages %ld; largest "
	                "page %ld)\n", run, total, index, tasks, episodes, largest);
	cr_expect_lt(index, 128 * 1024, "index.html: %ld bytes", index);
	cr_expect_lt(largest, 128 * 1024, "the largest page: %ld bytes", largest);
	cr_expect_lt(total, 12L << 20, "the board: %ld bytes", total);
}
