/* replay.c — the `replay` agent: re-scores saved agent outputs as if proposed turn
 * by turn (e.g. on new hardware). Config: {"dir": "saved/"} with files
 * saved/<task id>/turn-<k>.cu (task id "L1/019-relu" → saved/L1/019-relu/turn-1.cu),
 * or {"jsonl": "saved.jsonl"} with lines {"task": "L1/019-relu", "turn": 1,
 * "code": "..."} (a run's trajectories.jsonl works as is). Turn k proposes the saved
 * source for k; when there is none, the agent stops. */
#include "episode/agent.h"

#include <string.h>
#include <sys/stat.h>
#include <cjson/cJSON.h>


struct replay_agent {
	char dir[CUA_PATH_LEN];              /* dir mode */
	cJSON *lines;                /* jsonl mode: array of {task, turn, code} */
};

struct replay_episode {
	char task[128];
};

static enum cua_status load_jsonl(struct replay_agent *a, const char *path, char *err,
                                  size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	enum cua_status st = cua_read_file(path, (size_t)1 << 30, &buf, &len, err, errlen);
	if (st != CUA_OK)
		return st;
	a->lines = cJSON_CreateArray();
	int lineno = 0;
	for (char *p = buf, *nl; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		lineno++;
		if (!*p)
			continue;
		cJSON *j = cJSON_Parse(p);
		const cJSON *task = cJSON_GetObjectItemCaseSensitive(j, "task");
		const cJSON *turn = cJSON_GetObjectItemCaseSensitive(j, "turn");
		const cJSON *code = cJSON_GetObjectItemCaseSensitive(j, "code");
		if (!j) {
			cua_errf(err, errlen, "%s: line %d: not JSON", path, lineno);
			free(buf);
			return CUA_E_PARSE;
		}
		/* lines without code (e.g. "end" lines of a trajectory) are skipped */
		if (cJSON_IsString(task) && cJSON_IsNumber(turn) && cJSON_IsString(code))
			cJSON_AddItemToArray(a->lines, j);
		else
			cJSON_Delete(j);
	}
	free(buf);
	return CUA_OK;
}

static enum cua_status replay_init(const cJSON *config, void **agent, char *err,
                                   size_t errlen)
{
	const cJSON *dir = cJSON_GetObjectItemCaseSensitive(config, "dir");
	const cJSON *jl = cJSON_GetObjectItemCaseSensitive(config, "jsonl");
	if (cJSON_IsString(dir) == cJSON_IsString(jl)) {
		cua_errf(err, errlen, "agent config: exactly one of \"dir\" and \"jsonl\" "
		                      "(a string) is required");
		return CUA_E_PARSE;
	}
	struct replay_agent *a = cua_xcalloc(1, sizeof(*a));
	if (cJSON_IsString(dir)) {
		struct stat st;
		if (stat(dir->valuestring, &st) != 0 || !S_ISDIR(st.st_mode)) {
			cua_errf(err, errlen, "agent config: dir: %s is not a directory",
			         dir->valuestring);
			free(a);
			return CUA_E_NOT_FOUND;
		}
		snprintf(a->dir, sizeof(a->dir), "%s", dir->valuestring);
	} else {
		enum cua_status s = load_jsonl(a, jl->valuestring, err, errlen);
		if (s != CUA_OK) {
			cJSON_Delete(a->lines);
			free(a);
			return s;
		}
	}
	*agent = a;
	return CUA_OK;
}

static enum cua_status replay_begin(void *agent, const char *task_id, const char *root,
                                    void **episode, char *err, size_t errlen)
{
	struct replay_episode *e = cua_xcalloc(1, sizeof(*e));
	snprintf(e->task, sizeof(e->task), "%s", task_id);
	*episode = e;
	return CUA_OK;
}

static enum cua_status replay_propose(void *agent, void *episode,
                                      const struct cua_observation *obs,
                                      struct cua_action *act, char *err, size_t errlen)
{
	struct replay_agent *a = agent;
	struct replay_episode *e = episode;
	double t0 = cua_now();

	if (a->lines) {
		const cJSON *j;
		cJSON_ArrayForEach(j, a->lines)
		{
			if (strcmp(cJSON_GetObjectItem(j, "task")->valuestring, e->task) ||
			    cua_to_int(cJSON_GetObjectItem(j, "turn")->valuedouble) != obs->turn)
				continue;
			act->code = cua_xstrdup(cJSON_GetObjectItem(j, "code")->valuestring);
			act->latency_s = cua_now() - t0;
			return CUA_OK;
		}
		act->stop = true;
		return CUA_OK;
	}
	char path[CUA_PATH_BUF];
	struct stat st;
	snprintf(path, sizeof(path), "%s/%s/turn-%d.cu", a->dir, e->task, obs->turn);
	if (stat(path, &st) != 0) {
		act->stop = true;
		return CUA_OK;
	}
	size_t len = 0;
	enum cua_status s = cua_read_file(path, 1 << 20, &act->code, &len, err, errlen);
	act->latency_s = cua_now() - t0;
	return s;
}

static void replay_end(void *agent, void *episode)
{
	free(episode);
}

static void replay_free(void *agent)
{
	struct replay_agent *a = agent;
	if (a)
		cJSON_Delete(a->lines);
	free(a);
}

const struct cua_agent_i cua_agent_replay = {
	.name = "replay",
	.version = "1",
	.init = replay_init,
	.begin = replay_begin,
	.propose = replay_propose,
	.end = replay_end,
	.free = replay_free,
};
CUA_AGENT_REGISTER(cua_agent_replay);
