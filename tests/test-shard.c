/* test-shard.c — `run --shard I/N` (harness/episode/shard.c): the I/N syntax, the split by
 * cost (largest first, to the lightest shard), and the split of the real catalogue
 * weighed by the H200 run committed under results/ (its costs renumbered onto today's
 * Level 1: renumbered_costs). */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "catalogue/catalogue.h"
#include "episode/shard.h"
#include "cuarena-test.h"

TestSuite(shard, .fini = tmp_remove, .timeout = 60);

/* Criterion hands parameters to a separate worker process: strings are arrays. */
struct parse_case {
	char s[16];
	bool ok;
	int i, n;
};

ParameterizedTestParameters(shard, i_of_n_parses_only_when_well_formed)
{
	static struct parse_case cases[] = {
		{"0/1", true, 0, 1},   {"2/3", true, 2, 3},   {"15/16", true, 15, 16},
		{"3/3", false, 0, 0},  {"-1/3", false, 0, 0}, {"1/0", false, 0, 0},
		{"1/", false, 0, 0},   {"/2", false, 0, 0},   {"1/2/3", false, 0, 0},
		{"a/2", false, 0, 0},  {"1/2x", false, 0, 0}, {"+1/2", false, 0, 0},
		{"1/+2", false, 0, 0}, {"0/4097", false, 0, 0}, {"", false, 0, 0},
	};
	return cr_make_param_array(struct parse_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct parse_case *c, shard, i_of_n_parses_only_when_well_formed)
{
	int i = -7, n = -7;
	cr_expect_eq(cua_shard_parse(c->s, &i, &n), c->ok, "'%s'", c->s);
	if (c->ok) {
		cr_expect_eq(i, c->i, "'%s'", c->s);
		cr_expect_eq(n, c->n, "'%s'", c->s);
	} else {
		cr_expect(i == -7 && n == -7, "'%s' leaves the outputs alone", c->s);
	}
}

static void loads(const double *cost, const int *shard_of, int n, double *load, int count)
{
	for (int s = 0; s < count; s++)
		load[s] = 0;
	for (int i = 0; i < n; i++) {
		cr_assert(shard_of[i] >= 0 && shard_of[i] < count, "task %d: shard %d", i,
		          shard_of[i]);
		load[shard_of[i]] += cost[i];
	}
}

Test(shard, the_largest_costs_go_first_each_to_the_lightest_shard)
{
	double cost[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, load[3];
	int of[10];
	cua_shard_partition(cost, 10, 3, of);
	loads(cost, of, 10, load, 3);
	/* 10 9 8 | 7 → 8's | 6 → 9's | 5 → 10's | 4 → shard 0 (a tie) | 3 | 2 | 1 */
	cr_expect_eq(load[0], 19);
	cr_expect_eq(load[1], 18);
	cr_expect_eq(load[2], 18);
	cr_expect_eq(of[9], 0, "the largest opens shard 0");
	cr_expect_eq(of[8], 1);
	cr_expect_eq(of[7], 2);
}

Test(shard, a_split_balances_cost_not_the_count_of_tasks)
{
	double cost[] = {1, 100, 1, 1}, load[2];
	int of[4];
	cua_shard_partition(cost, 4, 2, of);
	loads(cost, of, 4, load, 2);
	cr_expect_eq(of[0], of[2]);
	cr_expect_eq(of[2], of[3]);
	cr_expect_neq(of[1], of[0], "the costly task has a shard to itself");
}

Test(shard, equal_costs_are_dealt_in_catalogue_order)
{
	double cost[] = {5, 5, 5, 5, 5};
	int of[5];
	cua_shard_partition(cost, 5, 2, of);
	int want[] = {0, 1, 0, 1, 0};
	for (int i = 0; i < 5; i++)
		cr_expect_eq(of[i], want[i], "task %d", i);
}

Test(shard, bad_costs_count_as_nothing_and_change_no_one_elses_shard)
{
	double cost[] = {3, -1, 2, 1.0 / 0.0, 0.0 / 0.0, 1};
	int of[6];
	cua_shard_partition(cost, 6, 2, of);
	for (int i = 0; i < 6; i++)
		cr_expect(of[i] == 0 || of[i] == 1, "task %d has a shard", i);
}

/* the selected tasks of the catalogue (all of Level 1) */
static int level1(struct cua_catalogue *cat, const struct cua_task **t)
{
	char err[CUA_ERR_LEN];
	enum cua_status st = cua_catalogue_load(root(), cat, err, sizeof(err));
	cr_assert(st == CUA_OK || st == CUA_E_PARSE, "%s", err);
	int n = 0;
	for (int i = 0; i < cat->n; i++)
		if (cat->tasks[i]->level == 1)
			t[n++] = cat->tasks[i];
	cr_assert_geq(n, 50, "Level 1 has its tasks");
	return n;
}

/* Splits Level 1 four ways with cua_shard_apply; each shard's task count into
 * counts[], each task's shard into of[], the blocks' expected seconds into exp[]. */
static void split4(const char *costs, int *counts, double *exp, int *measured)
{
	struct cua_catalogue cat;
	const struct cua_task *all[1024];
	int n = level1(&cat, all);
	int seen[1024] = {0};
	for (int s = 0; s < 4; s++) {
		const struct cua_task *t[1024];
		memcpy(t, all, sizeof(t[0]) * (size_t)n);
		int k = n;
		cJSON *b = NULL;
		char err[CUA_ERR_LEN] = "";
		cr_assert_eq(cua_shard_apply(t, &k, s, 4, costs, 3, &b, err, sizeof(err)), CUA_OK,
		             "%s", err);
		counts[s] = k;
		for (int i = 0; i < k; i++)
			for (int j = 0; j < n; j++)
				seen[j] += all[j] == t[i];
		cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(b, "selected")), n);
		cr_expect_eq(cJSON_GetObjectItem(b, "index")->valuedouble, s);
		const cJSON *e = cJSON_GetObjectItem(b, "expected_s");
		cr_assert_eq(cJSON_GetArraySize(e), 4);
		for (int q = 0; q < 4; q++)
			exp[q] = cJSON_GetArrayItem(e, q)->valuedouble;
		*measured = (int)cJSON_GetObjectItem(cJSON_GetObjectItem(b, "costs"),
		                                     "measured")->valuedouble;
		cJSON_Delete(b);
	}
	for (int j = 0; j < n; j++)
		cr_expect_eq(seen[j], 1, "%s is in exactly one shard", all[j]->id);
	cua_catalogue_clear(&cat);
}

