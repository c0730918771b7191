/* reference.c — the `reference` agent: submits a task's own reference kernel (or a
 * named baseline's source) on turn 1, then stops. A sanity agent: the reference
 * must pass and score a speedup of 1.00 against itself.
 * Config: {"baseline": "nvcc"} (default) or e.g. {"baseline": "cudnn/relu"}; a
 * library baseline is judged under the task's library policy like any candidate. */
#include "episode/agent.h"
#include "eval/eval.h"

#include <string.h>
#include <cjson/cJSON.h>

struct reference_agent {
	char baseline[64];
};

struct reference_episode {
	char path[CUA_PATH_BUF];
};

static enum cua_status reference_init(const cJSON *config, void **agent, char *err,
                                      size_t errlen)
{
	struct reference_agent *a = cua_xcalloc(1, sizeof(*a));
	snprintf(a->baseline, sizeof(a->baseline), "nvcc");
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(config, "baseline");
	if (b && !cJSON_IsString(b)) {
		cua_errf(err, errlen, "agent config: baseline: expected a string");
		free(a);
		return CUA_E_PARSE;
	}
	if (cJSON_IsString(b))
		snprintf(a->baseline, sizeof(a->baseline), "%s", b->valuestring);
	*agent = a;
	return CUA_OK;
}

static enum cua_status reference_begin(void *agent, const char *task_id, const char *root,
                                       void **episode, char *err, size_t errlen)
{
	struct reference_agent *a = agent;
	struct reference_episode *e = cua_xcalloc(1, sizeof(*e));
	if (!strcmp(a->baseline, "nvcc"))
		snprintf(e->path, sizeof(e->path), "%s/tasks/%s/reference.cu", root, task_id);
	else
		cua_baseline_path(root, a->baseline, e->path, sizeof(e->path));
	*episode = e;
	return CUA_OK;
}

static enum cua_status reference_propose(void *agent, void *episode,
                                         const struct cua_observation *obs,
                                         struct cua_action *act, char *err, size_t errlen)
{
	struct reference_episode *e = episode;
	double t0 = cua_now();
	if (obs->turn > 1) {
		act->stop = true;
		return CUA_OK;
	}
	size_t len = 0;
	enum cua_status st = cua_read_file(e->path, 1 << 20, &act->code, &len, err, errlen);
	act->latency_s = cua_now() - t0;
	return st;
}

static void reference_end(void *agent, void *episode)
{
	free(episode);
}

static void reference_free(void *agent)
{
	free(agent);
}

const struct cua_agent_i cua_agent_reference = {
	.name = "reference",
	.version = "1",
	.init = reference_init,
	.begin = reference_begin,
	.propose = reference_propose,
	.end = reference_end,
	.free = reference_free,
};
CUA_AGENT_REGISTER(cua_agent_reference);
