/* test-exec.c — the `exec` agent backend (agents/exec.c) against scripted agents
 * in tests/data/agents/: a well-behaved one, crashing, silent, garbage-writing
 * and huge-line ones; each ends its episode with a clear reason, the harness
 * survives, and no agent process is left behind. Also the example agent
 * agents/examples/echo_agent.py on a real task prompt. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <cjson/cJSON.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "catalogue/prompts.h"
#include "episode/agent.h"
#include "cli/cli.h"
#include "catalogue/task.h"
#include "cuarena-test.h"

static const struct cua_agent_i *ag;
static void *agent;
static void *episode;
static struct cua_action act;
static char err[CUA_ERR_LEN];

/* Path of a scripted agent (static buffer). */
static const char *script(const char *name)
{
	static char path[4096];
	snprintf(path, sizeof path, "%s/tests/data/agents/%s", root(), name);
	cr_assert(access(path, R_OK) == 0, "missing %s", path);
	return path;
}

static void setup(void)
{
	ag = cua_agent_find("exec");
	cr_assert_not_null(ag, "the exec backend is not registered");
	agent = episode = NULL;
	memset(&act, 0, sizeof act);
	err[0] = '\0';
}

static void teardown(void)
{
	cua_action_clear(&act);
	if (episode)
		ag->end(agent, episode);
	if (agent)
		ag->free(agent);
}

TestSuite(exec, .init = setup, .fini = teardown, .timeout = 30);

/* init from a JSON config text (the test fails on a parse error). */
static enum cua_status init_json(const char *json)
{
	cJSON *c = cJSON_Parse(json);
	cr_assert_not_null(c, "bad test config: %s", json);
	enum cua_status st = ag->init(c, &agent, err, sizeof err);
	cJSON_Delete(c);
	return st;
}

/* init + begin with command [interp, script(name)] and extra config fields. */
static void start(const char *interp, const char *name, const char *extra)
{
	char json[8192];
	snprintf(json, sizeof json, "{\"command\": [\"%s\", \"%s\"]%s%s}", interp, script(name),
	         extra ? ", " : "", extra ? extra : "");
	cr_assert_eq(init_json(json), CUA_OK, "init: %s", err);
	cr_assert_eq(ag->begin(agent, "L1/019-relu", root(), &episode, err, sizeof err), CUA_OK,
	             "begin: %s", err);
}

/* One turn with the given text and data. */
static enum cua_status turn(int t, const char *text, const cJSON *data)
{
	struct cua_observation obs = { .task_id = "L1/019-relu", .turn = t, .max_turns = 8,
	                               .text = text, .json = data };
	cua_action_clear(&act);
	err[0] = '\0';
	return ag->propose(agent, episode, &obs, &act, err, sizeof err);
}

/* The number after "pid=" in s. */
static pid_t pid_in(const char *s)
{
	const char *p = strstr(s, "pid=");
	cr_assert_not_null(p, "no pid in: %s", s);
	return (pid_t)atol(p + 4);
}

/* The process is gone: reaped (not our child any more) and not running. */
static void assert_gone(pid_t pid)
{
	int st;
	cr_assert_gt(pid, 1);
	cr_expect_eq(waitpid(pid, &st, WNOHANG), -1, "pid %d is still our child", (int)pid);
	cr_expect_eq(errno, ECHILD);
	cr_expect_eq(kill(pid, 0), -1, "pid %d still exists", (int)pid);
	cr_expect_eq(errno, ESRCH);
}

/* Not running: gone, or a zombie waiting for someone else to reap it. */
static void assert_not_running(pid_t pid)
{
	char path[64], buf[512] = "";
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	for (int i = 0; i < 100; i++) {          /* SIGKILL is delivered asynchronously */
		FILE *f = fopen(path, "r");
		if (!f)
			return;
		size_t n = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		buf[n] = '\0';
		const char *rp = strrchr(buf, ')');
		if (rp && (rp[2] == 'Z' || rp[2] == 'X'))
			return;
		usleep(10000);
	}
	cr_assert_fail("pid %d is still running: %s", (int)pid, buf);
}

