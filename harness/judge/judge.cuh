/* judge.cuh — the judge's state and what its .cu files share: judge.cu (the
 * job: channel, shape sets, checks, serving), clock.cu (timed samples),
 * selftest.cu (degeneracy proofs, dumps). The state is one struct cua_judge,
 * owned by cua_judge_main and passed to every function that needs it; its parts
 * are the kernel's process (cand-ctl.h), the device tensors (tensor.cuh) and
 * the timed shape's buffers (struct judge_timing). */
#ifndef CUA_JUDGE_CUH
#define CUA_JUDGE_CUH

#include <cuda_runtime.h>
#include <setjmp.h>
#include <cjson/cJSON.h>

#include "cuarena.h"
extern "C" {
#include "common.h"
#include "catalogue/task.h"
#include "judge/channel.h"
#include "judge/verdict.h"
#include "judge/judge.h"
#include "judge/cand-ctl.h"
}
#include "rng.h"
#include "judge/kernels.cuh"
#include "judge/tensor.cuh"

typedef int (*solve_fn)(const struct cua_tensor *, int, struct cua_tensor *, int,
                        cudaStream_t);

#define MAX_SETS 6   /* input sets rotated while timing */
#define MAX_LIBS 32  /* trusted objects a serving judge keeps loaded */

/* ---- a job's options and its cases -------------------------------------------- */

struct job {
	const char *task_dir, *so, *oracle_so, *subject;
	uint64_t seeds[8];
	int n_seeds;
	struct cua_rng_key master; /* this job's secret: 256 bits from the OS, drawn by the
	                            * judge itself, split into a key per case and sample */
	bool time;
	double max_time_s;
	int min_samples;
	bool degeneracy;          /* --degeneracy: prove the task is not degenerate */
	bool trusted;             /* --trusted: the harness's own kernel (no filter) */
	const char *checker_so;   /* --checker: trusted kernel giving timed samples' answers */
	const char *so_sha256, *oracle_sha256, *checker_sha256; /* their builds' digests */
	double timeout_s;         /* --timeout: the whole judgement (the parent kills later) */
	const char *dump_dir;     /* --dump DIR: write inputs and oracle outputs */
};

/* The inputs of one correctness case: the key they are generated from, and
 * what the case is. */
struct case_key {
	struct cua_rng_key key;
	uint64_t seed;      /* its public seed; 0 for a key derived from the job's secret */
	bool secret, recheck;
	bool precision;     /* the precision rule is judged on it (check_precision) */
};

static inline struct case_key public_case(uint64_t seed, bool precision)
{
	struct case_key c;
	memset(&c, 0, sizeof(c));
	cua_rng_public(seed, &c.key);
	c.seed = seed;
	c.precision = precision;
	return c;
}

static inline struct case_key secret_case(const struct job *job, uint32_t purpose,
                                          uint64_t index)
{
	struct case_key c;
	memset(&c, 0, sizeof(c));
	cua_rng_derive(&job->master, purpose, index, &c.key);
	c.secret = purpose != CUA_RNG_RECHECK;
	c.recheck = purpose == CUA_RNG_RECHECK;
	return c;
}

/* The first failure of a run, kept while the other cases are reported. */
struct cua_verdict_box {
	enum cua_verdict v;
	char msg[CUA_MSG_LEN];
};

/* ---- shape sets ------------------------------------------------------------------ */

struct shape_bufs {
	int shape;
	int slot;                 /* the candidate's name for these buffers; -1 none */
	struct dev_tensor in[CUA_MAX_TENSORS], out[CUA_MAX_TENSORS], ref[CUA_MAX_TENSORS];
	/* private to the judge: the case's inputs regenerated from its key (the
	 * oracle reads these, never the shared ones the kernel's process could
	 * still be writing), and the checker's outputs for the precision rule.
	 * Their own buffers at a check shape; the timing's stage and expect
	 * buffers at the timed shape. NULL where the set has no oracle. */
	struct dev_tensor own_priv[CUA_MAX_TENSORS], own_chk[CUA_MAX_TENSORS];
	struct dev_tensor *priv, *chk;
};

/* What the timed shape's samples need, set up before the kernel is loaded (the
 * calibration runs then) and kept for the checks at that shape and the timing
 * (clock.cu). */
