/* run-command.h — the one way the harness starts a child (git's run-command
 * shape): a struct says what to run (path, argv, environment, cwd), where each
 * standard stream goes (inherited, /dev/null, a descriptor of the caller's, or
 * a pipe whose other end the caller gets), which other descriptors it keeps and
 * under which numbers, and what it does to itself before execve (pre_exec);
 * cua_child_start starts it and says why it could not (the stage and errno
 * reported by the child through a close-on-exec pipe); cua_child_exited,
 * cua_child_signal, cua_child_kill, cua_child_wait (with the resources it
 * used) and cua_child_capture end it. The exec agent (agents/exec.c) and the
 * gnuplot runner (boards/plot-gnuplot.c) start theirs with it as they are;
 * sandbox.c starts the untrusted ones with it too, confining them in its
 * pre_exec (rlimits, namespaces, a view, a private tmp). judge/jail.c alone
 * starts its child apart: it clones the kernel's process straight into new
 * namespaces, and is linked, libc alone, into cuarena-cand. */
#ifndef CUA_RUN_COMMAND_H
#define CUA_RUN_COMMAND_H

#include "common.h"

#include <sys/resource.h>
#include <sys/types.h>

/* Where a standard stream of the child goes. */
enum cua_child_io {
	CUA_CHILD_INHERIT = 0,     /* the parent's */
	CUA_CHILD_NULL,            /* /dev/null */
	CUA_CHILD_FD,              /* the descriptor in in_fd / out_fd / err_fd (not closed) */
	CUA_CHILD_PIPE,            /* a pipe: our end in to_child / from_out / from_err */
};

#define CUA_CHILD_NEW_PGRP    1u   /* its own process group (cua_child_kill kills it) */
#define CUA_CHILD_DEFAULT_SIG 2u   /* every signal to its default, none blocked (an
                                    * ignored SIGPIPE would survive execve) */
#define CUA_CHILD_CLOSE_FDS   4u   /* no descriptor of ours beyond 0..2 (close_range) */
#define CUA_CHILD_NONBLOCK    8u   /* our pipe ends non-blocking */
#define CUA_CHILD_PIDFD      16u   /* a pidfd for it in pidfd (-1 where the kernel
                                    * has none: the caller polls cua_child_exited) */

/* What cua_child_start reports the child failed at. */
enum cua_child_stage {
	CUA_CHILD_STARTED = 0,
	CUA_CHILD_AT_FDS,          /* setting up its descriptors */
	CUA_CHILD_AT_CWD,          /* chdir */
	CUA_CHILD_AT_EXEC,         /* execve */
	CUA_CHILD_AT_PIPES,        /* in the parent: pipe2 or opening /dev/null */
	CUA_CHILD_AT_FORK,         /* in the parent: fork */
	CUA_CHILD_AT_PRE_EXEC,     /* in pre_exec: cua_child_fail's stage and step */
};

/* A descriptor of the caller's that the child keeps, even with
 * CUA_CHILD_CLOSE_FDS: fd, as the number as (-1: fd's own), not close-on-exec
 * there. as must not be 0..2 (the streams have in/out/err). */
struct cua_child_keep {
	int fd;
	int as;
};
#define CUA_CHILD_KEEP_MAX 8

#define CUA_CHILD_STEP_LEN 160

/* The child's side of pre_exec, given to it by run-command. */
struct cua_child_pre {
	unsigned note;                 /* what the child tells the parent (c->note),
	                                * sent when pre_exec returns or fails */
	int status_fd;                 /* run-command's own: for cua_child_fail */
};

struct cua_child {
	/* what to run (borrowed; set before cua_child_start, read by it alone but
	 * for argv[0], which names the child in later errors: a caller that lets
	 * argv go sets it NULL) */
	const char *path;              /* execve's file: no PATH search */
	char *const *argv;             /* NULL-terminated; argv[0] names it in errors */
	char *const *envp;             /* NULL: the parent's environment */
	const char *cwd;               /* NULL: the parent's */
	enum cua_child_io in, out, err;
	int in_fd, out_fd, err_fd;     /* CUA_CHILD_FD's descriptors */
	unsigned flags;                /* CUA_CHILD_* */
	const struct cua_child_keep *keep;   /* (optional) n_keep descriptors it keeps */
	int n_keep;                    /* at most CUA_CHILD_KEEP_MAX */
	/* (optional) run in the child once its streams and kept descriptors are in
	 * place (the others closed with CUA_CHILD_CLOSE_FDS) and before chdir and
	 * execve: async-signal-safe calls only (no malloc, no stdio, no locks). It
	 * fails through cua_child_fail; pre->note reaches the parent either way.
	 * NULL: nothing is run. */
	void (*pre_exec)(struct cua_child_pre *pre, void *ctx);
	void *pre_exec_ctx;

