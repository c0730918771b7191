/* sandbox.h — runs one untrusted child process and classifies how it ended.
 *
 * The child gets: its own process group (killed whole on timeout), rlimits
 * (CPU time, file size, open files, no core dumps), a scrubbed environment, a
 * private temp directory as cwd/HOME/TMPDIR (removed afterwards), stdin from
 * /dev/null, captured and size-capped stdout/stderr, a private network
 * namespace where the OS allows it, and optionally a dedicated report channel
 * (a pipe dup'ed to a chosen fd number in the child); or a jail: namespaces, a
 * file-system view of listed entries and an unprivileged user (the build's).
 * The parent survives whatever the child does. It is started through
 * run-command.c (run-command.h), whose pre_exec here makes it safe. */
#ifndef CUA_SANDBOX_H
#define CUA_SANDBOX_H

#include <signal.h>

#include "common.h"
#include "run-command.h"
#include "view.h"

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
	long as_bytes;           /* RLIMIT_AS of the child and each process it starts;
	                          * 0 = no limit */
	/* A jail (NULL: none, as before): new mount, network, IPC and UTS
	 * namespaces; the file-system view of these n_view entries alone
	 * (view.h); then, when the caller is root, uid/gid 65534 with no groups;
	 * no_new_privs. As root the namespaces are made directly; otherwise (or
	 * when the kernel refuses that) in a user namespace, entered as 65534
	 * when the caller is root, mapping the user to itself. argv[0] and cwd are
	 * paths in the view; private_tmp must be false (the caller lists its own
	 * writable folder, owned by 65534 when it is root). RLIMIT_NPROC is set
	 * after the namespaces, so that in a user namespace it counts that
	 * namespace's processes alone. A jail that cannot be made is a start-up
	 * failure (CUA_E_SYSTEM naming the step), never a child run without it. */
	const struct cua_view_entry *view;
	int n_view;
};

/* Sensible defaults: 60 s, no channel, 64 KiB capture, net isolation, private tmp. */
void cua_sandbox_opts_init(struct cua_sandbox_opts *o);

enum cua_child_how {
	CUA_CHILD_NORMAL = 0,     /* exited; see code */
	CUA_CHILD_SIGNALED = 1,   /* killed by a signal it caused or received; see sig */
	CUA_CHILD_TIMEOUT = 2,    /* we killed it at the deadline */
	CUA_CHILD_STOPPED = 3,    /* we killed it: the caller's stop flag was set */
	CUA_CHILD_ALIVE = 4,      /* an exchange ended as asked; the child lives on */
};

struct cua_child_result {
	enum cua_child_how how;
	int code;                /* exit status when NORMAL */
	int sig;                 /* signal when SIGNALED */
	double wall_s;
	bool net_isolated;       /* unshare(CLONE_NEWNET) succeeded */
	bool jailed;             /* ran in opts->view (then also net_isolated) */
	bool user_ns;            /* the jail is a user namespace's */
	double cpu_s;            /* user + system CPU time of the child and every
	                          * descendant it waited for */
	long maxrss_kb;          /* the largest resident size among them */
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

void cua_child_result_clear(struct cua_child_result *res);  /* frees buffers; NULL ok */

/* Makes the jail of cua_sandbox_opts.view once, in a child that then ends:
 * CUA_OK when this kernel allows it (*user_ns, when not NULL: through a user
 * namespace), else CUA_E_SYSTEM with the step it refused in err. */
enum cua_status cua_sandbox_jail_probe(bool *user_ns, char *err, size_t errlen);

/* A child that stays: started once, then given one request after another on
 * its stdin (a pipe), each answered on its channel. The same setup as
 * cua_sandbox_run (process group, rlimits, environment, private temp dir,
 * network namespace); opts->timeout_s is unused (each exchange has its own). */
struct cua_sandbox_proc {
	struct cua_child child;  /* pid -1: not running; to_child its stdin, from_out,
	                          * from_err and pidfd ours */
	int chan_r;              /* our end of its channel */
	char tmpdir[CUA_PATH_LEN];
	bool net_isolated;
	size_t capture_max, channel_max;
};

/* A staying child that is not running (as cua_sandbox_end leaves it). */
void cua_sandbox_proc_init(struct cua_sandbox_proc *p);

/* Starts argv as a staying child (opts->channel_fd must be set). On an error
 * nothing is left running. */
enum cua_status cua_sandbox_spawn(const char *const *argv,
                                  const struct cua_sandbox_opts *opts,
                                  struct cua_sandbox_proc *p, char *err, size_t errlen);

/* Writes msg[0..len) to p's stdin, then collects what it writes (stdout,
 * stderr, channel: this exchange's bytes alone) until done(ctx, channel so
 * far, its length) is true (res->how = CUA_CHILD_ALIVE), or the child ends, or
 * timeout_s passes (killed: CUA_CHILD_TIMEOUT). Once the child is gone, p is
 * ended (cua_sandbox_end). res as cua_sandbox_run fills it. */
enum cua_status cua_sandbox_exchange(struct cua_sandbox_proc *p, const void *msg,
                                     size_t len, double timeout_s,
                                     bool (*done)(void *ctx, const char *chan, size_t n),
                                     void *ctx, struct cua_child_result *res,
                                     char *err, size_t errlen);

/* Kills p's process group, reaps it, closes its pipes, removes its temp dir.
 * Idempotent. */
void cua_sandbox_end(struct cua_sandbox_proc *p);

/* "SIGSEGV (segmentation fault)" and so on. */
const char *cua_signal_desc(int sig);

#endif /* CUA_SANDBOX_H */
