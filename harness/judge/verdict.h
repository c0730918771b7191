/* verdict.h — what one evaluation of one kernel produced, and its JSON form.
 * A failing candidate is data: every outcome is a verdict, never an error. */
#ifndef CUA_VERDICT_H
#define CUA_VERDICT_H

#include "common.h"
#include "judge/stats.h"
#include "compile/symcheck.h"

struct cJSON;

/* Outcomes. Values are appended, never renumbered; names are the JSON form. */
enum cua_verdict {
	CUA_VERDICT_OK = 0,
	CUA_VERDICT_COMPILE_ERROR = 1,
	CUA_VERDICT_COMPILE_TIMEOUT = 2,
	CUA_VERDICT_FORBIDDEN_SYMBOL = 3,
	CUA_VERDICT_LOAD_ERROR = 4,       /* dlopen failed or no cua_solve */
	CUA_VERDICT_LAUNCH_ERROR = 5,     /* an error right after the call */
	CUA_VERDICT_RUNTIME_ERROR = 6,    /* non-zero return, or a fault while running */
	CUA_VERDICT_TIMEOUT = 7,
	CUA_VERDICT_CRASH = 8,            /* the process died or exited on its own */
	CUA_VERDICT_WRONG_OUTPUT = 9,
	CUA_VERDICT_NAN_OUTPUT = 10,
	CUA_VERDICT_INPUT_MUTATED = 11,
	CUA_VERDICT_OUT_OF_BOUNDS = 12,   /* guard bands around a tensor were written */
	CUA_VERDICT_TIMING_ANOMALY = 13,  /* work escaped the timer, or faster than light */
	CUA_VERDICT_HARNESS_ERROR = 14,   /* our fault, not the candidate's */
	CUA_VERDICT_SANDBOX_VIOLATION = 15, /* a system call from the candidate's own
	                                      * code, or a report line the runner
	                                      * did not write */
	CUA_VERDICT_FORBIDDEN_INSTRUCTION = 16, /* the SASS holds a tensor-core or packed-half
	                                      * instruction the precision policy forbids */
	CUA_VERDICT_NO_CODE = 17,         /* the agent's reply held no source to build: not
	                                      * a candidate, nothing was compiled or run */
	CUA_VERDICT_COUNT
};

const char *cua_verdict_name(enum cua_verdict v);             /* "wrong_output" */
/* Parses a name; returns false if unknown. */
bool cua_verdict_parse(const char *name, enum cua_verdict *out);

#define CUA_MAX_CASES 48
#define CUA_MSG_LEN 1024

/* One correctness case: one shape set, one seed. */
struct cua_case {
	char shape[32];
	char output[32];          /* output tensor judged worst (when failing) */
	uint64_t seed;            /* 0 when secret */
	bool secret;
	bool recheck;             /* the fresh-seed check after timing */
	bool ok;
	uint64_t n_elems, n_bad, n_nan, n_unwritten;
	double max_abs, max_rel;
	int64_t first_bad;        /* flat index, -1 when none */
	char first_bad_at[96];    /* "[3, 17]" multi-index of first_bad */
	double got, want;         /* values at first_bad */
	/* Precision by accuracy (judge/accuracy.h), where the case was judged by it:
	 * the output nearest to failing (or failing), its error against what
	 * rounding the inputs to the forbidden precision (`vs`) costs. */
	struct {
		bool judged, ok, exposed;
		char vs[8];           /* "tf32" (strict tasks) or "bf16" (tf32-allowed) */
		char output[32];
		double rho, rho_sd;   /* correlation of the error with the rounding's */
		double explained;     /* share of the error the rounding accounts for */
		double err_ratio;     /* RMS error / the rounding's */
		double chk_ratio;     /* the trusted fp32 kernel's RMS error / the rounding's */
	} accuracy;
};

/* Since results schema 2 the time of a kernel is the judge's (judge_ms): its
 * clock from "run" until its own check found the outputs complete and right,
 * minus the calibrated cost of that around an empty kernel. event_ms and host_ms
 * are what the kernel's own process claimed (its CUDA events around the call;
 * its host clock to device idle, minus its own calibration): cross-checks.
 * Schema 1 files have no judge_ms; their event_ms was the harness's events. */
