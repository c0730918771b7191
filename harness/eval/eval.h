/* eval.h — evaluating one kernel on a task: compile → static check → sandboxed
 * run in the judge → verdict. A task's whole report (every baseline, a candidate,
 * speedups) is report.h; the GPU and its ceilings are device.h. */
#ifndef CUA_EVAL_H
#define CUA_EVAL_H

#include "common.h"
#include "compile/compile.h"
#include "catalogue/task.h"
#include "judge/verdict.h"
#include "judge/device.h"

struct cua_bstore;


struct cua_eval_opts {
	const char *root;           /* repo root */
	const char *self_exe;       /* this binary, for the __judge child */
	struct cua_build_opts build;
	double run_timeout_s;       /* whole child run (check + timing); default 180 */
	bool time;                  /* time after checking (default true) */
	double max_time_s;          /* timing cap per kernel (default 3) */
	int min_samples;            /* 0 = default (10) */
	uint64_t seeds[3];          /* public seeds */
	const struct cua_ceilings *ceilings; /* NULL = no %SOL */
	const char *gpu;            /* the children's CUDA_VISIBLE_DEVICES (one device);
	                             * NULL = this process's own, if any */
	struct cua_bstore *bstore;  /* a task's baselines (cua_report_run without a
	                             * candidate) from this store when their key
	                             * matches (judge/bstore.h); NULL = all measured */
	bool bstore_fresh;          /* reuse nothing from it this time (serve's remeasure):
	                             * measure, and store what was measured */
};

/* The scrubbed environment of an evaluation child: PATH, LANG, and only
 * LD_LIBRARY_PATH and CUDA_VISIBLE_DEVICES from outside (o->gpu, when set,
 * replaces the latter). NULL-terminated in env; strings live in the struct. */
struct cua_child_env {
	const char *env[8];
	char ld[CUA_PATH_BUF], vis[256];
};
void cua_child_env(const struct cua_eval_opts *o, struct cua_child_env *ce);

/* Defaults: public seeds fixed (1, 2, 3) so runs are reproducible. The secret
 * inputs are the judge's alone: it draws a key from the OS for every job. */
void cua_eval_opts_init(struct cua_eval_opts *o, const char *root,
                        const char *self_exe, const char *cache_dir);

enum cua_subject_kind {
	CUA_SUBJECT_CANDIDATE = 0,  /* untrusted: static check, task's library policy */
	CUA_SUBJECT_REFERENCE = 1,  /* the task's reference.cu (the nvcc baseline) */
	CUA_SUBJECT_BASELINE = 2,   /* baselines/<lib>/<slug>.cu */
};

/* Evaluates one kernel source on one task. Whatever the kernel does, the
 * outcome lands in *e (a verdict); an error return means the harness itself
 * could not work (no nvcc, unreadable files, no GPU). dev (optional) receives
 * the device the child saw. */
enum cua_status cua_eval_source(const struct cua_task *t, const char *src_path,
                                enum cua_subject_kind kind, const char *subject,
                                const struct cua_eval_opts *o, struct cua_eval *e,
                                struct cua_device *dev, char *err, size_t errlen);

/* Non-degeneracy of a task, proved from its oracle (__judge --degeneracy). */
#define CUA_MAX_DEGEN 96
struct cua_degeneracy {
	int n;
	struct {
		char shape[32], check[48], output[32];
		double differ, n;         /* elements out of tolerance; output size */
		bool ok;
	} c[CUA_MAX_DEGEN];
};

/* Runs the degeneracy checks of a task in a sandboxed child (and, with dump_dir,
 * writes its check-shape inputs and oracle outputs there). The verdict lands in
 * e: ok, or wrong_output "degenerate task: ..."; d (optional) gets each check. */
enum cua_status cua_eval_degeneracy(const struct cua_task *t,
                                    const struct cua_eval_opts *o,
                                    const char *dump_dir, struct cua_eval *e,
                                    struct cua_degeneracy *d, struct cua_device *dev,
                                    char *err, size_t errlen);

/* A candidate's evaluation in two halves, so that builds (CPU) can run in
 * parallel while evaluations (GPU) take turns: cua_build_candidate compiles with
 * the task's library policy; cua_eval_built judges that build (it takes over b's
 * heap members). */
enum cua_status cua_build_candidate(const struct cua_task *t, const char *src_path,
                                    const struct cua_eval_opts *o, struct cua_build *b,
                                    char *err, size_t errlen);
enum cua_status cua_eval_built(const struct cua_task *t, const char *src_path,
                               const struct cua_eval_opts *o, struct cua_build *b,
                               struct cua_eval *e, struct cua_device *dev, char *err,
                               size_t errlen);

/* Builds a task's reference and every library baseline into the compile cache,
 * on the CPU, so that measuring them (cua_report_run, holding the GPU) finds
 * every object built. *built counts the builds that were not cache hits. A
 * kernel that does not compile is left for the measurement to report. */
enum cua_status cua_prebuild_baselines(const struct cua_task *t,
                                       const struct cua_eval_opts *o, int *built,
                                       char *err, size_t errlen);

/* Path of a task's baseline source ("cublas/sgemm" → root/baselines/cublas/sgemm.cu). */
void cua_baseline_path(const char *root, const char *name, char *buf, size_t len);

#endif /* CUA_EVAL_H */
