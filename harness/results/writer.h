/* writer.h — the one writer of a run folder, results/<run>/ (docs/RESULTS-FORMAT.md):
 * `run`, `serve` and `merge` write through it. It holds the folder's lock, cuts the
 * torn tails before it appends, composes run.json and every kind of line from
 * plain records, and writes each line whole or not at all. */
#ifndef CUA_WRITER_H
#define CUA_WRITER_H

#include "results/results.h"
#include "judge/device.h"

struct cJSON;
struct cua_task;
struct cua_writer;

/* ---- the folder ------------------------------------------------------------------ */

/* What opening a folder found: per file, the bytes of a torn last line cut. */
struct cua_writer_opened {
	long cut[CUA_RESULTS_N_FILES];
};

/* Opens dir for writing (created with its parents when missing): takes its lock
 * (an exclusive flock on dir/writer.lock, which then names this process: "pid N
 * who on host"), cuts each .jsonl file's torn tail (a writer killed mid-line;
 * *opened, may be NULL, says how much), and opens the three files to append.
 * A folder another process holds is CUA_E_USAGE naming that process: one writer
 * per folder. The lock lives as long as the writer (cua_writer_close), and never
 * passes to a child (close-on-exec). who: "run", "serve", "merge". Also ignores
 * SIGXFSZ in this process, so a file-size limit is a failed write, not a death. */
enum cua_status cua_writer_open(const char *dir, const char *who, struct cua_writer **out,
                                struct cua_writer_opened *opened, char *err, size_t errlen);
void cua_writer_close(struct cua_writer *w);   /* NULL is a no-op; the lock goes */

/* The lock alone, on a folder about to be replaced (merge puts a new one in its
 * place): dir is created when missing, no file is opened, no line written. */
enum cua_status cua_writer_lock(const char *dir, const char *who, struct cua_writer **out,
                                char *err, size_t errlen);

const char *cua_writer_dir(const struct cua_writer *w);

/* Whether dir's lock is held by a process (another writer, or this one through
 * another writer); when it is, *holder gets its line ("pid N serve on host"). */
bool cua_writer_held(const char *dir, char *holder, size_t len);

/* Since the last write that failed and none after it succeeded: true, with a
 * reason naming the file but not the folder (it is shown to unauthenticated
 * clients). failures: writes that failed since the open. */
bool cua_writer_failing(struct cua_writer *w, char *reason, size_t len, uint64_t *failures);

/* ---- lines: each one write() of the whole line, fsynced; a write that fails
 * (or whose fsync does) is cut back off the file (ftruncate) before these return
 * CUA_E_IO, so a line is whole or absent. A cut that fails too is tried again
 * before the next line of that file, which is refused until it succeeds. Every
 * line gets "schema": CUA_RESULTS_SCHEMA. Thread-safe. -------------------------- */

/* Where an evaluation was made: what its evals.jsonl line says beside the step. */
struct cua_eval_where {
	const char *task;             /* the task's id */
	int level;
	const char *gpu;              /* NULL or "": the one device this process sees */
	const char *request;          /* serve: "evaluate" or "step"; NULL in a run */
	const char *episode;          /* serve: the episode's id or the trainer's label */
	const char *reward_kind;      /* serve: the schedule's name; NULL in a run */
};

/* An evals.jsonl line: the step's object (its codec: cua_step_to_json; consumed)
 * with where it was made. */
enum cua_status cua_writer_eval(struct cua_writer *w, const struct cua_eval_where *at,
                                struct cJSON *step, char *err, size_t errlen);

/* A baselines.jsonl line: the task's id, level, its flops and bytes at its timed
 * shape (cua_results_task_work; each left out when NaN: plots read them from the
 * run, never from today's catalogue), the evaluation, gpu when not NULL, and
 * "store" (measured or reused: judge/bstore.h) when origin says either. */
struct cua_bstore_origin;
enum cua_status cua_writer_baseline(struct cua_writer *w, const struct cua_task *t,
                                    const struct cua_eval *e, const char *gpu,
                                    const struct cua_bstore_origin *origin, char *err,
                                    size_t errlen);

/* A trajectories.jsonl "turn" line. */
struct cua_turn_line {
	const char *task;
	int turn;
	const char *prompt_sha256;    /* of what the agent was shown; NULL: computed from
	                               * observation */
	const char *observation;      /* what the agent was shown ("" when unknown) */
	const char *reply;            /* what it answered ("" when unknown) */
	const char *code;             /* NULL: the reply had none (null in the line) */
	enum cua_verdict verdict;
	double reward;
	bool agent;                   /* a run's agent answered: tokens and latency are its */
	int prompt_tokens, completion_tokens;
	double latency_s;
	bool recovered;               /* rebuilt by a resume from the source on disk */
	const char *episode;          /* serve: the episode; NULL none */
};
enum cua_status cua_writer_turn(struct cua_writer *w, const struct cua_turn_line *l, char *err,
                                size_t errlen);

