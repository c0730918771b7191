/* envproto.c — the `env` protocol's requests and replies, shared by `cuarena env`
 * (JSON lines) and `cuarena serve` (HTTP). */
#include "episode/envproto.h"

#include <string.h>
#include <cjson/cJSON.h>

enum cua_status cua_env_parse_reset(const struct cua_catalogue *cat, const cJSON *req,
                                    struct cua_env_reset *r, char *err, size_t errlen)
{
	const cJSON *task = cJSON_GetObjectItem(req, "task");
	const cJSON *turns = cJSON_GetObjectItem(req, "turns");
	const cJSON *rw = cJSON_GetObjectItem(req, "reward");
	const cJSON *rem = cJSON_GetObjectItem(req, "remeasure");

	memset(r, 0, sizeof(*r));
	r->turns = 8;
	r->reward = CUA_REWARD_CUDA_AGENT;
	if (!cJSON_IsString(task)) {
		cua_errf(err, errlen, "reset: \"task\" (a string) is required");
		return CUA_E_INVALID;
	}
	if (turns && (!cJSON_IsNumber(turns) || turns->valuedouble < 1 ||
	              turns->valuedouble > CUA_MAX_TURNS)) {
		cua_errf(err, errlen, "reset: \"turns\" must be a number from 1 to %d",
		         CUA_MAX_TURNS);
		return CUA_E_INVALID;
	}
	if (turns)
		r->turns = (int)turns->valuedouble;
	if (rw && (!cJSON_IsString(rw) || !cua_reward_parse(rw->valuestring, &r->reward))) {
		cua_errf(err, errlen, "reset: \"reward\" must be cuda-agent, kevin or log-speedup");
		return CUA_E_INVALID;
	}
	if (rem && !cJSON_IsBool(rem)) {
		cua_errf(err, errlen, "reset: \"remeasure\" must be true or false");
		return CUA_E_INVALID;
	}
	r->remeasure = cJSON_IsTrue(rem);
	r->task = cua_catalogue_find(cat, task->valuestring, err, errlen);
	return r->task ? CUA_OK : CUA_E_NOT_FOUND;
}

enum cua_status cua_env_begin(struct cua_episode *ep, const struct cua_env_reset *r,
                              const struct cua_eval_opts *o, const struct cua_report *base,
                              const char *workdir, pthread_mutex_t *gpu_lock, char *err,
                              size_t errlen)
{
	const char *folder = strrchr(r->task->id, '/');
	char dir[CUA_PATH_BUF];
	snprintf(dir, sizeof(dir), "%.4000s/%s", workdir, folder ? folder + 1 : r->task->id);
	return cua_episode_begin(ep, r->task, o, base, r->reward, r->turns, dir, gpu_lock, err,
	                         errlen);
}

cJSON *cua_env_reset_reply(const struct cua_episode *ep, const char *how, bool gpu)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddBoolToObject(o, "ok", true);
	cJSON_AddStringToObject(o, "task", ep->task->id);
	cJSON_AddNumberToObject(o, "turn", ep->turn + 1);
	cJSON_AddNumberToObject(o, "max_turns", ep->max_turns);
	cJSON_AddStringToObject(o, "observation", ep->obs_text);
	cJSON_AddBoolToObject(o, "done", ep->done);
	cJSON_AddStringToObject(o, "baselines", how);
	if (!gpu)
		cJSON_AddStringToObject(o, "warning", "no NVIDIA GPU here: kernels that compile "
		                                      "cannot be run, and no baseline is timed");
	return o;
}

enum cua_status cua_env_step(struct cua_episode *ep, const cJSON *req, struct cua_step *st,
                             char *err, size_t errlen)
{
	const cJSON *code = cJSON_GetObjectItem(req, "code");
	memset(st, 0, sizeof(*st));
	if (!ep) {
		cua_errf(err, errlen, "step: no episode: send reset first");
		return CUA_E_INVALID;
	}
	if (ep->done) {
		cua_errf(err, errlen, "step: the episode is over: send reset");
		return CUA_E_INVALID;
	}
	if (!cJSON_IsString(code)) {
		cua_errf(err, errlen, "step: \"code\" (a string) is required");
		return CUA_E_INVALID;
	}
	enum cua_status s = cua_episode_step(ep, code->valuestring, NULL, st, err, errlen);
	if (s == CUA_OK && st->done)
		cua_episode_end(ep, "turn limit");
	return s;
}

cJSON *cua_env_step_reply(const struct cua_episode *ep, const struct cua_step *st)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddBoolToObject(o, "ok", true);
	cJSON_AddNumberToObject(o, "turn", st->turn);
	cJSON_AddStringToObject(o, "verdict", cua_verdict_name(st->eval.verdict));
	cJSON_AddNumberToObject(o, "reward", st->reward);
	cJSON_AddBoolToObject(o, "done", st->done);
	if (st->done) {
		/* schedules that discount (kevin) settle every turn's reward at the end */
		cJSON *rw = cJSON_AddArrayToObject(o, "rewards");
		for (int i = 0; i < ep->turn; i++)
			cJSON_AddItemToArray(rw, cJSON_CreateNumber(ep->rewards[i]));
	}
	cJSON_AddStringToObject(o, "observation", ep->obs_text);
	cJSON_AddItemToObject(o, "result", cua_step_to_json(st));
	return o;
}

cJSON *cua_env_error(const char *msg)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddBoolToObject(o, "ok", false);
	cJSON_AddStringToObject(o, "error", msg);
	return o;
}
