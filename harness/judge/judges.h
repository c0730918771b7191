/* judges.h — the long-lived judges of this process: one `cuarena __judge
 * --serve` per device (judge.cu), each judging one evaluation after another,
 * so that an evaluation pays neither a judge's start-up (its CUDA context,
 * its libraries) nor its teardown. A judge that cannot go on as if fresh says
 * so with its answer and is replaced; one that dies is replaced at the next
 * evaluation. CUARENA_JUDGE=fresh in the environment asks for a new judge per
 * evaluation instead (eval.c). */
#ifndef CUA_JUDGES_H
#define CUA_JUDGES_H

#include "judge/channel.h"
#include "common.h"
#include "sandbox.h"

/* One evaluation on the judge of device `vis` (its CUDA_VISIBLE_DEVICES, ""
 * for none), started with so (channel_fd set) and env when there is none yet.
 * job[0..n) is the job's payload (runner.h's CUA_JOB format, without the
 * header); its answer ends with the first line sealed under key that is a
 * "result" event. r as cua_sandbox_run fills it (how CUA_CHILD_ALIVE when the
 * judge lives on). Thread-safe: evaluations on one device wait for each other. */
enum cua_status cua_judges_run(const char *self_exe, const char *vis,
                               const struct cua_sandbox_opts *so, const char *job,
                               size_t n, double timeout_s,
                               const struct cua_channel_key *key,
                               struct cua_child_result *r, char *err, size_t errlen);

/* Ends every judge of this process (they also end when it exits). */
void cua_judges_shutdown(void);

/* How many judges this process has started so far (for tests and the bench). */
int cua_judges_started(void);

#endif /* CUA_JUDGES_H */