static void end_episode(void)
{
	ag->end(agent, episode);
	episode = NULL;
}

/* ---- a well-behaved agent ------------------------------------------------ */

Test(exec, well_behaved_agent_answers_two_turns_then_stops_and_is_reaped)
{
	start("python3", "good.py", "\"timeout_s\": 10");
	const char *text = "line one\nline \"two\" with a tab\t, a backslash \\ and é ✓";
	cJSON *data = cJSON_Parse("{\"verdict\": \"ok\", \"speedup\": {\"nvcc\": 1.5}}");

	cr_assert_eq(turn(1, text, data), CUA_OK, "%s", err);
	cr_expect_not(act.stop);
	cr_expect_str_eq(act.code, "// turn 1 of L1/019-relu\n");
	cr_expect_eq(act.prompt_tokens, 10);
	cr_expect_eq(act.completion_tokens, 1);
	cr_expect_gt(act.latency_s, 0);
	cr_expect_lt(act.latency_s, 10);
	cr_assert_not_null(act.reply);
	cJSON *seen = cJSON_Parse(act.reply);
	cr_assert_not_null(seen, "reply: %s", act.reply);
	pid_t pid = (pid_t)cJSON_GetObjectItem(seen, "pid")->valuedouble;
	cr_expect_str_eq(cJSON_GetObjectItem(seen, "task")->valuestring, "L1/019-relu");
	cr_expect_eq(cJSON_GetObjectItem(seen, "turn")->valueint, 1);
	cr_expect_eq(cJSON_GetObjectItem(seen, "max_turns")->valueint, 8);
	cr_expect_str_eq(cJSON_GetObjectItem(seen, "text")->valuestring, text);
	cr_expect(cJSON_Compare(cJSON_GetObjectItem(seen, "data"), data, true),
	          "data did not round-trip");
	cJSON_Delete(seen);

	cr_assert_eq(turn(2, "feedback", NULL), CUA_OK, "%s", err);
	cr_expect_str_eq(act.code, "// turn 2 of L1/019-relu\n");
	cr_expect_eq(act.prompt_tokens, 20);
	seen = cJSON_Parse(act.reply);
	cr_expect(cJSON_IsNull(cJSON_GetObjectItem(seen, "data")));
	cr_expect_eq((pid_t)cJSON_GetObjectItem(seen, "pid")->valuedouble, pid,
	             "one process per episode");
	cJSON_Delete(seen);

	cr_assert_eq(turn(3, "feedback", NULL), CUA_OK, "%s", err);
	cr_expect(act.stop);
	cr_expect_null(act.code);
	cJSON_Delete(data);
	end_episode();
	assert_gone(pid);
}

Test(exec, the_agent_gets_a_minimal_environment_plus_its_env_and_cwd)
{
	setenv("CUA_TEST_SECRET", "harness-only", 1);
	start("python3", "good.py", "\"env\": {\"FOO\": \"bar baz\"}, \"cwd\": \"/tmp\"");
	cr_assert_eq(turn(1, "x", NULL), CUA_OK, "%s", err);
	cJSON *seen = cJSON_Parse(act.reply);
	cr_assert_not_null(seen);
	cr_expect_str_eq(cJSON_GetObjectItem(seen, "foo")->valuestring, "bar baz");
	cr_expect(cJSON_IsNull(cJSON_GetObjectItem(seen, "secret")),
	          "a harness variable leaked into the agent");
	cr_expect_str_eq(cJSON_GetObjectItem(seen, "cwd")->valuestring, "/tmp");
	cJSON_Delete(seen);
}

Test(exec, an_observation_larger_than_a_pipe_buffer_round_trips)
{
	size_t n = 1 << 20;
	char *text = malloc(n + 1);
	cr_assert_not_null(text);
	for (size_t i = 0; i < n; i++)
		text[i] = (char)('a' + i % 26);
	text[n] = '\0';
	start("python3", "good.py", NULL);
	cr_assert_eq(turn(1, text, NULL), CUA_OK, "%s", err);
	cJSON *seen = cJSON_Parse(act.reply);
	cr_assert_not_null(seen);
	cr_expect_str_eq(cJSON_GetObjectItem(seen, "text")->valuestring, text);
	cJSON_Delete(seen);
	free(text);
}

