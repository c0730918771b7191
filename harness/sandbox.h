/* sandbox.h — runs one untrusted child process and classifies how it ended.
 *
 * The child gets: its own process group (killed whole on timeout), rlimits
 * (CPU time, file size, open files, no core dumps), a scrubbed environment, a
 * private temp directory as cwd/HOME/TMPDIR (removed afterwards), stdin from
 * /dev/null, captured and size-capped stdout/stderr, a private network
 * namespace where the OS allows it, and optionally a dedicated report channel
 * (a pipe dup'ed to a chosen fd number in the child). The parent survives
 * whatever the child does. */
#ifndef CUA_SANDBOX_H
#define CUA_SANDBOX_H

#include <signal.h>

#include "common.h"

struct cua_sandbox_opts {
	double timeout_s;        /* wall clock; <= 0 means none */
	long cpu_s;              /* RLIMIT_CPU; 0 = no limit */
	long fsize_bytes;        /* RLIMIT_FSIZE; 0 = no limit */
	long nofile;             /* RLIMIT_NOFILE; 0 = leave as is */
	long nproc;              /* RLIMIT_NPROC (processes + threads of the user);
	                          * 0 = leave as is. Not enforced for root */
	bool isolate_net;        /* try unshare(CLONE_NEWNET) in the child */
	bool private_tmp;        /* make a temp dir, chdir into it, remove after */
	int channel_fd;          /* fd number of the report pipe in the child; -1 = none */
	size_t capture_max;      /* bytes kept of stdout and of stderr each (rest drained) */
	size_t channel_max;      /* bytes kept from the channel */
	const char *const *env;  /* NULL-terminated "K=V" list: the child's whole
	                          * environment (plus HOME/TMPDIR when private_tmp) */
	const char *cwd;         /* working dir when !private_tmp (NULL = inherit) */
	const volatile sig_atomic_t *stop; /* optional: once non-zero, the child's
	                          * process group is killed (checked every 20 ms) */
};

/* Sensible defaults: 60 s, no channel, 64 KiB capture, net isolation, private tmp. */
void cua_sandbox_opts_init(struct cua_sandbox_opts *o);

enum cua_exit_how {
	CUA_EXIT_NORMAL = 0,     /* exited; see code */
	CUA_EXIT_SIGNALED = 1,   /* killed by a signal it caused or received; see sig */
	CUA_EXIT_TIMEOUT = 2,    /* we killed it at the deadline */
	CUA_EXIT_STOPPED = 3,    /* we killed it: the caller's stop flag was set */
};

struct cua_child_result {
	enum cua_exit_how how;
	int code;                /* exit status when NORMAL */
	int sig;                 /* signal when SIGNALED */
	double wall_s;
	bool net_isolated;       /* unshare(CLONE_NEWNET) succeeded */
	char *out;  size_t out_len;  bool out_truncated;   /* heap, NUL-terminated */
	char *err;  size_t err_len;  bool err_truncated;
	char *channel; size_t channel_len; bool channel_truncated;
};

/* Runs argv[0] (a path, not searched in PATH unless it has no '/') with argv.
 * A relative argv[0] is resolved against the caller's cwd; other arguments are
 * passed as they are (with private_tmp the child runs in its temp dir, so
 * paths in them should be absolute).
 * Returns CUA_OK whenever the child ran, however it ended; an error only when
 * the harness itself could not start it (res then holds nothing):
 * CUA_E_NOT_FOUND when argv[0] does not exist, CUA_E_INVALID for a channel_fd
 * of 0..2, CUA_E_SYSTEM otherwise. On CUA_OK out/err/channel are always
 * non-NULL. Side effect: SIGPIPE is set to ignored in the calling process if it
 * had the default action. The caller must not ignore SIGCHLD. When the child
 * exits, its whole process group is killed; a descendant that left the group
 * (setsid) is not, but the parent stops reading its pipes after 200 ms. */
enum cua_status cua_sandbox_run(const char *const *argv,
                                const struct cua_sandbox_opts *opts,
                                struct cua_child_result *res, char *err,
                                size_t errlen);

void cua_child_result_free(struct cua_child_result *res);  /* frees buffers; NULL ok */

/* "SIGSEGV (segmentation fault)" and so on. */
const char *cua_signal_desc(int sig);

#endif /* CUA_SANDBOX_H */
