/* runner.h — the GPU side: code that runs only inside a sandboxed child process
 * (`cuarena __judge ...`, `cuarena __probe`, `cuarena __measure`). The parent
 * never initialises CUDA. A judge judges one kernel and ends, or (`__judge
 * --serve`) judges one job after another, read from its stdin, in one context:
 * each job's buffers are freed after it, and a judge that cannot go on as if
 * fresh says so in the job's result ("last": true) and ends.
 *
 * Report protocol (child -> parent): JSON objects, one per line, on the fd
 * named by --fd. Events: {"event":"device",...}, {"event":"phase","what":...},
 * {"event":"case",...}, {"event":"timing",...} and exactly one final
 * {"event":"result","verdict":...,"message":...}. A child that dies before the
 * result line is judged by the parent from how it ended and the last phase. */
#ifndef CUA_RUNNER_H
#define CUA_RUNNER_H

#ifdef __cplusplus
extern "C" {
#endif

/* A serving judge's job on its stdin: two uint32 (CUA_JOB_MAGIC, payload
 * bytes < CUA_JOB_MAX), then the payload: NUL-separated strings "KEY=<hex>"
 * (the report channel's key), then the one-shot judge's command-line options.
 * The job's secret inputs are the judge's own: it draws their key itself. */
#define CUA_JOB_MAGIC 0x626f6a63u   /* "cjob" */
#define CUA_JOB_MAX 65536

/* The version of the judge's timing method (docs/METHOD.md, "Timing"): part of
 * every stored baseline's key (judge/bstore.h), so a stored time is reused only
 * when measured the same way. Bump it with any change to what a sample's time
 * is (the window, calibration, flush, warm-up, stop rule, input sets): stored
 * baselines then read as misses and are measured again. */
#define CUA_TIMING_METHOD_VERSION 1

/* Entry points of the hidden child commands; return the process exit code. */
int cua_judge_main(int argc, char **argv);    /* judge one .so on one task */
int cua_probe_main(int argc, char **argv);    /* device facts as one JSON line */
int cua_measure_main(int argc, char **argv);  /* device ceilings as one JSON line */

#ifdef __cplusplus
}
#endif

#endif /* CUA_RUNNER_H */