Test(exec, invalid_utf8_in_the_observation_is_replaced_not_sent_raw)
{
	start("python3", "good.py", NULL);
	cr_assert_eq(turn(1, "bad \xff\xfe bytes \xc3( end", NULL), CUA_OK, "%s", err);
	cJSON *seen = cJSON_Parse(act.reply);
	cr_assert_not_null(seen);
	cr_expect_str_eq(cJSON_GetObjectItem(seen, "text")->valuestring,
	                 "bad \xEF\xBF\xBD\xEF\xBF\xBD bytes \xEF\xBF\xBD( end");
	cJSON_Delete(seen);
}

Test(exec, a_megabyte_of_stderr_is_drained_and_its_tail_kept)
{
	start("python3", "noisy.py", "\"timeout_s\": 10");
	cr_assert_eq(turn(1, "12345", NULL), CUA_OK, "%s", err);
	cr_expect_str_eq(act.code, "// 5\n");
	cr_assert_eq(turn(2, "123", NULL), CUA_OK, "%s", err);
	cr_expect_str_eq(act.code, "// 3\n");
}

/* ---- misbehaving agents -------------------------------------------------- */

Test(exec, crashing_agent_is_reported_with_its_status_and_stderr)
{
	start("sh", "crash.sh", NULL);
	cr_assert_eq(turn(1, "x", NULL), CUA_E_SYSTEM);
	cr_expect(strstr(err, "the agent exited (status 3) before answering; stderr: pid=") == err,
	          "%s", err);
	cr_expect(strstr(err, "crashing on purpose"), "%s", err);
	cr_expect_null(act.code);
	pid_t pid = pid_in(err);
	assert_gone(pid);                        /* reaped in propose already */
	end_episode();
}

Test(exec, agent_dying_of_a_signal_is_reported_with_the_signal)
{
	start("sh", "segv.sh", NULL);
	cr_assert_eq(turn(1, "x", NULL), CUA_E_SYSTEM);
	cr_expect(strstr(err, "the agent died of SIGSEGV (segmentation fault) before answering"),
	          "%s", err);
	pid_t pid = pid_in(err);
	end_episode();
	assert_gone(pid);
}

/* Ctrl-C reaches the whole process group and Slurm signals every process of a
 * job: an agent that dies of a stop signal was stopped, and says so, so that
 * the run ends its episode "interrupted" (to redo) whether or not the run's own
 * handler has run yet. Under load the agent often died first, and the episode
 * ended "agent failed", for good. */
Test(exec, agent_dying_of_a_stop_signal_is_an_interruption)
{
	static const char *const sigs[] = {"TERM", "INT", "HUP"};
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		char env[64];
		snprintf(env, sizeof env, "\"env\": {\"STOP_SIGNAL\": \"%s\"}", sigs[i]);
		start("sh", "stopped.sh", env);
		cr_assert_eq(turn(1, "x", NULL), CUA_E_INTERRUPTED, "SIG%s: %s", sigs[i], err);
		cr_expect(strstr(err, "the agent died of SIG"), "%s", err);
		pid_t pid = pid_in(err);
		end_episode();
		assert_gone(pid);
	}
}

Test(exec, silent_agent_times_out_and_is_killed)
{
	start("sh", "silent.sh", "\"timeout_s\": 1");
	double t0 = cua_now();
	cr_assert_eq(turn(1, "x", NULL), CUA_E_TIMEOUT);
	double dt = cua_now() - t0;
	cr_expect(strstr(err, "no answer within 1 s") == err, "%s", err);
	cr_expect_geq(dt, 1.0);
	cr_expect_lt(dt, 3.0, "took %.2f s", dt);
	pid_t pid = pid_in(err);
	assert_gone(pid);                        /* killed and reaped at the deadline */
	end_episode();
}