struct cua_timing {
	bool done;
	struct cua_stats judge_ms;    /* the judge's clock (n = 0 in schema 1 files) */
	struct cua_stats event_ms;    /* CUDA events in the kernel's process */
	struct cua_stats host_ms;     /* the kernel's process's host clock */
	double overhead_ms;           /* the judge's fixed cost per sample, calibrated */
	double claim_overhead_ms;     /* the same in the kernel's process's clock */
	double pre_ms, pre_max_ms;    /* publishing inputs under the watchdog: calibrated,
	                               * and the longest seen while timing */
	double gap_max_ms;            /* longest gap the watchdog saw */
	double sm_mhz_before, sm_mhz_after;
	int input_sets;               /* distinct input sets rotated through */
	double set_median_ms[8];      /* median of each set (placement effects) */
	double flush_bytes;           /* bytes written to flush L2 before each sample */
};

struct cua_eval {
	char subject[64];             /* "candidate", "nvcc", "cublas/sgemm" */
	bool imported;                /* a figure read from baselines/torch/, not measured
	                               * in this invocation (torch-eager, torch-compile) */
	enum cua_verdict verdict;
	char message[CUA_MSG_LEN];    /* human sentence; empty when ok */
	/* compile */
	bool cache_hit;
	double compile_s;
	char *compile_log;            /* trimmed, heap (may be NULL) */
	char so_sha[65];
	/* static check */
	int n_violations;
	struct cua_violation violations[8];
	/* correctness */
	int n_cases;
	struct cua_case cases[CUA_MAX_CASES];
	/* timing */
	struct cua_timing timing;
	double sol_ms;                /* speed-of-light time of the task (0 = unknown) */
	double pct_sol;               /* sol_ms / median * 100 */
	/* process */
	double check_s, timing_s, run_s;
	bool net_isolated;
	char profile[320];            /* the judge's own account of its seconds ("") */
	char jail[96];                /* how the kernel's process was isolated ("" before
	                               * schema 2, and for oracle-only runs) */
	char *output_tail;            /* the child's stdout+stderr, trimmed, heap */
	/* A strict task's precision is judged by value (judge/accuracy.h): the
	 * tensor-core or half instruction the SASS scan found, which explains a
	 * value failure ("" when none; JSON "sass"). */
	char sass_note[512];
};

/* The timing a kernel is measured by: judge_ms, or event_ms in schema 1 files. */
const struct cua_stats *cua_timing_stats(const struct cua_timing *t);

void cua_eval_init(struct cua_eval *e, const char *subject);
void cua_eval_clear(struct cua_eval *e);       /* frees heap members, keeps the struct */
void cua_eval_fail(struct cua_eval *e, enum cua_verdict v, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Precision by accuracy over an evaluation's cases (judge/accuracy.h): how
 * many were judged and exposed, the largest |ρ| and share explained, the
 * largest error ratio (over all judged cases, and over the exposed ones). */
struct cua_accuracy_summary {
	char vs[8];
	int judged, exposed, failed;
	double max_rho, max_explained, max_err_ratio, max_err_ratio_exposed;
};
void cua_eval_accuracy(const struct cua_eval *e, struct cua_accuracy_summary *s);

/* The largest finite max_abs and max_rel over an evaluation's cases (0 if none). */
void cua_eval_max_errors(const struct cua_eval *e, double *max_abs, double *max_rel);

/* JSON round trip. to_json returns a new object (caller frees with cJSON_Delete).
 * These are the only writers and readers of these records: the judge's events
 * (case, timing) and evals.jsonl's objects go through them. A to_json adds the
 * record's members to an existing object o; a from_json reads them back and
 * names the first missing or mistyped member in err (CUA_E_PARSE). The text an
 * evaluation carries from outside (message, compile log, symbols, output) is
 * written as valid UTF-8 (cua_utf8_clean). */
void cua_stats_to_json(struct cJSON *parent, const char *key, const struct cua_stats *s);
void cua_case_to_json(struct cJSON *o, const struct cua_case *k);
enum cua_status cua_case_from_json(const struct cJSON *o, struct cua_case *k, char *err,
                                   size_t errlen);
void cua_timing_to_json(struct cJSON *o, const struct cua_timing *t);
enum cua_status cua_timing_from_json(const struct cJSON *o, struct cua_timing *t,
                                     char *err, size_t errlen);
struct cJSON *cua_eval_to_json(const struct cua_eval *e);
enum cua_status cua_eval_from_json(const struct cJSON *j, struct cua_eval *e,
                                   char *err, size_t errlen);

#endif /* CUA_VERDICT_H */
