/* report.h — one task's report, as `cuarena eval` and `cuarena baselines` print
 * it and an episode's turn records it: the nvcc reference, every library
 * baseline, the imported torch figures and a candidate when given, with speedups. */
#ifndef CUA_REPORT_H
#define CUA_REPORT_H

#include "eval/eval.h"
#include "judge/bstore.h"

struct cJSON;

/* A report: one candidate (optional) and the task's baselines, in one invocation. */
struct cua_report {
	const struct cua_task *task;
	struct cua_device device;
	bool has_candidate;
	struct cua_eval candidate;
	int n_base;
	struct cua_eval base[CUA_MAX_BASELINES + 3];   /* [0] = nvcc reference; imported
	                                                 * torch-eager/-compile last */
	struct cua_bstore_origin origin[CUA_MAX_BASELINES + 3];   /* of each base[]: measured
	                                                 * or reused (NONE without a store) */
};

/* Evaluates the candidate (if src_path) and every baseline of the task. Without a
 * candidate and with o->bstore, the baselines come from the store where their key
 * matches (cua_report_run_stored). */
enum cua_status cua_report_run(const struct cua_task *t, const char *src_path,
                               const struct cua_eval_opts *o, struct cua_report *r,
                               char *err, size_t errlen);

/* A task's baselines through o->bstore (report-store.c): each one's key (the
 * task's folder, the baseline's source and object, the device, its library's
 * version, the timing method and options) looked up, reused on a hit, measured
 * and stored on a miss, with the drift check of cua_bstore_obtain; r->origin says
 * which. The imported torch figures as cua_report_run adds them. */
enum cua_status cua_report_run_stored(const struct cua_task *t, const struct cua_eval_opts *o,
                                      struct cua_report *r, char *err, size_t errlen);
void cua_report_clear(struct cua_report *r);

/* time(baseline) / time(candidate) from event medians; 0 when either failed. */
double cua_speedup(const struct cua_eval *baseline, const struct cua_eval *cand);

struct cJSON *cua_report_to_json(const struct cua_report *r);
/* Adds the imported torch-eager / torch-compile figures of task t for GPU `gpu`
 * (root/baselines/torch/<GPU>.json, written by tools/torch_check.py) to r.
 * Missing file or task: nothing added. */
void cua_report_import_torch(const char *root, const char *gpu, struct cua_report *r);

/* The index of r's baseline of that subject ("nvcc", "cudnn/relu"), or -1. */
int cua_report_find(const struct cua_report *r, const char *subject);

/* Whether r holds every baseline cua_report_run makes for task t on GPU `gpu`
 * (the reference, each library baseline, the torch figures root's file has for
 * it); if not, the first one missing is named in missing. A run killed between
 * two of a task's baselines lines left a report that is not. */
bool cua_report_complete(const struct cua_task *t, const struct cua_report *r,
                         const char *root, const char *gpu, char *missing, size_t len);

/* The fastest correct, measured (not imported) library baseline of a report, or
 * NULL when the task has none. */
const struct cua_eval *cua_report_best_library(const struct cua_report *r);

#endif /* CUA_REPORT_H */
