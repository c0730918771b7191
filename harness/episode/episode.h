/* episode.h — one task's multi-turn episode: observation → code → verdict →
 * reward → feedback, up to T turns. The run engine (run.c) drives it with an
 * agent backend; `cuarena env` drives it with code from an RL trainer. */
#ifndef CUA_EPISODE_H
#define CUA_EPISODE_H

#include <pthread.h>
#include <signal.h>

#include "common.h"
#include "eval/report.h"
#include "episode/reward.h"

struct cJSON;

#define CUA_MAX_TURNS 64

struct cua_episode {
	const struct cua_task *task;        /* borrowed */
	const struct cua_eval_opts *opts;   /* &own (use the episode in place) */
	struct cua_eval_opts own;           /* the caller's options, plus ceilings */
	struct cua_ceilings ceilings;       /* of the baselines' GPU, when known */
	const struct cua_report *base;      /* borrowed: the task's baselines */
	pthread_mutex_t *gpu_lock;          /* borrowed; NULL = no locking */
	const volatile sig_atomic_t *stop;  /* borrowed; NULL = never: set while a step
	                                     * waits for the GPU, the step gives up */
	enum cua_reward_kind reward_kind;
	int turn;                           /* turns taken so far */
	int max_turns;
	char workdir[CUA_PATH_LEN];                 /* candidate sources land here */
	char *obs_text;                     /* the next observation (heap) */
	struct cJSON *obs_json;
	double rewards[CUA_MAX_TURNS];      /* immediate rewards per turn */
	int best_turn;                      /* best correct turn, 0 if none */
	double best_speedup;                /* its speedup vs nvcc */
	bool done;
	char end_reason[256];
};

/* Starts an episode; its first observation is the task's prompt. baselines must
 * have been measured (cua_report_run without a candidate). workdir is created.
 * When o has no ceilings, those of the baselines' GPU are loaded, so candidates
 * get %SOL and the faster-than-light check exactly as the baselines did. */
enum cua_status cua_episode_begin(struct cua_episode *ep, const struct cua_task *t,
                                  const struct cua_eval_opts *o,
                                  const struct cua_report *baselines,
                                  enum cua_reward_kind reward, int max_turns,
                                  const char *workdir, pthread_mutex_t *gpu_lock,
                                  char *err, size_t errlen);

/* Takes a GPU lock, giving up when *stop (may be NULL) becomes non-zero while
 * waiting: CUA_E_INTERRUPTED, the lock not held. A run told to stop evaluates
 * nothing more than what already holds the GPU. */
enum cua_status cua_gpu_lock(pthread_mutex_t *lock, const volatile sig_atomic_t *stop);

/* What one step produced. */
struct cua_step {
	int turn;
	struct cua_eval eval;               /* the candidate's evaluation */
	int n_speedup;
	char speedup_name[CUA_MAX_BASELINES + 3][64];
	double speedup[CUA_MAX_BASELINES + 3];   /* 0 = not correct / not timed */
	double reward;                      /* immediate */
	bool done;                          /* the turn limit is reached */
	char code_sha[65];
};

/* Evaluates `code` as the episode's next turn (code NULL: the agent's reply had
 * none; `note` says why and the turn scores as incorrect). Builds without the
 * GPU lock, evaluates holding it. Fills step (free with cua_step_clear) and the
 * next observation. CUA_E_INTERRUPTED: ep->stop was set while the built kernel
 * waited for the GPU, or ep->opts->build.stop while it compiled; on that and on
 * every other error the turn is not taken (ep->turn unchanged). */
enum cua_status cua_episode_step(struct cua_episode *ep, const char *code,
                                 const char *note, struct cua_step *step, char *err,
                                 size_t errlen);

/* Rebuilds a step from its evals.jsonl object (turn, reward, speedup, eval). */
enum cua_status cua_step_from_json(const struct cJSON *j, struct cua_step *s, char *err,
                                   size_t errlen);

/* Continues an episode after a restart: the turns in steps[0..n) (in order) are
 * taken as done, rewards and the best turn restored, and the next observation is
 * the feedback of the last one — exactly what the agent would have seen. */
void cua_episode_restore(struct cua_episode *ep, const struct cua_step *steps, int n);

/* Ends the episode (reason recorded); final rewards are ep->rewards after
 * cua_reward_finish. */
void cua_episode_end(struct cua_episode *ep, const char *reason);
void cua_episode_clear(struct cua_episode *ep);
void cua_step_clear(struct cua_step *s);

/* True for a turn whose reply held no code (verdict no_code; compile_error
 * "no code: ..." in runs written before that verdict existed): a turn with its
 * reward, but not a built or evaluated candidate. */
bool cua_step_no_code(const struct cua_step *s);

/* Step as the JSON object of an evals.jsonl line (without schema/task). */
struct cJSON *cua_step_to_json(const struct cua_step *s);

#endif /* CUA_EPISODE_H */
