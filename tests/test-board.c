/* test-board.c — `cuarena board`: the markdown and static HTML leaderboard, its
 * per-task pages and kernel sources, checked as files and then in a real browser
 * (headless Chromium: a screenshot and the DOM after the page's JS ran, sorting
 * included). The browser tests skip when chromium is absent (tools/deps.sh
 * installs it). */
#include <criterion/criterion.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuarena-test.h"

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

Test(board, the_html_is_self_contained_with_a_page_per_task)
{
	make_board();
	char *html = tmp_read("html/index.html");
	static const char *const external[] = {"src=\"http", "href=\"http", "<link", "@import",
	                                       "<script src", "url("};
	for (size_t i = 0; i < CUA_ARRAY_LEN(external); i++)
		cr_expect(strstr(html, external[i]) == NULL, "index.html has '%s'", external[i]);
	cr_expect(strstr(html, "<style>") && strstr(html, "<script>"), "inline CSS and JS");
	cr_expect(strstr(html, "addEventListener('click'") != NULL, "the headers sort on click");
	cr_expect(strstr(html, "<a href=\"tasks/L1-001-sgemm.html\">L1/001-sgemm</a>") != NULL);
	free(html);
	char *page = tmp_read("html/tasks/L1-001-sgemm.html");
	/* the winner (beta, 2.70x) is highlighted and its kernel escaped */
	cr_expect(strstr(page, "<tr class=\"win\"><td>beta</td>") != NULL, "%s", page);
	cr_expect(strstr(page, "// L1/001-sgemm, turn 1: a&lt;b &amp;&amp; c&gt;d, "
	                       "&quot;quoted&quot;") != NULL, "%s", page);
	cr_expect(strstr(page, "a<b") == NULL, "nothing of the kernel is left unescaped");
	cr_expect(strstr(page, "<details open><summary>beta v2 — turn 1, ok, 2.70&times; "
	                       "vs nvcc</summary>") != NULL, "%s", page);
	free(page);
	struct stat st;
	char path[4200];
	snprintf(path, sizeof(path), "%s/html/tasks/L3-002-b.html", tmp);
	cr_expect_eq(stat(path, &st), 0, "every task of every run has a page");
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

Test(board, chromium_renders_the_board_to_a_screenshot)
{
	const char *bin = chromium();
	make_board();
	char cmd[8192], png[4200];
	int status;
	snprintf(png, sizeof(png), "%s/board.png", tmp);
	snprintf(cmd, sizeof(cmd), "timeout 120 '%s' --headless --no-sandbox --disable-gpu "
	                           "--user-data-dir=%s/profile --hide-scrollbars "
	                           "--screenshot=%s --window-size=1280,900 'file://%s/html/index.html' "
	                           "2>&1", bin, tmp, png, tmp);
	free(sh(cmd, &status));
	cr_expect_eq(status, 0);
	struct stat st;
	cr_assert_eq(stat(png, &st), 0, "no screenshot");
	cr_expect_gt(st.st_size, 20000, "a rendered table is more than a blank page (%ld bytes)",
	             (long)st.st_size);
	unsigned char head[24];
	FILE *f = fopen(png, "rb");
	cr_assert_not_null(f);
	cr_assert_eq(fread(head, 1, sizeof(head), f), sizeof(head));
	fclose(f);
	unsigned w = (unsigned)head[16] << 24 | head[17] << 16 | head[18] << 8 | head[19];
	unsigned h = (unsigned)head[20] << 24 | head[21] << 16 | head[22] << 8 | head[23];
	cr_expect(w == 1280 && h == 900, "%ux%u", w, h);
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
