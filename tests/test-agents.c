/* test-agents.c — the reference and replay backends (agents/reference.c, replay.c)
 * through the registry, as the episode engine calls them. */
#include <criterion/criterion.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "episode/agent.h"
#include "cuarena-test.h"

TestSuite(agents, .fini = tmp_remove);

static struct cua_observation obs_for(int turn)
{
	struct cua_observation o = {.task_id = "L1/019-relu", .turn = turn, .max_turns = 8,
	                            .text = "prompt", .json = NULL};
	return o;
}

/* Every backend in agents/, by name: adding one means naming it here. */
static const char *const BACKENDS[] = { "exec", "llm", "reference", "replay" };

Test(agents, the_registry_holds_exactly_the_backends_of_agents)
{
	size_t want = sizeof(BACKENDS) / sizeof(BACKENDS[0]);
	for (size_t i = 0; i < want; i++) {
		const struct cua_agent_i *a = cua_agent_find(BACKENDS[i]);
		cr_assert_not_null(a, "backend %s is not registered", BACKENDS[i]);
		cr_expect_str_eq(a->name, BACKENDS[i]);
		cr_expect(a->init && a->propose, "%s lacks init or propose", BACKENDS[i]);
	}
	cr_expect_null(cua_agent_find("no-such-agent"));
	size_t n = 0;
	for (const char *const *p = cua_agent_names(); *p; p++) {
		bool known = false;
		for (size_t i = 0; i < want; i++)
			known |= !strcmp(*p, BACKENDS[i]);
		cr_expect(known, "backend %s is registered but not named in this test", *p);
		n++;
	}
	cr_expect_eq(n, want);
	char err[CUA_ERR_LEN];
	cr_expect_eq(cua_agent_registry_check(err, sizeof(err)), CUA_OK, "%s", err);
}

Test(agents, the_registry_refuses_two_backends_of_one_name)
{
	static const struct cua_agent_i a = { .name = "dup" }, b = { .name = "other" },
	                                c = { .name = "dup" }, bad = { .name = "Has Space" };
	const struct cua_agent_i *ok[] = { &a, &b }, *two[] = { &a, &b, &c }, *odd[] = { &bad };
	char err[CUA_ERR_LEN];
	cr_expect_eq(cua_agent_check_names(ok, 2, err, sizeof(err)), CUA_OK);
	cr_assert_eq(cua_agent_check_names(two, 3, err, sizeof(err)), CUA_E_INVALID);
	cr_expect(strstr(err, "'dup'"), "%s", err);
	cr_expect_eq(cua_agent_check_names(odd, 1, err, sizeof(err)), CUA_E_INVALID);
}

Test(agents, reference_submits_the_reference_then_stops)
{
	const struct cua_agent_i *a = cua_agent_find("reference");
	char err[CUA_ERR_LEN] = "";
	void *ctx = NULL, *ep = NULL;
	cr_assert_eq(a->init(NULL, &ctx, err, sizeof(err)), CUA_OK, "%s", err);
	cr_assert_eq(a->begin(ctx, "L1/019-relu", root(), &ep, err, sizeof(err)), CUA_OK);
	struct cua_action act = {0};
	struct cua_observation o = obs_for(1);
	cr_assert_eq(a->propose(ctx, ep, &o, &act, err, sizeof(err)), CUA_OK, "%s", err);
	cr_assert_not_null(act.code);
	cr_expect(strstr(act.code, "cua_oracle") != NULL, "the task's own reference.cu");
	cr_expect_not(act.stop);
	cua_action_clear(&act);
	o = obs_for(2);
	cr_assert_eq(a->propose(ctx, ep, &o, &act, err, sizeof(err)), CUA_OK);
	cr_expect(act.stop);
	cr_expect_null(act.code);
	a->end(ctx, ep);
	a->free(ctx);
}

Test(agents, reference_rejects_a_config_of_the_wrong_type)
{
	const struct cua_agent_i *a = cua_agent_find("reference");
	char err[CUA_ERR_LEN] = "";
	void *ctx = NULL;
	cJSON *cfg = cJSON_Parse("{\"baseline\": 3}");
	cr_expect_eq(a->init(cfg, &ctx, err, sizeof(err)), CUA_E_PARSE);
	cr_expect(strstr(err, "baseline") != NULL, "%s", err);
	cJSON_Delete(cfg);
}

