/* shard.h — `cuarena run --shard I/N`: a deterministic split of the selected
 * tasks into N shards of about equal expected cost (docs/SCALE-OUT.md), so that a
 * cluster runs them as N independent runs that `cuarena merge` joins again. */
#ifndef CUA_SHARD_H
#define CUA_SHARD_H

#include "common.h"
#include "catalogue/task.h"

#define CUA_SHARD_MAX 4096

/* Parses "I/N" (0 <= I < N <= CUA_SHARD_MAX) into *index, *count; false when
 * it is not that. */
bool cua_shard_parse(const char *s, int *index, int *count);

/* Where a task's expected cost came from. */
enum cua_cost_source {
	CUA_COST_MODEL = 0,       /* the catalogue: elements and flops of the timed shape */
	CUA_COST_MEASURED = 1,    /* a previous run's measured baselines (--costs RUN) */
};

/* Expected GPU seconds of one full measurement of the task (check and timing
 * of every shape, as the nvcc baseline gets): from the catalogue alone. Never
 * below a floor, never NaN. */
double cua_shard_model_s(const struct cua_task *t);

/* Per-measurement seconds of every task of a previous run (RUN/baselines.jsonl:
 * the nvcc baseline's seconds.run), for tasks[0..n) into unit_s[i] (0 when the
 * run has none for it). err names the file and line of a bad line. */
enum cua_status cua_shard_measured(const char *run_dir, const struct cua_task *const *tasks,
                                   int n, double *unit_s, char *err, size_t errlen);

/* Expected cost of each task of a run of `turns` turns: unit × (measured
 * baselines + turns), unit from measured[i] when > 0, else the model. */
void cua_shard_costs(const struct cua_task *const *tasks, int n, const double *measured,
                     int turns, double *cost, enum cua_cost_source *src);

/* Deals tasks[0..n) to `count` shards: by cost, largest first (ties: catalogue
 * order), each to the shard with the smallest total so far (ties: lowest index).
 * shard_of[i] receives task i's shard. Same inputs, same split, on any machine. */
void cua_shard_partition(const double *cost, int n, int count, int *shard_of);

struct cJSON;

/* `run --shard index/count`: keeps in tasks[0..*n) (catalogue order) only the
 * shard's own, and returns in *block (owned by the caller) run.json's "shard"
 * object: index, count, every selected task, where the costs came from and each
 * shard's expected seconds. costs_dir (NULL: the model alone) is a run whose
 * measured baselines give the costs. Fails (err says why) when there are fewer
 * tasks than shards or costs_dir cannot be read. */
enum cua_status cua_shard_apply(const struct cua_task **tasks, int *n, int index, int count,
                                const char *costs_dir, int turns, struct cJSON **block,
                                char *err, size_t errlen);

#endif /* CUA_SHARD_H */