	/* set by cua_child_start */
	pid_t pid;                     /* -1: not started, or reaped */
	int to_child, from_out, from_err;   /* our pipe ends (close-on-exec), -1 if none */
	int pidfd;                     /* CUA_CHILD_PIDFD's (close-on-exec), -1 if none;
	                                * closed when it is reaped */
	unsigned note;                 /* pre_exec's pre->note, 0 without one */
	int wstatus;                   /* how it ended, once reaped (0 if another reaped it) */
	struct rusage rusage;          /* what it and the descendants it waited for
	                                * used, once reaped (zero if another reaped it) */
	enum cua_child_stage failed;   /* why it did not start, and the errno then */
	int failed_errno;
	int failed_pre_stage;          /* CUA_CHILD_AT_PRE_EXEC: cua_child_fail's stage */
	char failed_step[CUA_CHILD_STEP_LEN];   /* and its step ("" if none) */
};

/* A child with every stream inherited and nothing started. */
void cua_child_init(struct cua_child *c);

/* Starts c: returns once it has reached execve (or, with path NULL, ended
 * after pre_exec). On failure nothing is left running or open, c->failed and
 * c->failed_errno (and for pre_exec c->failed_pre_stage and c->failed_step)
 * say where and why, and err holds "cannot create pipes: ...", "fork failed:
 * ..." or "cannot start ARGV0: STAGE: ..."; CUA_E_NOT_FOUND when execve found
 * no such file, else CUA_E_SYSTEM. path NULL runs no program: the child ends
 * with status 0 once pre_exec returns (a probe of what pre_exec can do; argv
 * still names it). */
enum cua_status cua_child_start(struct cua_child *c, char *err, size_t errlen);

/* In pre_exec: reports stage (the caller's own number, c->failed_pre_stage),
 * errno as it is and step (NULL: none; cut at CUA_CHILD_STEP_LEN - 1 bytes) to
 * the parent and ends the child (status 127). */
void cua_child_fail(struct cua_child_pre *pre, int stage, const char *step)
	__attribute__((noreturn));

/* True once the child has terminated. It is left unreaped (a zombie), so its
 * process group id stays valid for cua_child_kill. */
bool cua_child_exited(const struct cua_child *c);

/* Sends sig to the child (and to its process group with CUA_CHILD_NEW_PGRP),
 * leaving it unreaped. No-op once reaped. */
void cua_child_signal(const struct cua_child *c, int sig);

/* Kills the child (and its process group with CUA_CHILD_NEW_PGRP) with SIGKILL
 * and reaps it. No-op once reaped. */
void cua_child_kill(struct cua_child *c);

/* Waits for the child to end and reaps it (EINTR retried), filling wstatus and
 * rusage. CUA_E_SYSTEM with err when wait4 fails (ECHILD: another reaped it),
 * errno as wait4 left it; the child is then forgotten (pid -1, wstatus 0). */
enum cua_status cua_child_wait(struct cua_child *c, char *err, size_t errlen);

/* Reads the child's PIPE stdout and stderr until both reach EOF and it has ended,
 * keeping at most cap bytes of each (the rest read and dropped: *truncated), then
 * reaps it; past timeout_s (> 0) it is killed (*timed_out). out/errout may be
 * NULL (that stream's bytes are dropped); each is NUL-terminated. Closes our
 * pipe ends. CUA_E_TIMEOUT when killed for time, else cua_child_wait's status. */
enum cua_status cua_child_capture(struct cua_child *c, size_t cap, double timeout_s,
                                  struct cua_buf *out, struct cua_buf *errout,
                                  bool *truncated, bool *timed_out, char *err,
                                  size_t errlen);

/* Kills and reaps a child still running, closes our pipe ends and pidfd. */
void cua_child_clear(struct cua_child *c);

#endif /* CUA_RUN_COMMAND_H */
