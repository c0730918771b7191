/* cand-ctl.h — the kernel's process as the judge sees it: started through
 * jail.h (build/cuarena-cand, cand/main.cu, in a directory of ours it can read
 * and not write), commanded over the socket (wire.h: MAP, UNMAP, LOAD, RUN,
 * EMPTY, WAKE from the judge; READY, DONE, FAIL back), stopped. Plain C: no
 * CUDA here; the device buffers it maps are the judge's (judge.cuh).
 *
 * Everything the process says is a claim. Whatever it does wrong — dies,
 * stops answering, sends garbage, fails, overruns its memory — ends the job
 * with the verdict it earns, through cua_judge_finish (judge.h): no function
 * here returns a failure. */
#ifndef CUA_CAND_CTL_H
#define CUA_CAND_CTL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "common.h"
#include "judge/jail.h"
#include "judge/judge.h"
#include "judge/wire.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A process of a kernel's (none: pid -1, descriptors -1). */
struct cua_cand {
	pid_t pid;               /* -1: none */
	int sock;
	int out_fd;              /* its stdout+stderr (a file in dir) */
	char dir[CUA_PATH_BUF];  /* cand/ in the job's directory */
	struct cua_jail_info info;
	uint32_t seq;
	uint32_t slots_used;     /* bit per slot */
	double deadline;         /* cua_now() by which every answer must have come */
	bool dead;
};

/* The judge's side of it. A serving judge starts the next job's process after
 * each job, while the parent is busy with the answer (the spare): it comes up
 * (CUDA and all) off the clock of the next evaluation, with no kernel and no
 * buffer until that job. Owned by struct cua_judge; init before any use. */
struct cua_cand_ctl {
	struct cua_judge *judge;      /* whose job a verdict here ends */
	struct cua_cand cur;          /* the job's process */
	struct cua_cand spare;
	char spare_dir[CUA_PATH_BUF];
	char home[CUA_PATH_LEN];      /* the judge's private temp dir (the parent made it) */
	char jobdir[CUA_PATH_BUF];    /* this job's: home itself, or home/c-N when serving */
	int ndirs;                    /* c-N made so far */
	bool kernel_loaded;           /* the kernel's code is in cur */
	long rss_at_load;             /* cur's resident memory when it was loaded */
	/* the environment's strings live until the next spawn replaces them */
	char *env_ld, *env_home, *env_tmp;
	char env_vis[256];
};

/* The spare's time budget (its CPU limit): a job allowed longer starts a
 * process of its own. */
#define CUA_CAND_SPARE_TIMEOUT_S 600

void cua_cand_ctl_init(struct cua_cand_ctl *c, struct cua_judge *judge);

/* The job's process: the spare when there is one still alive (its directory is
 * then the job's), else a new one (in a new directory of its own when
 * own_dir); then the kernel `so`, copied in and checked against so_sha256. */
void cua_cand_ctl_start(struct cua_cand_ctl *c, const char *so, const char *so_sha256,
                        double timeout_s, bool own_dir);

/* Between two jobs of a serving judge: the next job's process, started now
 * (nothing when one is waiting). */
void cua_cand_ctl_spare(struct cua_cand_ctl *c);

/* A spare that failed while it was being made: killed and forgotten. */
void cua_cand_ctl_drop(struct cua_cand_ctl *c);

/* Kills the job's process (pid 1 of its namespace: everything in it dies),
 * closes the socket and copies its output's tail to our stderr. */
void cua_cand_ctl_stop(struct cua_cand_ctl *c);

/* After a job: no process, no kernel, the job's directory removed (unless it
 * is home itself). */
void cua_cand_ctl_end_job(struct cua_cand_ctl *c);

/* Waits for READY (start-up, MAP, UNMAP); `during` names the step. */
void cua_cand_ctl_ready(struct cua_cand_ctl *c, const char *during);

/* MAP: shares n_in + n_out device buffers (t[i], exported as *fds[i]; each
 * descriptor closed and set to -1 once sent) and waits for READY. Returns the
 * slot the process knows them by. n_in + n_out <= CUA_WIRE_MAX_T. */
int cua_cand_ctl_map(struct cua_cand_ctl *c, int n_in, int n_out,
                     const struct cua_wire_tensor *t, int *const *fds);

/* UNMAP of *slot (nothing when it is -1 or there is no process); *slot = -1. */
void cua_cand_ctl_unmap(struct cua_cand_ctl *c, int *slot);

/* LOAD with flags (CUA_WIRE_*): the kernel's code enters the process, under
 * its filter; a refusal is the kernel's load_error. */
void cua_cand_ctl_load(struct cua_cand_ctl *c, uint32_t flags);

/* One untimed RUN of slot, waited for and judged (cua_cand_ctl_done). */
void cua_cand_ctl_call(struct cua_cand_ctl *c, int slot, const char *where);

/* WAKE: a timed command follows within milliseconds (no answer). */
void cua_cand_ctl_wake(struct cua_cand_ctl *c);

/* A timed command: RUN of slot (EMPTY, the harness's empty kernel, when
 * empty), its answer busy-polled into *m. *t0 is the judge's clock as the
 * command leaves: taken after the record is built, so nothing of ours but the
 * send and the wait is in the window. The caller judges *m (done) after its
 * own check. */
void cua_cand_ctl_timed(struct cua_cand_ctl *c, int slot, bool empty, double *t0,
                        struct cua_wire_msg *m);

/* After a call: the process's account of it (DONE, its errors, cua_solve's
 * code) and its host memory since the load. A claim that only hurts it. */
void cua_cand_ctl_done(struct cua_cand_ctl *c, const struct cua_wire_msg *d, const char *where);

/* Copies a compiled object to `to` (mode `mode`) and checks that the bytes
 * copied are the ones built: the digest compile.c recorded (`want`; none when
 * NULL or empty), passed by the parent. What is loaded is that copy, so
 * nothing can change it in between. */
void cua_cand_ctl_stage(struct cua_cand_ctl *c, const char *from, const char *to,
                        const char *want, mode_t mode);

#ifdef __cplusplus
}
#endif

#endif /* CUA_CAND_CTL_H */
