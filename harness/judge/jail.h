/* jail.h — the candidate's process: started by the judge in its own PID, mount,
 * network, IPC and UTS namespaces, as an unprivileged user, with nothing
 * inherited but a socket to the judge; and the system-call allow-list it runs
 * under once CUDA is up.
 *
 * The judge (judge.cu) owns every secret and every check; the candidate's
 * process only maps the judge's device buffers, runs cua_solve on command and
 * answers. What a jailed process can still do is in docs/SECURITY.md. */
#ifndef CUA_JAIL_H
#define CUA_JAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common.h"

/* The user a candidate runs as when the judge is root ("nobody"). */
#define CUA_JAIL_UID 65534
#define CUA_JAIL_GID 65534

/* Which isolation the jail got; recorded with every evaluation. */
struct cua_jail_info {
	bool pid_ns;        /* own PID namespace (nothing outlives it), fresh /proc */
	bool net_ns;        /* own network namespace (no interfaces but lo, down) */
	bool user_dropped;  /* runs as CUA_JAIL_UID (judge was root) or in a user ns */
	bool user_ns;       /* the drop was through a user namespace (judge not root) */
};

struct cua_jail_opts {
	const char *exe;            /* program to run (absolute path) */
	const char *const *argv;    /* its argv, NULL-terminated */
	const char *const *env;     /* its whole environment, NULL-terminated */
	const char *dir;            /* working directory (HOME/TMPDIR are the caller's) */
	int sock_fd;                /* becomes fd 3 in the child */
	int out_fd;                 /* becomes fds 1 and 2 (-1: /dev/null) */
	long cpu_s;                 /* RLIMIT_CPU (0: none) */
	long fsize_bytes;           /* RLIMIT_FSIZE (0: none) */
	long nofile;                /* RLIMIT_NOFILE (0: leave) */
	bool no_namespaces;         /* tests on machines that refuse them: plain fork */
	bool late_drop;             /* when the judge is root: the child keeps root in its
	                             * own namespaces, to confine itself later
	                             * (cua_jail_confine) before any untrusted code runs;
	                             * *info still says it will run as CUA_JAIL_UID */
};

/* Starts the jailed child and returns its pid (as the caller sees it) in *pid.
 * Namespaces are tried in order of strength: as root, new PID+mount+net+IPC+UTS
 * namespaces and a drop to CUA_JAIL_UID; otherwise a user namespace with the
 * same; otherwise whatever of that the kernel allows, said in *info. The child
 * closes every descriptor but 0–3, sets no_new_privs and rlimits (no core
 * dumps), and execs opts->exe. Returns CUA_E_SYSTEM with the stage and errno
 * in err when it could not be started (the child's own failure to exec is
 * reported through a status pipe, not by the child running on). */
enum cua_status cua_jail_spawn(const struct cua_jail_opts *opts, pid_t *pid,
                               struct cua_jail_info *info, char *err, size_t errlen);

/* Where the kernel's object appears in a confined process's file system. */
#define CUA_JAIL_OBJECT "/kernel.so"

/* What the kernel's process confines itself to, after its CUDA start-up and
 * before the kernel's object is loaded (cand/main.cu). */
struct cua_jail_confine {
	const char *object;     /* the object's host path: it appears at CUA_JAIL_OBJECT */
	bool view;              /* the file system replaced (view.h): the device nodes,
	                         * the driver's own libraries, a fresh /proc, a private
	                         * /tmp and the object; nothing else. Needs the process's
	                         * own mount namespace and root in it. */
	long nproc;             /* RLIMIT_NPROC after the drop (0: leave) */
	unsigned long long data_headroom; /* RLIMIT_DATA = the private writable memory in
	                                   * use + this (0: leave): the host memory a kernel
	                                   * may take. Not RLIMIT_AS: on the H200 device
	                                   * memory mapped into the process counts there,
	                                   * and a ceiling on it refused the judge's own
	                                   * buffers (2026-12-01) */
};

/* Confines the calling process (c above), then, when it runs as root, drops to
 * CUA_JAIL_UID/GID for good (no groups, no capabilities, no_new_privs) and makes
 * itself the OOM killer's first choice. Libraries the kernel may use must be
 * loaded before (they are not in the view). Returns CUA_E_SYSTEM with the step
 * in err when any part fails: the caller must not load the kernel then. */
enum cua_status cua_jail_confine(const struct cua_jail_confine *c, char *err, size_t errlen);

/* A field of a process's /proc/PID/status (pid 0: this process), e.g. "VmRSS:"
 * (in bytes: a "kB" field is scaled) or "Uid:" (the real uid, its first
 * number); -1 when absent or unreadable. */
long cua_jail_status_field(pid_t pid, const char *field);

/* One line describing info, e.g. "uid 65534, pid+net namespaces". */
void cua_jail_describe(const struct cua_jail_info *info, char *buf, size_t len);

/* ---- the allow-list ---------------------------------------------------------- */

/* Installs, for every thread of the calling process, the seccomp filter a
 * candidate runs under: system calls are allowed by number (memory, the
 * driver's ioctls, futexes, clocks, reads, writes and messages on descriptors
 * already open, threads but not processes, opens of existing files, read-only
 * or read-write: CUDA opens its device nodes lazily); anything else —
 * fork/vfork/clone of a process, exec, ptrace, process_vm_*, sockets, opens
 * that create, truncate, append or write only, mount, setuid, kill of another
 * process, perf/bpf, and every call not listed — ends the whole process at once,
 * as if by SIGSYS (SECCOMP_RET_KILL_PROCESS: no handler the process installs can
 * catch it). Sets no_new_privs. */
enum cua_status cua_jail_filter_install(char *err, size_t errlen);

/* The filter program itself, for the tests (an array of struct sock_filter);
 * returns its length in instructions. */
int cua_jail_filter_program(const void **prog);

/* The name of a system call number the filter knows ("clone", "socket"), or
 * NULL. For messages. */
const char *cua_jail_syscall_name(long nr);

#endif /* CUA_JAIL_H */