/* A trajectories.jsonl "end" line. */
struct cua_end_line {
	const char *task;
	const char *episode;          /* serve: the episode; NULL in a run */
	int turns;                    /* turns taken; final_turn is the last of them */
	const char *reason;
	int best_turn;                /* 0: none was correct */
	const double *rewards;        /* [turns]: each turn's, settled by the schedule */
};
enum cua_status cua_writer_end(struct cua_writer *w, const struct cua_end_line *l, char *err,
                               size_t errlen);

/* A trajectories.jsonl "episode" line: a server-side episode began (serve). */
struct cua_episode_line {
	const char *task, *episode;
	int turns;
	const char *reward;           /* the schedule's name */
	const char *gpu;              /* NULL or "": the one device */
};
enum cua_status cua_writer_episode(struct cua_writer *w, const struct cua_episode_line *l,
                                   char *err, size_t errlen);

/* Lines kept as they are (merge joins shards' lines unchanged): text[0..len) is
 * whole lines, each ending in '\n', already read by the results reader; written
 * and fsynced together, or cut back together. */
enum cua_status cua_writer_lines(struct cua_writer *w, enum cua_results_file f,
                                 const char *text, size_t len, char *err, size_t errlen);

/* ---- run.json: one document per folder, held by the writer, changed by these
 * and rewritten whole (temporary file, fsync, rename) by cua_writer_run_save. ---- */

/* A new run's fixed fields. */
struct cua_run_meta {
	const char *run_id, *created;         /* created: ISO 8601 UTC */
	const char *catalogue_hash, *nvcc;
	int catalogue_version;                /* struct cua_catalogue's; 0: 1 */
	const char *agent, *agent_version;
	const struct cJSON *agent_config;     /* copied; NULL: {} */
	const char *prompts_sha256;           /* NULL: left out */
	int turns;
	const char *reward;                   /* the schedule's name */
	double max_time_s;
	const uint64_t *public_seeds;         /* [3] */
	const char *const *tasks;             /* [n_tasks] */
	int n_tasks;
};
void cua_writer_run_new(struct cua_writer *w, const struct cua_run_meta *m);

/* Takes up the folder's run.json (cua_results_read_run_json's checks), adding
 * `when` to its "resumed" times. */
enum cua_status cua_writer_run_continue(struct cua_writer *w, const char *when, char *err,
                                        size_t errlen);

/* The document, to read (not to change); NULL before new or continue. */
const struct cJSON *cua_writer_run(const struct cua_writer *w);

void cua_writer_run_device(struct cua_writer *w, const struct cua_device *d);
bool cua_writer_run_task(struct cua_writer *w, const char *id);   /* true: added */
void cua_writer_run_gpus(struct cua_writer *w, const char (*names)[64], int n);
void cua_writer_run_shard(struct cua_writer *w, struct cJSON *shard);   /* consumed */
void cua_writer_run_max_time(struct cua_writer *w, double s);   /* when it has none */

/* The baseline store as one invocation used it (a segment's "baseline_store"). */
struct cua_run_store {
	bool on;                              /* a store was used (not --baseline-store off) */
	bool fresh;                           /* --fresh-baselines */
	int measured, reused, stored;         /* baselines measured, reused from it, put in it */
	int drift_passed, drift_drifted;      /* devices whose drift check passed; found drifted */
};

/* One invocation of a run (run.json "segments"). */
struct cua_run_segment {
	const char *started;                  /* ISO 8601 UTC */
	int gpus;
	double wall_s;
	int evaluations;                      /* candidates (no_code turns are not) */
	double gpu_busy_s, candidate_gpu_s;
	bool interrupted;
	const struct cua_run_store *store;    /* NULL: "baseline_store" left as it is */
};
/* This invocation's segment: appended (with the host and, under Slurm, the job)
 * the first time, brought up to date after. A run.json from before segments has
 * its summary made the first one. */
void cua_writer_run_segment(struct cua_writer *w, const struct cua_run_segment *s);

/* The whole run (run.json "summary"). Its "baseline_store" is made here from the
 * segments' (summed; left out when none has one). */
struct cua_run_totals {
	int tasks_done, tasks_correct, evaluations;
	double wall_s, gpu_busy_s, gpu_s;
	double candidate_gpu_s;               /* < 0: unknown, left out */
	int segments, gpus;
	double elapsed_s;                     /* < 0: left out (a merge's wall time) */
	bool interrupted;
};
void cua_writer_run_summary(struct cua_writer *w, const struct cua_run_totals *t);

/* One shard of a merge (cmd-merge.c): its run.json and what its lines hold. */
struct cua_merge_part {
	const struct cJSON *run;
	int shard;                            /* its index; -1: not a shard */
	int n_tasks, tasks_done, tasks_correct, evaluations;
	bool open;                            /* a task of it is unfinished */
};
/* A merged run's run.json: the first part's fields, which all share, except
 * run_id, created (the earliest), tasks, every part's segments (with "shard"),
 * resumed times and devices, "merged", and the summary over them (the
 * baseline store's figures summed over every shard's segments). */
void cua_writer_run_merged(struct cua_writer *w, const struct cua_merge_part *parts, int n,
                           const char *run_id, const struct cJSON *tasks);

/* Rewrites run.json when something changed since it was last written. */
enum cua_status cua_writer_run_save(struct cua_writer *w, char *err, size_t errlen);

#endif /* CUA_WRITER_H */