struct judge_timing {
	bool on;
	int n_sets;
	struct shape_bufs sets[MAX_SETS];     /* shared; sets[0] has the oracle buffers */
	struct dev_tensor stage[CUA_MAX_TENSORS]; /* private: a sample's fresh inputs */
	struct dev_tensor expect[CUA_MAX_TENSORS]; /* private: the checker's outputs */
	void *flush;
	size_t flush_bytes;
	unsigned long long *wd;                /* device: stamp, watchdog start/end/gap */
	unsigned long long *wd_host;           /* pinned copy */
	cmp_acc *accs, *accs_host;             /* one per output */
	double overhead_ms, claim_overhead_ms; /* calibrated, empty kernel */
	double pre_ref_ms;                     /* calibrated publish+flush+watchdog time */
};

/* ---- the judge ------------------------------------------------------------------- */

struct cua_judge {
	/* the report channel: lines sealed with the parent's key for this job */
	int report_fd;
	struct cua_channel_key key;
	bool have_key;
	uint64_t seq;                 /* lines written so far */
	/* Where a judgement's seconds go ("cuda 0.14 alloc 0.31 …", seconds since
	 * the job started), sent with the result: the fixed cost of the process
	 * split is what throughput depends on. */
	char profile[320];
	double t0;
	/* Serving (`__judge --serve`): one job after another in this process, each
	 * ended by cua_judge_finish, which returns to next_job (judge_serve). */
	bool serving;
	jmp_buf next_job;
	bool quiet;                   /* making the spare: a failure ends it, nothing is said */
	/* Free device memory just before the kernel was loaded (with mem's
	 * post_load_bytes: a kernel's scratch is freed before cua_solve returns, so
	 * memory missing beyond that is the kernel's process's). */
	size_t free_at_load;

	struct cua_cand_ctl cand;     /* the kernel's process */
	struct tensor_pool mem;       /* every device tensor of the job */
	struct judge_timing tm;       /* the timed shape's buffers */

	const struct cua_task *task;  /* the job's (task_owned) */
	struct cua_task *task_owned;
	solve_fn oracle, checker;
	cmp_acc *d_acc;               /* device: one comparison's (or precision) sums */

	/* once per process: a serving judge keeps its context for every job */
	bool cuda_up;
	cudaDeviceProp prop;
	cudaStream_t stream;
	size_t free_at_start;         /* a serving judge's free memory after its start-up */
	int jobs;                     /* jobs this process has judged */
	/* the oracle's and checkers' objects it loaded, by their builds' digests */
	struct {
		char sha[65];
		void *h;
	} libs[MAX_LIBS];
	int nlibs, unnamed;
};

/* ---- what the files share ----------------------------------------------------- */

/* judge.cu: one report line (obj is consumed), a phase line. */
void cua_judge_emit(struct cua_judge *J, cJSON *obj);
void cua_judge_phase(struct cua_judge *J, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* judge.cu: a shape set's tensors: inputs and outputs shared with the
 * candidate (when there is one), the oracle's results private; and freed. */
void cua_judge_shape_alloc(struct cua_judge *J, struct shape_bufs *b, int shape,
                           bool with_ref = true, bool own_private = true);
void cua_judge_shape_free(struct cua_judge *J, struct shape_bufs *b);

/* judge.cu: the task's oracle on in_t into ref_t (memory the candidate's
 * process cannot map). */
void cua_judge_oracle(struct cua_judge *J, struct dev_tensor *in_t, struct dev_tensor *ref_t,
                      const char *where, cudaStream_t s);

/* judge.cu: guard bands of b intact; and the whole judgement of a call that
 * just ran on b (inputs from c's key). Returns whether it passed; the first
 * failure goes into box. */
void cua_judge_guards(struct cua_judge *J, struct shape_bufs *b, const char *where,
                      cudaStream_t s);
bool cua_judge_case(struct cua_judge *J, struct shape_bufs *b, const struct case_key *c,
                    const char *where, cudaStream_t s, struct cua_verdict_box *box);

/* clock.cu: the timed shape's buffers (set 0 before the kernel is loaded, the
 * other sets once it passed its checks), the calibration of a sample's fixed
 * cost, and the timing itself (a timing event). */
void cua_clock_alloc(struct cua_judge *J, size_t l2_bytes, cudaStream_t s);
void cua_clock_alloc_rest(struct cua_judge *J, cudaStream_t s);
void cua_clock_calibrate(struct cua_judge *J, const struct job *job, cudaStream_t s);
void cua_clock_run(struct cua_judge *J, const struct job *job, cudaStream_t s,
                   struct cua_verdict_box *box);

/* selftest.cu: the task itself, with no kernel: proof that it is not
 * degenerate (degeneracy events), and its inputs and oracle outputs dumped. */
void cua_selftest_degeneracy(struct cua_judge *J, const struct job *job, cudaStream_t s);
void cua_selftest_dump(struct cua_judge *J, const struct job *job, cudaStream_t s);

#endif /* CUA_JUDGE_CUH */