/* A costs run in tmp/costs: the committed H200 replay run's run.json and
 * baselines.jsonl, each line's task re-keyed to today's Level 1 task of its number.
 * That run is of the earlier Level 1 (catalogue version 1, whose ids differ): its
 * costs are real H200 costs of a skewed catalogue, which is what these tests need, not
 * today's tasks' own. Returns the folder. */
static const char *renumbered_costs(void)
{
	static char dir[4200];
	char from[4200], path[4300], err[CUA_ERR_LEN] = "", *text = NULL;
	struct cua_catalogue cat;
	tmp_remove();
	tmp_make();
	snprintf(dir, sizeof(dir), "%s/costs", tmp);
	cr_assert_eq(cua_mkdirs(dir, err, sizeof(err)), CUA_OK, "%s", err);
	enum cua_status st = cua_catalogue_load(root(), &cat, err, sizeof(err));
	cr_assert(st == CUA_OK || st == CUA_E_PARSE, "%s", err);
	snprintf(from, sizeof(from), "%s/examples/runs/2026-11-29-h200-replay", root());
	snprintf(path, sizeof(path), "%s/run.json", from);
	cr_assert_eq(cua_read_file(path, 1 << 20, &text, NULL, err, sizeof(err)), CUA_OK, "%s", err);
	snprintf(path, sizeof(path), "%s/run.json", dir);
	cr_assert_eq(cua_write_file(path, text, strlen(text), err, sizeof(err)), CUA_OK, "%s", err);
	free(text);
	snprintf(path, sizeof(path), "%s/baselines.jsonl", from);
	cr_assert_eq(cua_read_file(path, 1 << 26, &text, NULL, err, sizeof(err)), CUA_OK, "%s", err);
	struct cua_buf out = {0};
	for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n")) {
		cJSON *j = cJSON_Parse(l);
		cr_assert_not_null(j);
		const cJSON *task = cJSON_GetObjectItem(j, "task");
		char num[8];
		cr_assert(cJSON_IsString(task) && !strncmp(task->valuestring, "L1/", 3));
		snprintf(num, sizeof(num), "L1/%.3s", task->valuestring + 3);
		const struct cua_task *now = cua_catalogue_find(&cat, num, NULL, 0);
		if (now) {
			cJSON_ReplaceItemInObject(j, "task", cJSON_CreateString(now->id));
			char *t = cJSON_PrintUnformatted(j);
			cua_buf_printf(&out, "%s\n", t);
			free(t);
		}
		cJSON_Delete(j);
	}
	free(text);
	snprintf(path, sizeof(path), "%s/baselines.jsonl", dir);
	cr_assert_eq(cua_write_file(path, out.s, out.len, err, sizeof(err)), CUA_OK, "%s", err);
	free(out.s);
	cua_catalogue_clear(&cat);
	return dir;
}

