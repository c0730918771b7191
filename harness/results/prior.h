/* prior.h — what a run folder already holds, as data, for the writers that go on
 * with it or join it: `run --resume`, a restarted `serve`, `merge`. Read through
 * the one line walk (results.h), once the writer's lock is taken and the torn
 * tails are cut (writer.h), so that all three read a folder alike and say what
 * they found. */
#ifndef CUA_PRIOR_H
#define CUA_PRIOR_H

#include "results/results.h"
#include "eval/report.h"
#include "judge/device.h"

struct cJSON;

#define CUA_PRIOR_TURNS 64        /* turns of an episode: CUA_MAX_TURNS (episode.h) */

/* run.json's settings as data, for the writers that go on with a folder or join
 * it (`run --resume`, a restarted `serve`, `merge`): decoded here and nowhere
 * else, judged by none (each caller refuses, in its own words, what it cannot go
 * on with). Strings and agent_config are borrowed from the document and live as
 * long as it does; only tasks is owned. */
struct cua_prior_run {
	const char *agent, *agent_version;    /* agent.name, agent.version; NULL: absent
	                                       * or not a string */
	const struct cJSON *agent_config;     /* agent.config verbatim (the agent's own
	                                       * shape); NULL: absent */
	double turns;                         /* NaN: absent or not a number */
	const char *reward;                   /* the schedule's name; NULL as above */
	int n_tasks;                          /* -1: "tasks" absent or not an array */
	const char **tasks;                   /* [n_tasks] (heap); an entry NULL: not a
	                                       * string */
	struct cua_device device;             /* cua_device_from_json's; known false:
	                                       * no device named */
	double max_time_s;                    /* the run's timing cap; 0: absent, not a
	                                       * number or not > 0 */
	bool shard;                           /* a "shard" member (run --shard) */
	bool shard_valid;                     /* ...with numbers index and count, 1 <=
	                                       * count <= 65536, an integer 0 <= index <
	                                       * count, and an array selected */
	int shard_index, shard_count;         /* -1 unless shard_valid */
	const struct cJSON *shard_selected;   /* shard.selected verbatim (compared and
	                                       * copied whole by merge); NULL unless
	                                       * shard_valid */
	bool merged;                          /* a "merged" member: written by merge */
};

/* Decodes run (NULL: an empty document) into *out; never fails. */
void cua_prior_run_decode(const struct cJSON *run, struct cua_prior_run *out);
void cua_prior_run_clear(struct cua_prior_run *m);   /* frees tasks; zeroes *m */

/* What to keep beyond the counts (each costs memory on a large folder). */
struct cua_prior_want {
	const char *const *tasks;     /* only lines of these tasks are read; the first
	                               * line of another is named in foreign_* */
	int n_tasks;                  /* tasks NULL: every task */
	bool evals;                   /* each evals.jsonl line's object (a step's codec,
	                               * cua_step_from_json, reads it) */
	bool episode_steps;           /* with evals: only the steps of server-side
	                               * episodes still open (request "step") */
	bool texts;                   /* each turn's observation and reply */
	bool lines;                   /* every line's text, per file (merge) */
};

/* One evals.jsonl line. */
struct cua_prior_eval {
	int line;
	int turn;
	char episode[64];             /* "" none */
	struct cJSON *json;           /* the line (owned) */
};

/* A task's baselines as they stand on one device: its latest set (a subject met
 * again begins a new set, as a remeasure writes one). */
struct cua_prior_base {
	char task[128], gpu[64];      /* gpu "" : the one device of the process */
	int line;                     /* where the first line of this (task, gpu) is */
	struct cua_report rep;        /* rep.task NULL: the caller finds it */
};

/* Everything the folder says about one task. */
struct cua_prior_task {
	char id[128];
	bool listed;                  /* in run.json's tasks */
	bool ended;                   /* its last end line is not "interrupted" */
	int best_turn;                /* that line's */
	uint64_t candidates;          /* bit k-1: turn k was evaluated as a candidate */
	int n_evals;
	struct cua_prior_eval *evals; /* want.evals: in file order */
	bool have_turn[CUA_PRIOR_TURNS + 1];   /* a turn line was written */
	char *shown[CUA_PRIOR_TURNS + 1];      /* want.texts: the last turn line's */
	char *reply[CUA_PRIOR_TURNS + 1];      /* observation and reply (heap, or NULL) */
	int cap_evals;
};

/* A server-side episode ("episode" line of trajectories.jsonl). */
struct cua_prior_episode {
	char id[40], task[128], gpu[64], reward[32];
	int turns, line;
	bool ended;                   /* an end line of it follows */
};

struct cua_prior {
	char dir[CUA_PATH_LEN];
	struct cJSON *run;            /* run.json; NULL when the folder has none */
	struct cua_prior_run meta;    /* run, decoded (borrows from it) */
	int n_tasks;
	struct cua_prior_task *tasks; /* want.tasks' order, then others as met */
	int n_bases;
	struct cua_prior_base *bases;
	int n_episodes;
	struct cua_prior_episode *episodes;
	int eval_lines;               /* every evals.jsonl line read */
	int candidate_lines;          /* ...of them not a reply without code */
	int evaluations;              /* distinct (task, turn) candidates (no_code aside) */
	int episodes_open;
	struct cua_results_tears tears[CUA_RESULTS_N_FILES];   /* what the walk left out */
	struct cua_buf text[CUA_RESULTS_N_FILES];              /* want.lines */
	const char *foreign_file;     /* the first line of a task not wanted: where */
	int foreign_line;             /* (0: none) */
	char foreign_task[128];
	int cap_tasks, cap_bases, cap_episodes;
};

/* Reads dir's run.json (when there is one) and its three .jsonl files. Every
 * line read must name a "task"; baselines lines must decode (cua_eval_from_json),
 * turn lines carry a turn 1..64, end lines a best_turn 0..64 when they have one,
 * episode lines an id, turns 1..64 and a reward name: a line that does not stops
 * the load, naming its file and line (CUA_E_PARSE). On failure *out is NULL. */
enum cua_status cua_prior_load(const char *dir, const struct cua_prior_want *want,
                               struct cua_prior **out, char *err, size_t errlen);
void cua_prior_free(struct cua_prior *p);   /* NULL is a no-op */

/* The task of that id, NULL if the folder has no line of it. */
struct cua_prior_task *cua_prior_task(struct cua_prior *p, const char *id);

/* The baselines of (task, gpu) (gpu "" or NULL: the default device), or NULL. */
struct cua_prior_base *cua_prior_base(struct cua_prior *p, const char *task, const char *gpu);

/* What the folder held, in one sentence for a restart's log: evaluations, tasks
 * or episodes ended and open, and every torn line cut or skipped (file, line,
 * bytes), with the tails the writer cut on opening (cut, may be NULL). */
void cua_prior_say(const struct cua_prior *p, const long *cut, struct cua_buf *out);

/* The earlier segments of run.json (a run.json from before segments counts its
 * summary as one): their number, wall and GPU-busy time, GPU-seconds held and
 * candidates' GPU time (cand_known: every segment recorded it). A segment
 * without wall_s or gpu_busy_s >= 0 is CUA_E_PARSE naming run.json. */
struct cua_prior_segments {
	int n;
	double wall_s, gpu_busy_s, gpu_s, candidate_gpu_s;
	bool cand_known;
};
enum cua_status cua_prior_segments(const struct cJSON *run, const char *dir,
                                   struct cua_prior_segments *out, char *err, size_t errlen);

#endif /* CUA_PRIOR_H */
