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
#include "cli/cli.h"
#include "episode/envproto.h"

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
	char workdir[CUA_PATH_LEN];
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
	char buf[1200];
	snprintf(buf, sizeof(buf), "line %d: %s", line, msg);
	reply(cua_env_error(buf));
}

static void stop_episode(struct env *e)
{
	if (!e->active)
		return;
	cua_episode_end(&e->ep, "reset");
	cua_episode_clear(&e->ep);
	e->active = false;
}

static void do_reset(struct env *e, const cJSON *req, int line)
{
	char err[CUA_ERR_LEN];
	struct cua_env_reset r;

	if (cua_env_parse_reset(&e->cat, req, &r, err, sizeof(err)) != CUA_OK)
		return fail(line, err);
	int ti = 0;
	while (ti < e->cat.n && e->cat.tasks[ti] != r.task)
		ti++;
	stop_episode(e);
	bool gpu = cua_have_gpu();
	const char *baselines = gpu ? "cached" : "none";
	if (!e->base[ti] || (gpu && r.remeasure)) {
		struct cua_report *rep = calloc(1, sizeof(*rep));
		CUA_ASSERT(rep);
		rep->task = r.task;
		if (gpu && cua_report_run(r.task, NULL, &e->opts, rep, err, sizeof(err)) != CUA_OK) {
			cua_report_clear(rep);
			free(rep);
			return fail(line, err);
		}
		if (e->base[ti]) {
			cua_report_clear(e->base[ti]);
			free(e->base[ti]);
		}
		e->base[ti] = rep;
		baselines = gpu ? "measured" : "none";
	}
	if (cua_env_begin(&e->ep, &r, &e->opts, e->base[ti], e->workdir, NULL, err,
	                  sizeof(err)) != CUA_OK)
		return fail(line, err);
	e->active = true;
	reply(cua_env_reset_reply(&e->ep, baselines, gpu));
}

static void do_step(struct env *e, const cJSON *req, int line)
{
	char err[CUA_ERR_LEN];
	struct cua_step st;
	if (cua_env_step(e->active ? &e->ep : NULL, req, &st, err, sizeof(err)) != CUA_OK)
		return fail(line, err);
	reply(cua_env_step_reply(&e->ep, &st));
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
			cua_report_clear(e.base[i]);
			free(e.base[i]);
		}
	free(e.base);
	cua_rmtree(e.workdir);
	cua_catalogue_clear(&e.cat);
	return CUA_EXIT_OK;
}
