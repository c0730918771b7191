/* resume.h — what a killed run left in its folder, for `cuarena run --resume`:
 * what the folder holds (results/prior.h) made into each task's episode steps and
 * baselines, so the run goes on with nothing lost or judged twice (run.c
 * restores them). */
#ifndef CUA_RESUME_H
#define CUA_RESUME_H

#include "episode/episode.h"
#include "episode/reward.h"
#include "eval/report.h"
#include "results/prior.h"

struct cJSON;

/* One task's part of a killed run. */
struct cua_resume_task {
	bool ended;                         /* its last end line is not "interrupted" */
	int best_turn;
	int n_steps;
	struct cua_step steps[CUA_MAX_TURNS];   /* evaluated turns, in turn order */
	bool have_traj[CUA_MAX_TURNS + 1];  /* per turn: its trajectory line was written */
	char *shown[CUA_MAX_TURNS + 1];     /* per turn: the observation, the reply */
	char *reply[CUA_MAX_TURNS + 1];     /* (trajectories.jsonl; heap, may be NULL) */
	bool have_base;
	struct cua_report base;             /* its measured baselines */
	char gpu[64];                       /* the device its baselines name ("" none) */
	int slot;                           /* where it must go on: that device's index */
};

/* The run's part of what its folder holds (p, loaded with tasks and their evals
 * and texts; its baselines' reports and texts are taken from it) for tasks[i]
 * into (*out)[i], i < n_tasks. A line of the run's tasks that does not decode as
 * a step, or a task whose baselines name two devices, stops it naming the file
 * and line (CUA_E_PARSE). slot: the index in gpus[0..n_gpus) of the device a
 * task's baselines name, i % n_gpus without baselines; a device not among them
 * is CUA_E_USAGE. *evaluations: the candidates found (no_code turns aside). Free
 * *out with cua_resume_free; on failure it is NULL. */
enum cua_status cua_resume_load(struct cua_prior *p, const struct cua_task *const *tasks,
                                int n_tasks, const char (*gpus)[64], int n_gpus,
                                struct cua_resume_task **out, int *evaluations, char *err,
                                size_t errlen);
void cua_resume_free(struct cua_resume_task *prior, int n_tasks);   /* NULL: no-op */

/* Reads a run's run.json for --resume: agent name, config (owned by the caller
 * via *config, free with cJSON_Delete), version, turns, reward and task ids
 * (heap array of heap strings, free with cua_resume_free_ids). */
enum cua_status cua_resume_read_meta(const char *dir, char *agent, size_t agent_len,
                                     struct cJSON **config, char *version,
                                     size_t version_len, int *turns,
                                     enum cua_reward_kind *reward, char ***ids, int *n_ids,
                                     char *err, size_t errlen);
void cua_resume_free_ids(char **ids, int n);

#endif /* CUA_RESUME_H */
