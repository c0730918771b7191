/* cmd-env.c — `cuarena env`: reset/step as JSON lines on stdin/stdout, for RL
 * trainers that own the loop (docs/AGENT-PROTOCOL.md, "env").
 *   in:  {"cmd":"reset","task":"relu","turns":8,"reward":"cuda-agent","remeasure":false}
 *        {"cmd":"step","code":"..."}      {"cmd":"close"}
 *   out: {"ok":true,"task":...,"turn":1,"observation":"...","done":false}
 *        {"ok":true,"turn":1,"verdict":"ok","reward":2,"done":false,
 *         "observation":"...","result":{...}}
 *        {"ok":false,"error":"line 3: ..."}  (the session goes on)
 * A task's baselines are measured on its first reset and reused by later resets
 * of the same session (one invocation, as in a run), unless "remeasure" is true:
 * an RL trainer resets the same task thousands of times. */
#include "cli.h"
#include "episode.h"

#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>

struct env {
	struct cua_cli *cli;
	struct cua_catalogue cat;
	struct cua_eval_opts opts;
	struct cua_report **base;           /* per catalogue task, measured once */
	struct cua_episode ep;
	bool active;
	char workdir[4096];
};

static void reply(cJSON *o)
{
	char *s = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	if (s) {
		fputs(s, stdout);
		fputc('\n', stdout);
		fflush(stdout);
		free(s);
	}
}

static void fail(int line, const char *msg)
{
	cJSON *o = cJSON_CreateObject();
	char buf[1200];
	snprintf(buf, sizeof(buf), "line %d: %s", line, msg);
	cJSON_AddBoolToObject(o, "ok", false);
	cJSON_AddStringToObject(o, "error", buf);
	reply(o);
}

static void stop_episode(struct env *e)
{
	if (!e->active)
		return;
	cua_episode_end(&e->ep, "reset");
	cua_episode_free(&e->ep);
	e->active = false;
}

static void do_reset(struct env *e, const cJSON *req, int line)
{
	char err[CUA_ERR_LEN];
	const cJSON *task = cJSON_GetObjectItem(req, "task");
	const cJSON *turns = cJSON_GetObjectItem(req, "turns");
	const cJSON *rw = cJSON_GetObjectItem(req, "reward");
	enum cua_reward_kind kind = CUA_REWARD_CUDA_AGENT;
	int max_turns = 8;

	if (!cJSON_IsString(task))
		return fail(line, "reset: \"task\" (a string) is required");
	if (turns && (!cJSON_IsNumber(turns) || turns->valuedouble < 1 ||
	              turns->valuedouble > CUA_MAX_TURNS))
		return fail(line, "reset: \"turns\" must be a number from 1 to 64");
	if (turns)
		max_turns = (int)turns->valuedouble;
	if (rw && (!cJSON_IsString(rw) || !cua_reward_parse(rw->valuestring, &kind)))
		return fail(line, "reset: \"reward\" must be cuda-agent, kevin or log-speedup");
	const struct cua_task *t = cua_catalogue_find(&e->cat, task->valuestring, err,
	                                              sizeof(err));
	if (!t)
		return fail(line, err);
	const cJSON *rem = cJSON_GetObjectItem(req, "remeasure");
	if (rem && !cJSON_IsBool(rem))
		return fail(line, "reset: \"remeasure\" must be true or false");
	int ti = 0;
	while (ti < e->cat.n && e->cat.tasks[ti] != t)
		ti++;
	stop_episode(e);
	bool gpu = cua_cli_have_gpu();
	const char *baselines = gpu ? "cached" : "none";
	if (!e->base[ti] || (gpu && cJSON_IsTrue(rem))) {
		struct cua_report *r = calloc(1, sizeof(*r));
		CUA_ASSERT(r);
		r->task = t;
		if (gpu && cua_report_run(t, NULL, &e->opts, r, err, sizeof(err)) != CUA_OK) {
			cua_report_free(r);
			free(r);
			return fail(line, err);
		}
		if (e->base[ti]) {
			cua_report_free(e->base[ti]);
			free(e->base[ti]);
		}
		e->base[ti] = r;
		baselines = gpu ? "measured" : "none";
	}
	const char *folder = strrchr(t->id, '/');
	char dir[4400];
	snprintf(dir, sizeof(dir), "%s/%s", e->workdir, folder ? folder + 1 : t->id);
	if (cua_episode_begin(&e->ep, t, &e->opts, e->base[ti], kind, max_turns, dir, NULL,
	                      err, sizeof(err)) != CUA_OK)
		return fail(line, err);
	e->active = true;
	cJSON *o = cJSON_CreateObject();
	cJSON_AddBoolToObject(o, "ok", true);
	cJSON_AddStringToObject(o, "task", t->id);
	cJSON_AddNumberToObject(o, "turn", 1);
	cJSON_AddNumberToObject(o, "max_turns", max_turns);
	cJSON_AddStringToObject(o, "observation", e->ep.obs_text);
	cJSON_AddBoolToObject(o, "done", false);
	cJSON_AddStringToObject(o, "baselines", baselines);
	if (!gpu)
		cJSON_AddStringToObject(o, "warning", "no NVIDIA GPU here: kernels that compile "
		                                      "cannot be run, and no baseline is timed");
	reply(o);
}