Test(exec, garbage_output_is_reported_with_its_line_number_and_an_excerpt)
{
	start("sh", "say.sh", "\"env\": {\"SAY_1\": \"hello, I am not JSON\"}");
	cr_assert_eq(turn(1, "x", NULL), CUA_E_PARSE);
	cr_expect_str_eq(err, "line 1 of the agent's output is not a JSON action: "
	                      "hello, I am not JSON");
	end_episode();
}

/* say.sh answers, for each case: the line, then what propose returns.
 * Criterion hands parameters to a separate worker process: strings are
 * arrays, since pointers into this one would not be valid there. */
struct say_case {
	char line[96];
	enum cua_status status;
	char err[112];               /* expected error text (prefix), or "" */
	bool stop;
	char code[16];               /* expected code, or "" for none */
	char note[48];
};

static struct say_case say_cases[] = {
	{ "{\"type\":\"stop\"}", CUA_OK, "", true, "", "" },
	{ "  {\"type\":\"action\",\"code\":\"int x;\\n\"}\r", CUA_OK, "", false, "int x;\n", "" },
	{ "{\"type\":\"action\",\"code\":null,\"note\":\"still thinking\"}", CUA_OK, "", false,
	  "", "still thinking" },
	{ "{\"type\":\"action\"}", CUA_OK, "", false, "", "the agent's action had no code" },
	{ "{\"type\":\"action\",\"code\":42}", CUA_E_PARSE,
	  "line 1 of the agent's output is not a JSON action: \"code\" is not a string", false,
	  "", "" },
	{ "{\"type\":\"answer\",\"code\":\"x\"}", CUA_E_PARSE,
	  "line 1 of the agent's output is not a JSON action: \"type\" is neither", false, "",
	  "" },
	{ "{\"code\":\"x\"}", CUA_E_PARSE,
	  "line 1 of the agent's output is not a JSON action: it has no \"type\"", false, "",
	  "" },
	{ "{\"type\":\"action\",\"code\":\"x\",\"tokens\":{\"prompt\":-1}}", CUA_E_PARSE,
	  "line 1 of the agent's output is not a JSON action: \"tokens\" counts", false, "",
	  "" },
	{ "[1, 2]", CUA_E_PARSE, "line 1 of the agent's output is not a JSON action: [1, 2]",
	  false, "", "" },
	{ "{\"type\":\"action\",\"code\":\"x\"", CUA_E_PARSE,
	  "line 1 of the agent's output is not a JSON action: {\"type\"", false, "", "" },
};

ParameterizedTestParameters(exec, each_action_line_is_classified)
{
	return cr_make_param_array(struct say_case, say_cases, CUA_ARRAY_LEN(say_cases));
}

ParameterizedTest(struct say_case *c, exec, each_action_line_is_classified)
{
	cJSON *env = cJSON_CreateObject();
	cJSON_AddStringToObject(env, "SAY_1", c->line);
	char *env_s = cJSON_PrintUnformatted(env);
	char extra[4096];
	snprintf(extra, sizeof extra, "\"env\": %s", env_s);
	free(env_s);
	cJSON_Delete(env);

	start("sh", "say.sh", extra);
	enum cua_status st = turn(1, "x", NULL);
	cr_assert_eq(st, c->status, "%s: got %d: %s", c->line, st, err);
	if (c->err[0])
		cr_expect(!strncmp(err, c->err, strlen(c->err)), "%s\n  got: %s", c->line, err);
	cr_expect_eq(act.stop, c->stop, "%s", c->line);
	if (c->code[0])
		cr_expect_str_eq(act.code, c->code);
	else
		cr_expect_null(act.code, "%s", c->line);
	cr_expect_str_eq(act.note, c->note);
}

Test(exec, blank_lines_are_skipped_and_counted)
{
	start("sh", "say.sh", "\"env\": {\"SAY_1\": \"\\n\\n  \\nnope\"}");
	cr_assert_eq(turn(1, "x", NULL), CUA_E_PARSE);
	cr_expect_str_eq(err, "line 4 of the agent's output is not a JSON action: nope");
}

