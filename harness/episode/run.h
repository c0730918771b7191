/* run.h — the run engine: many episodes in flight, agent calls concurrent,
 * candidates compiled in parallel on the CPU, each GPU evaluating one kernel at a
 * time; results appended and fsynced to results/<run-id>/ (docs/RESULTS-FORMAT.md). */
#ifndef CUA_RUN_H
#define CUA_RUN_H

#include "episode/agent.h"
#include "episode/episode.h"

struct cJSON;

struct cua_run_opts {
	const char *root;
	const struct cua_agent_i *agent;
	const struct cJSON *agent_config;   /* borrowed; may be NULL */
	const char *agent_version;          /* label for boards; NULL = backend version */
	int turns;                          /* default 8 */
	enum cua_reward_kind reward;        /* default cuda-agent */
	int level;                          /* 0 = all */
	const char *tasks_glob;             /* NULL = all; matched against id and folder */
	int jobs;                           /* episodes in flight; default = CPU cores */
	const char *out_dir;                /* NULL = results/<run-id> */
	bool require_gpu;                   /* refuse to start without /dev/nvidia* */
	bool progress;                      /* a progress bar (on a TTY) */
	bool resume;                        /* continue the run in out_dir: its run.json
	                                     * fixes the tasks; finished episodes and
	                                     * evaluated turns are not repeated */
	const char *gpus;                   /* "0,1": one evaluation at a time on each of
	                                     * these CUDA devices, each task (baselines and
	                                     * candidates) on one; NULL = the one device
	                                     * this process sees */
	int shard_index, shard_count;       /* --shard I/N: only shard I of the selected
	                                     * tasks split N ways (shard.h); count 0 = all */
	const char *shard_costs;            /* a run whose measured baselines weigh the
	                                     * split; NULL = the catalogue's model */
	const char *const *task_ids;        /* explicit task list (resume); NULL = select */
	int n_task_ids;
	struct cua_eval_opts eval;
	bool max_time_given;                /* eval.max_time_s was asked for: a resume
	                                     * refuses it unless it is the run's own */
};

void cua_run_opts_init(struct cua_run_opts *o, const char *root, const char *self_exe,
                       const char *cache_dir);

#define CUA_MAX_GPUS 16

/* Splits a --gpus list ("0,1" or GPU UUIDs) into names; returns how many, or -1
 * with err (empty, a bad character, a duplicate, more than CUA_MAX_GPUS). */
int cua_run_parse_gpus(const char *list, char names[][64], char *err, size_t errlen);

struct cua_run_summary {
	char out_dir[CUA_PATH_LEN];
	int tasks, tasks_done, tasks_correct;
	int evaluations;                    /* candidate evaluations (turns whose reply
	                                     * had no code are not candidates) */
	int agent_failed;                   /* episodes of this invocation that ended
	                                     * because the agent failed (`run` exits 4) */
	int gpus;                           /* devices evaluating */
	/* Over every segment of the run (a resumed run has one per invocation):
	 * wall_s, gpu_busy_s summed over the devices, gpu_s the GPU-seconds held
	 * (each segment's wall time times its devices). */
	double wall_s, gpu_busy_s, gpu_s;
	/* the part of gpu_busy_s spent on candidates (not the baselines); -1 when
	 * an earlier segment of the run did not record it */
	double candidate_gpu_s;
	int segments;
	bool interrupted;
};

/* Runs the episodes. Returns an error only when the run could not start or its
 * files could not be written; agent and kernel failures are results. */
enum cua_status cua_run(const struct cua_run_opts *o, struct cua_run_summary *sum,
                        char *err, size_t errlen);

/* Whether a run of that --level (0 all) and --tasks glob (NULL all) selects t. */
bool cua_run_selects(const struct cua_task *t, int level, const char *glob);

/* Asks a running cua_run to stop cleanly (what SIGINT does). */
void cua_run_interrupt(void);

#endif /* CUA_RUN_H */