Test(shard, the_h200_runs_measured_baselines_balance_the_catalogue)
{
	char costs[4200];
	snprintf(costs, sizeof(costs), "%s", renumbered_costs());
	int counts[4], measured = 0;
	double exp[4];
	split4(costs, counts, exp, &measured);
	cr_expect_geq(measured, 100, "every Level 1 task of the run was measured (%d)", measured);
	double lo = exp[0], hi = exp[0];
	for (int s = 1; s < 4; s++) {
		lo = exp[s] < lo ? exp[s] : lo;
		hi = exp[s] > hi ? exp[s] : hi;
	}
	cr_expect(hi / lo < 1.05, "the four shards expect %.0f to %.0f s", lo, hi);
}

/* max/mean of the shards' loads under the measured costs */
static double spread(const double *cost, const int *of, int n, int count)
{
	double load[16] = {0}, sum = 0, max = 0;
	for (int i = 0; i < n; i++)
		load[of[i]] += cost[i];
	for (int s = 0; s < count; s++) {
		sum += load[s];
		max = load[s] > max ? load[s] : max;
	}
	return max / (sum / count);
}

Test(shard, measured_costs_balance_eight_shards_better_than_counting_tasks)
{
	char costs[4200], err[CUA_ERR_LEN] = "";
	snprintf(costs, sizeof(costs), "%s", renumbered_costs());
	struct cua_catalogue cat;
	const struct cua_task *t[1024];
	int n = level1(&cat, t);
	static double unit[1024], cost[1024];
	int of[1024], rr[1024];
	cr_assert_eq(cua_shard_measured(costs, t, n, unit, err, sizeof(err)), CUA_OK, "%s", err);
	cua_shard_costs(t, n, unit, 3, cost, NULL);
	cua_shard_partition(cost, n, 8, of);
	for (int i = 0; i < n; i++)
		rr[i] = i % 8;                 /* by count: dealt in catalogue order */
	double by_cost = spread(cost, of, n, 8), by_count = spread(cost, rr, n, 8);
	cr_expect(by_cost < 1.03, "by cost the largest shard is %.3f of the mean", by_cost);
	cr_expect(by_count > by_cost + 0.05, "by count %.3f, by cost %.3f", by_count, by_cost);
	cua_catalogue_clear(&cat);
}

