/* run-command.h — one way to start a child of the harness's, with pipes (git's
 * run-command shape): a struct says what to run (path, argv, environment, cwd)
 * and where each standard stream goes (inherited, /dev/null, a descriptor of the
 * caller's, or a pipe whose other end the caller gets); cua_child_start starts
 * it and says why it could not (the stage and errno reported by the child
 * through a close-on-exec pipe); cua_child_wait, cua_child_kill and
 * cua_child_capture end it. Used by the exec agent (agents/exec.c) and the
 * gnuplot runner (boards/plot-gnuplot.c). Untrusted code is not run this way:
 * sandbox.c and judge/jail.c confine theirs. */
#ifndef CUA_RUN_COMMAND_H
#define CUA_RUN_COMMAND_H

#include "common.h"

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

/* What cua_child_start reports the child failed at. */
enum cua_child_stage {
	CUA_CHILD_STARTED = 0,
	CUA_CHILD_AT_FDS,          /* setting up its descriptors */
	CUA_CHILD_AT_CWD,          /* chdir */
	CUA_CHILD_AT_EXEC,         /* execve */
	CUA_CHILD_AT_PIPES,        /* in the parent: pipe2 or opening /dev/null */
	CUA_CHILD_AT_FORK,         /* in the parent: fork */
};

struct cua_child {
	/* what to run (borrowed; set before cua_child_start) */
	const char *path;              /* execve's file: no PATH search */
	char *const *argv;             /* NULL-terminated; argv[0] names it in errors */
	char *const *envp;             /* NULL: the parent's environment */
	const char *cwd;               /* NULL: the parent's */
	enum cua_child_io in, out, err;
	int in_fd, out_fd, err_fd;     /* CUA_CHILD_FD's descriptors */
	unsigned flags;                /* CUA_CHILD_* */

	/* set by cua_child_start */
	pid_t pid;                     /* -1: not started, or reaped */
	int to_child, from_out, from_err;   /* our pipe ends (close-on-exec), -1 if none */
	int wstatus;                   /* how it ended, once reaped (0 if another reaped it) */
	enum cua_child_stage failed;   /* why it did not start, and the errno then */
	int failed_errno;
};

/* A child with every stream inherited and nothing started. */
void cua_child_init(struct cua_child *c);

/* Starts c. On failure nothing is left running or open, c->failed and
 * c->failed_errno say where and why, and err holds "cannot create pipes: ...",
 * "fork failed: ..." or "cannot start ARGV0: STAGE: ..."; CUA_E_NOT_FOUND when
 * execve found no such file, else CUA_E_SYSTEM. */
enum cua_status cua_child_start(struct cua_child *c, char *err, size_t errlen);

/* True once the child has terminated. It is left unreaped (a zombie), so its
 * process group id stays valid for cua_child_kill. */
bool cua_child_exited(const struct cua_child *c);

/* Kills the child (and its process group with CUA_CHILD_NEW_PGRP) with SIGKILL
 * and reaps it. No-op once reaped. */
void cua_child_kill(struct cua_child *c);

/* Waits for the child to end and reaps it (EINTR retried). CUA_E_SYSTEM with err
 * when waitpid fails. */
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

/* Kills and reaps a child still running, closes our pipe ends. */
void cua_child_clear(struct cua_child *c);

#endif /* CUA_RUN_COMMAND_H */