Test(agents, replay_from_a_directory_proposes_turn_files_in_order)
{
	char err[CUA_ERR_LEN] = "";
	tmp_make();
	const char *dir = tmp;
	tmp_write("L1/019-relu/turn-1.cu", "// one\n");
	tmp_write("L1/019-relu/turn-2.cu", "// two\n");

	const struct cua_agent_i *a = cua_agent_find("replay");
	char cfgtxt[4400];
	snprintf(cfgtxt, sizeof(cfgtxt), "{\"dir\": \"%s\"}", dir);
	cJSON *cfg = cJSON_Parse(cfgtxt);
	void *ctx = NULL, *ep = NULL;
	cr_assert_eq(a->init(cfg, &ctx, err, sizeof(err)), CUA_OK, "%s", err);
	cr_assert_eq(a->begin(ctx, "L1/019-relu", root(), &ep, err, sizeof(err)), CUA_OK);
	const char *want[] = {"// one\n", "// two\n"};
	for (int turn = 1; turn <= 3; turn++) {
		struct cua_action act = {0};
		struct cua_observation o = obs_for(turn);
		cr_assert_eq(a->propose(ctx, ep, &o, &act, err, sizeof(err)), CUA_OK, "%s", err);
		if (turn <= 2)
			cr_expect_str_eq(act.code, want[turn - 1]);
		else
			cr_expect(act.stop, "no turn-3.cu: the agent stops");
		cua_action_clear(&act);
	}
	a->end(ctx, ep);
	a->free(ctx);
	cJSON_Delete(cfg);
}

/* Proposes turn `turn` of `task` from a replay agent; the code, or NULL when the
 * agent stops. */
static char *replayed(void *ctx, const char *task, int turn)
{
	const struct cua_agent_i *a = cua_agent_find("replay");
	char err[CUA_ERR_LEN] = "";
	void *ep = NULL;
	cr_assert_eq(a->begin(ctx, task, root(), &ep, err, sizeof(err)), CUA_OK, "%s", err);
	struct cua_action act = {0};
	struct cua_observation o = obs_for(turn);
	cr_assert_eq(a->propose(ctx, ep, &o, &act, err, sizeof(err)), CUA_OK, "%s", err);
	cr_assert(act.stop == (act.code == NULL), "%s turn %d: code iff not stopping", task, turn);
	char *code = act.code;
	act.code = NULL;
	cua_action_clear(&act);
	a->end(ctx, ep);
	return code;
}

/* A trajectory as `cuarena run` writes it, two episodes interleaved: a turn
 * whose reply had no code ("code": null) and the task's "end" line (no turn, no
 * code) are where a proposal for that task looks; both are skipped. Asking for
 * a turn past the last saved one walks past the end line. */
Test(agents, replay_from_jsonl_skips_lines_without_code)
{
	char err[CUA_ERR_LEN] = "", cfgtxt[4400];
	tmp_make();
	const char *path = tmp_write("trajectories.jsonl",
		"{\"kind\":\"turn\",\"task\":\"L1/019-relu\",\"turn\":1,\"code\":\"A\"}\n"
		"{\"kind\":\"turn\",\"task\":\"L1/001-square-matrix-multiplication\",\"turn\":1,\"code\":\"B\"}\n"
		"{\"kind\":\"turn\",\"task\":\"L1/019-relu\",\"turn\":2,\"code\":null}\n"
		"{\"kind\":\"end\",\"task\":\"L1/019-relu\",\"turns\":2}\n"
		"{\"kind\":\"end\",\"task\":\"L1/001-square-matrix-multiplication\",\"turns\":1}\n");
	const struct cua_agent_i *a = cua_agent_find("replay");
	snprintf(cfgtxt, sizeof(cfgtxt), "{\"jsonl\": \"%s\"}", path);
	cJSON *cfg = cJSON_Parse(cfgtxt);
	void *ctx = NULL;
	cr_assert_eq(a->init(cfg, &ctx, err, sizeof(err)), CUA_OK, "%s", err);
	char *code = replayed(ctx, "L1/019-relu", 1);
	cr_expect_str_eq(code, "A");
	free(code);
	code = replayed(ctx, "L1/019-relu", 2);
	cr_expect_null(code, "turn 2's reply had no code: the agent stops, got %s", code);
	free(code);
	code = replayed(ctx, "L1/019-relu", 3);
	cr_expect_null(code, "no turn 3: the agent stops, got %s", code);
	free(code);
	code = replayed(ctx, "L1/001-square-matrix-multiplication", 1);
	cr_expect_str_eq(code, "B");
	free(code);
	a->free(ctx);
	cJSON_Delete(cfg);
}

Test(agents, replay_needs_exactly_one_source)
{
	const struct cua_agent_i *a = cua_agent_find("replay");
	char err[CUA_ERR_LEN] = "";
	void *ctx = NULL;
	cJSON *cfg = cJSON_Parse("{}");
	cr_expect_eq(a->init(cfg, &ctx, err, sizeof(err)), CUA_E_PARSE);
	cr_expect(strstr(err, "dir") && strstr(err, "jsonl"), "%s", err);
	cJSON_Delete(cfg);
	cfg = cJSON_Parse("{\"dir\": \"/nonexistent-dir\"}");
	cr_expect_eq(a->init(cfg, &ctx, err, sizeof(err)), CUA_E_NOT_FOUND);
	cr_expect(strstr(err, "/nonexistent-dir") != NULL, "%s", err);
	cJSON_Delete(cfg);
}