Test(shard, without_costs_the_model_splits_every_task_once)
{
	int counts[4], measured = -1;
	double exp[4];
	split4(NULL, counts, exp, &measured);
	cr_expect_eq(measured, 0);
	for (int s = 0; s < 4; s++)
		cr_expect_gt(counts[s], 0, "shard %d has tasks", s);
}

Test(shard, more_shards_than_tasks_is_refused)
{
	struct cua_catalogue cat;
	const struct cua_task *t[1024];
	level1(&cat, t);
	int k = 3;
	cJSON *b = (cJSON *)1;
	char err[CUA_ERR_LEN] = "";
	cr_expect_eq(cua_shard_apply(t, &k, 0, 4, NULL, 3, &b, err, sizeof(err)), CUA_E_USAGE);
	cr_expect_null(b);
	cr_expect_eq(k, 3, "the tasks are left as they were");
	cr_expect(strstr(err, "3 tasks selected") != NULL, "%s", err);
	cua_catalogue_clear(&cat);
}

Test(shard, a_bad_line_of_the_costs_run_is_named)
{
	char path[4200], err[CUA_ERR_LEN] = "";
	tmp_make();
	const char *dir = tmp;
	snprintf(path, sizeof(path), "%s/baselines.jsonl", dir);
	const char *txt = "{\"schema\":2,\"task\":\"L1/019-relu\",\"eval\":{\"subject\":"
	                  "\"nvcc\",\"seconds\":{\"run\":4.5}}}\n[\"not a record\"]\n{\"schema\":2}\n";
	cr_assert_eq(cua_write_file(path, txt, strlen(txt), err, sizeof(err)), CUA_OK, "%s", err);
	struct cua_catalogue cat;
	const struct cua_task *t[1024];
	int n = level1(&cat, t);
	double unit[1024];
	cr_expect_eq(cua_shard_measured(dir, t, n, unit, err, sizeof(err)), CUA_E_PARSE);
	cr_expect(strstr(err, "baselines.jsonl: line 2") != NULL, "%s", err);
	/* read by the results reader: one schema check for every reader of a run */
	txt = "{\"schema\":99,\"task\":\"L1/019-relu\",\"eval\":{}}\n";
	cr_assert_eq(cua_write_file(path, txt, strlen(txt), err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_eq(cua_shard_measured(dir, t, n, unit, err, sizeof(err)), CUA_E_PARSE);
	cr_expect(strstr(err, "baselines.jsonl: line 1: schema 99 is newer") != NULL, "%s", err);
	/* a torn last line is what a killed run leaves: read up to it */
	txt = "{\"schema\":2,\"task\":\"L1/019-relu\",\"eval\":{\"subject\":\"nvcc\","
	      "\"seconds\":{\"run\":4.5}}}\n{\"task\":\"L1/020-vec";
	cr_assert_eq(cua_write_file(path, txt, strlen(txt), err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_eq(cua_shard_measured(dir, t, n, unit, err, sizeof(err)), CUA_OK, "%s", err);
	int relu = -1;
	for (int i = 0; i < n; i++)
		if (strstr(t[i]->id, "-relu") && !strstr(t[i]->id, "leaky"))
			relu = i;
	cr_assert_geq(relu, 0);
	cr_expect_eq(unit[relu], 4.5);
	cua_catalogue_clear(&cat);
}

Test(shard, the_model_is_finite_and_above_its_floor_for_every_task)
{
	char err[CUA_ERR_LEN];
	struct cua_catalogue cat;
	enum cua_status st = cua_catalogue_load(root(), &cat, err, sizeof(err));
	cr_assert(st == CUA_OK || st == CUA_E_PARSE, "%s", err);
	for (int i = 0; i < cat.n; i++) {
		double s = cua_shard_model_s(cat.tasks[i]);
		cr_expect(s >= 0.2 && s < 1e6, "%s: %g s", cat.tasks[i]->id, s);
	}
	cua_catalogue_clear(&cat);
}
