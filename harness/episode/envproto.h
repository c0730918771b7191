/* envproto.h — the `env` protocol's requests and replies (docs/AGENT-PROTOCOL.md,
 * "env"): what `cuarena env` reads on stdin and what `cuarena serve` reads over
 * HTTP, parsed and answered by the same code, so that both say the same. */
#ifndef CUA_ENVPROTO_H
#define CUA_ENVPROTO_H

#include "episode/episode.h"
#include "catalogue/catalogue.h"

struct cJSON;

/* A reset request: {"task", "turns" (1..64, default 8), "reward" (default
 * cuda-agent), "remeasure" (default false)}. */
struct cua_env_reset {
	const struct cua_task *task;        /* borrowed from the catalogue */
	int turns;
	enum cua_reward_kind reward;
	bool remeasure;
};

/* Parses a reset request; the error names the field ("reset: \"turns\" ..."),
 * or the unknown task. */
enum cua_status cua_env_parse_reset(const struct cua_catalogue *cat, const struct cJSON *req,
                                    struct cua_env_reset *r, char *err, size_t errlen);

/* Starts the episode of a parsed reset in workdir/<task folder>/ (created).
 * base: the task's measured baselines (borrowed for the episode's life);
 * gpu_lock may be NULL. */
enum cua_status cua_env_begin(struct cua_episode *ep, const struct cua_env_reset *r,
                              const struct cua_eval_opts *o, const struct cua_report *base,
                              const char *workdir, pthread_mutex_t *gpu_lock, char *err,
                              size_t errlen);

/* The reply to a reset: {"ok":true,"task","turn","max_turns","observation",
 * "done","baselines": how ("measured", "cached", "none"), "warning" when !gpu}. */
struct cJSON *cua_env_reset_reply(const struct cua_episode *ep, const char *how, bool gpu);

/* A step request {"code": "..."} on ep: refuses a step with no episode
 * (ep NULL), after the last turn, or without a code string (CUA_E_INVALID, err
 * says which); else evaluates it (cua_episode_step) and ends the episode at its
 * turn limit. Other errors are cua_episode_step's. */
enum cua_status cua_env_step(struct cua_episode *ep, const struct cJSON *req,
                             struct cua_step *st, char *err, size_t errlen);

/* The reply to a step: {"ok":true,"turn","verdict","reward","done",
 * "rewards" (when done: every turn's, settled), "observation","result"}. */
struct cJSON *cua_env_step_reply(const struct cua_episode *ep, const struct cua_step *st);

/* {"ok":false,"error":msg}. */
struct cJSON *cua_env_error(const char *msg);

#endif /* CUA_ENVPROTO_H */