Test(exec, agent_that_exits_after_one_answer_is_reported_at_the_next_turn)
{
	start("sh", "say.sh", "\"env\": {\"SAY_1\": \"{\\\"type\\\":\\\"action\\\","
	      "\\\"code\\\":\\\"a\\\"}\", \"SAY_EXIT_AFTER\": \"1\"}");
	cr_assert_eq(turn(1, "x", NULL), CUA_OK, "%s", err);
	cr_expect_str_eq(act.code, "a");
	cr_assert_eq(turn(2, "y", NULL), CUA_E_SYSTEM);
	cr_expect(strstr(err, "the agent exited (status 0) before answering; stderr: pid="),
	          "%s", err);
	assert_gone(pid_in(err));
	end_episode();
}

Test(exec, a_line_over_the_cap_is_an_error_not_a_hang)
{
	start("sh", "huge.sh", "\"timeout_s\": 10");
	double t0 = cua_now();
	cr_assert_eq(turn(1, "x", NULL), CUA_E_INVALID);
	cr_expect_str_eq(err, "line 1 of the agent's output is longer than the limit of "
	                      "4194304 bytes");
	cr_expect_lt(cua_now() - t0, 5.0);
	end_episode();
}

Test(exec, the_line_cap_is_configurable)
{
	start("sh", "huge.sh", "\"max_line_bytes\": 2048");
	cr_assert_eq(turn(1, "x", NULL), CUA_E_INVALID);
	cr_expect_str_eq(err, "line 1 of the agent's output is longer than the limit of "
	                      "2048 bytes");
}

Test(exec, end_kills_the_whole_process_group_and_leaves_no_zombie)
{
	start("sh", "grandchild.sh", NULL);
	cr_assert_eq(turn(1, "x", NULL), CUA_OK, "%s", err);
	cr_assert_not_null(act.reply);
	int pid = 0, kid = 0;
	cr_assert_eq(sscanf(act.reply, "%d %d", &pid, &kid), 2, "%s", act.reply);
	cr_assert_eq(kill(kid, 0), 0, "the grandchild should be running");
	double t0 = cua_now();
	end_episode();
	cr_expect_lt(cua_now() - t0, 2.0);
	assert_gone(pid);
	assert_not_running(kid);
}

Test(exec, sigpipe_from_an_agent_that_closed_its_stdin_does_not_kill_the_harness)
{
	/* crash.sh reads one line and exits: the second observation hits a closed
	 * pipe (EPIPE, not SIGPIPE). */
	start("sh", "crash.sh", NULL);
	char *big = malloc(1 << 20);
	memset(big, 'x', (1 << 20) - 1);
	big[(1 << 20) - 1] = '\0';
	cr_assert_eq(turn(1, big, NULL), CUA_E_SYSTEM);
	cr_expect(strstr(err, "status 3"), "%s", err);
	cr_assert_eq(turn(2, big, NULL), CUA_E_SYSTEM);
	cr_expect(strstr(err, "status 3"), "%s", err);
	free(big);
}

Test(exec, a_program_that_cannot_start_fails_begin_with_the_reason)
{
	cr_assert_eq(init_json("{\"command\": [\"/nonexistent/agent\", \"x\"]}"), CUA_OK, "%s",
	             err);
	cr_assert_eq(ag->begin(agent, "L1/019-relu", root(), &episode, err, sizeof err),
	             CUA_E_NOT_FOUND);
	cr_expect_null(episode);
	cr_expect_str_eq(err, "exec: cannot start /nonexistent/agent: execve: No such file or "
	                      "directory");
}

/* ---- config -------------------------------------------------------------- */

struct config_case {
	char json[80];
	char err[80];                /* expected error (prefix) */
};