static void do_step(struct env *e, const cJSON *req, int line)
{
	char err[CUA_ERR_LEN];
	const cJSON *code = cJSON_GetObjectItem(req, "code");
	if (!e->active)
		return fail(line, "step: no episode: send reset first");
	if (e->ep.done)
		return fail(line, "step: the episode is over: send reset");
	if (!cJSON_IsString(code))
		return fail(line, "step: \"code\" (a string) is required");
	struct cua_step st;
	if (cua_episode_step(&e->ep, code->valuestring, NULL, &st, err, sizeof(err)) !=
	    CUA_OK)
		return fail(line, err);
	if (st.done)
		cua_episode_end(&e->ep, "turn limit");
	cJSON *o = cJSON_CreateObject();
	cJSON_AddBoolToObject(o, "ok", true);
	cJSON_AddNumberToObject(o, "turn", st.turn);
	cJSON_AddStringToObject(o, "verdict", cua_verdict_name(st.eval.verdict));
	cJSON_AddNumberToObject(o, "reward", st.reward);
	cJSON_AddBoolToObject(o, "done", st.done);
	if (st.done) {
		/* schedules that discount (kevin) settle every turn's reward at the end */
		cJSON *rw = cJSON_AddArrayToObject(o, "rewards");
		for (int i = 0; i < e->ep.turn; i++)
			cJSON_AddItemToArray(rw, cJSON_CreateNumber(e->ep.rewards[i]));
	}
	cJSON_AddStringToObject(o, "observation", e->ep.obs_text);
	cJSON_AddItemToObject(o, "result", cua_step_to_json(&st));
	reply(o);
	cua_step_clear(&st);
}

int cmd_env(struct cua_cli *cli, int argc, char **argv)
{
	struct env e;
	char err[CUA_ERR_LEN], tmpl[] = "/tmp/cuarena-env-XXXXXX";

	if (argc != 1)
		return cua_cli_usage("env");
	memset(&e, 0, sizeof(e));
	e.cli = cli;
	enum cua_status st = cua_catalogue_load(cli->root, &e.cat, err, sizeof(err));
	if (st != CUA_OK && st != CUA_E_PARSE) {
		fprintf(stderr, "cuarena env: %s\n", err);
		return CUA_EXIT_ENV;
	}
	if (!mkdtemp(tmpl)) {
		fprintf(stderr, "cuarena env: cannot make a work directory\n");
		return CUA_EXIT_ENV;
	}
	snprintf(e.workdir, sizeof(e.workdir), "%s", tmpl);
	e.base = calloc((size_t)e.cat.n + 1, sizeof(*e.base));
	CUA_ASSERT(e.base);
	cua_cli_eval_opts(cli, &e.opts, NULL);

	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int lineno = 0;
	while ((n = getline(&line, &cap, stdin)) > 0) {
		lineno++;
		cJSON *req = cJSON_ParseWithLength(line, (size_t)n);
		const cJSON *cmd = cJSON_GetObjectItem(req, "cmd");
		if (!req || !cJSON_IsString(cmd))
			fail(lineno, "expected a JSON object with \"cmd\": reset, step or close");
		else if (!strcmp(cmd->valuestring, "reset"))
			do_reset(&e, req, lineno);
		else if (!strcmp(cmd->valuestring, "step"))
			do_step(&e, req, lineno);
		else if (!strcmp(cmd->valuestring, "close")) {
			cJSON *o = cJSON_CreateObject();
			cJSON_AddBoolToObject(o, "ok", true);
			reply(o);
			cJSON_Delete(req);
			break;
		} else
			fail(lineno, "unknown cmd: expected reset, step or close");
		cJSON_Delete(req);
	}
	free(line);
	stop_episode(&e);
	for (int i = 0; i < e.cat.n; i++)
		if (e.base[i]) {
			cua_report_free(e.base[i]);
			free(e.base[i]);
		}
	free(e.base);
	cua_rmtree(e.workdir);
	cua_catalogue_free(&e.cat);
	return CUA_EXIT_OK;
}