static struct config_case config_cases[] = {
	{ "{}", "exec config: command: required" },
	{ "[]", "exec config: must be a JSON object" },
	{ "{\"command\": \"python3 x.py\"}", "exec config: command: must be a non-empty array" },
	{ "{\"command\": []}", "exec config: command: must be a non-empty array" },
	{ "{\"command\": [\"sh\", 3]}", "exec config: command[1]: must be a string" },
	{ "{\"command\": [\"\"]}", "exec config: command[0]: must be a non-empty string" },
	{ "{\"command\": [\"no-such-program-cuarena\"]}",
	  "exec config: command[0]: no-such-program-cuarena: not found in PATH" },
	{ "{\"command\": [\"sh\"], \"timeout_s\": 0}", "exec config: timeout_s:" },
	{ "{\"command\": [\"sh\"], \"timeout_s\": \"5\"}", "exec config: timeout_s:" },
	{ "{\"command\": [\"sh\"], \"env\": [\"A=B\"]}", "exec config: env: must be an object" },
	{ "{\"command\": [\"sh\"], \"env\": {\"A\": 1}}", "exec config: env.A: must be a string" },
	{ "{\"command\": [\"sh\"], \"env\": {\"A=B\": \"1\"}}", "exec config: env: \"A=B\"" },
	{ "{\"command\": [\"sh\"], \"cwd\": \"/nonexistent/dir\"}",
	  "exec config: cwd: /nonexistent/dir: not a directory" },
	{ "{\"command\": [\"sh\"], \"max_line_bytes\": 10}", "exec config: max_line_bytes:" },
	{ "{\"command\": [\"sh\"], \"timeout\": 5}", "exec config: timeout: unknown field" },
	{ "{\"command\": [\"sh\"], \"command\": [\"sh\"]}", "exec config: command: given twice" },
};

ParameterizedTestParameters(exec, config_errors_name_the_field)
{
	return cr_make_param_array(struct config_case, config_cases, CUA_ARRAY_LEN(config_cases));
}

ParameterizedTest(struct config_case *c, exec, config_errors_name_the_field)
{
	cr_assert_neq(init_json(c->json), CUA_OK, "%s was accepted", c->json);
	cr_expect_null(agent);
	cr_expect(!strncmp(err, c->err, strlen(c->err)), "%s\n  want: %s\n  got:  %s", c->json,
	          c->err, err);
}

Test(exec, no_config_is_an_error_naming_command)
{
	cr_assert_eq(ag->init(NULL, &agent, err, sizeof err), CUA_E_INVALID);
	cr_expect(strstr(err, "command"), "%s", err);
}

/* ---- the example agent --------------------------------------------------- */

Test(exec, echo_agent_resubmits_the_reference_on_turn_1_and_stops_on_turn_2)
{
	char dir[4200], path[4300];
	struct cua_task *t = NULL;
	char *ref = NULL, *text;

	snprintf(dir, sizeof dir, "%s/tasks/L1/019-relu", root());
	cr_assert_eq(cua_task_load(dir, &t, err, sizeof err), CUA_OK, "%s", err);
	snprintf(path, sizeof path, "%s/reference.cu", dir);
	cr_assert_eq(cua_read_file(path, 1 << 20, &ref, NULL, err, sizeof err), CUA_OK);
	text = cua_prompts_render(t, root());
	cr_assert_not_null(text);

	char json[4400];
	snprintf(json, sizeof json, "{\"command\": [\"python3\", "
	         "\"%s/agents/examples/echo_agent.py\"], \"timeout_s\": 20}", root());
	cr_assert_eq(init_json(json), CUA_OK, "%s", err);
	cr_assert_eq(ag->begin(agent, t->id, root(), &episode, err, sizeof err), CUA_OK, "%s",
	             err);
	struct cua_observation obs = { .task_id = t->id, .turn = 1, .max_turns = 2, .text = text };
	cr_assert_eq(ag->propose(agent, episode, &obs, &act, err, sizeof err), CUA_OK, "%s", err);
	cr_expect_not(act.stop);
	cr_assert_not_null(act.code);
	cr_expect_str_eq(act.code, ref, "the code is not the reference");

	cua_action_clear(&act);
	obs.turn = 2;
	obs.text = "verdict: ok";
	cr_assert_eq(ag->propose(agent, episode, &obs, &act, err, sizeof err), CUA_OK, "%s", err);
	cr_expect(act.stop);
	cr_expect_null(act.code);
	free(text);
	free(ref);
	cua_task_free(t);
}
