/* jail.c — starting the candidate's process in its own namespaces as an
 * unprivileged user, and the system-call allow-list it runs under (jail.h).
 * Linux only. Self-contained (libc alone): the candidate's program links it. */
#include "judge/jail.h"
#include "view.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <grp.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__x86_64__)
#define JAIL_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define JAIL_ARCH AUDIT_ARCH_AARCH64
#endif

static void jail_errf(char *err, size_t errlen, const char *fmt, const char *what, int e)
{
	if (err && errlen)
		snprintf(err, errlen, fmt, what, strerror(e));
}

/* ---- the child ---------------------------------------------------------------- */

enum stage { ST_PROC = 1, ST_FDS, ST_RLIMIT, ST_USER, ST_PRCTL, ST_CWD, ST_EXEC };

static const char *stage_name(int s)
{
	switch (s) {
	case ST_PROC: return "mounting a fresh /proc";
	case ST_FDS: return "setting up descriptors";
	case ST_RLIMIT: return "setting resource limits";
	case ST_USER: return "dropping to the unprivileged user";
	case ST_PRCTL: return "prctl";
	case ST_CWD: return "changing directory";
	case ST_EXEC: return "execve";
	}
	return "setup";
}

struct fail_msg {
	int32_t stage, err;
};

static void child_fail(int fd, int stage)
{
	struct fail_msg m = { stage, errno };
	ssize_t r;
	do
		r = write(fd, &m, sizeof m);
	while (r < 0 && errno == EINTR);
	_exit(127);
}

/* Sets soft and hard limit to v, never above the hard limit we inherited (the
 * judge's own sandbox sets some: raising one would fail, not limit). */
static int limit2(int res, long soft, long hard)
{
	struct rlimit cur, rl = { (rlim_t)soft, (rlim_t)hard };
	if (getrlimit(res, &cur) == 0 && cur.rlim_max != RLIM_INFINITY) {
		if (rl.rlim_max > cur.rlim_max)
			rl.rlim_max = cur.rlim_max;
		if (rl.rlim_cur > rl.rlim_max)
			rl.rlim_cur = rl.rlim_max;
	}
	return setrlimit(res, &rl);
}

static int limit(int res, long v)
{
	return limit2(res, v, v);
}

/* Runs in the cloned child: async-signal-safe calls only (the judge has CUDA's
 * threads; this process has one). */
static void child_main(const struct cua_jail_opts *o, int status_w, bool pid_ns,
                       bool drop_uid)
{
	enum { HI = 100 };
	int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	int src[4] = { devnull, o->out_fd >= 0 ? o->out_fd : devnull,
	               o->out_fd >= 0 ? o->out_fd : devnull, o->sock_fd };
	int hi[4];

	/* Move the sources and the status pipe above every target number first, so
	 * that no dup2 below clobbers a descriptor still to be copied. */
	int st = fcntl(status_w, F_DUPFD_CLOEXEC, HI);
	if (st < 0)
		_exit(127);
	for (int i = 0; i < 4; i++)
		if (src[i] < 0 || (hi[i] = fcntl(src[i], F_DUPFD_CLOEXEC, HI + 1)) < 0)
			child_fail(st, ST_FDS);
	for (int i = 0; i < 4; i++)
		if (dup2(hi[i], i) < 0)
			child_fail(st, ST_FDS);
	/* Everything else goes: nothing of the judge's reaches the candidate. */
	if (syscall(SYS_close_range, 4, st - 1, 0) != 0 ||
	    syscall(SYS_close_range, st + 1, ~0U, 0) != 0) {
		for (int fd = 4; fd < 65536; fd++)
			if (fd != st)
				close(fd);
	}

	if (pid_ns) {
		/* CUDA's start-up reads /proc; the judge's /proc shows the judge's
		 * namespace. Mount ours, privately. */
		if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
		    mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
			child_fail(st, ST_PROC);
	}
	if (limit(RLIMIT_CORE, 0) < 0 ||
	    (o->fsize_bytes > 0 && limit(RLIMIT_FSIZE, o->fsize_bytes) < 0) ||
	    (o->nofile > 0 && limit(RLIMIT_NOFILE, o->nofile) < 0))
		child_fail(st, ST_RLIMIT);
	if (o->cpu_s > 0 && limit2(RLIMIT_CPU, o->cpu_s, o->cpu_s + 1) < 0)
		child_fail(st, ST_RLIMIT);
	if (drop_uid) {
		gid_t g = CUA_JAIL_GID;
		if (setgroups(0, NULL) < 0 || setresgid(g, g, g) < 0 ||
		    setresuid(CUA_JAIL_UID, CUA_JAIL_UID, CUA_JAIL_UID) < 0)
			child_fail(st, ST_USER);
		if (setuid(0) == 0)   /* must be impossible now */
			child_fail(st, ST_USER);
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
		child_fail(st, ST_PRCTL);
	if (o->dir && chdir(o->dir) < 0)
		child_fail(st, ST_CWD);
	execve(o->exe, (char *const *)o->argv, (char *const *)o->env);
	child_fail(st, ST_EXEC);
}

static pid_t clone_with(unsigned long flags)
{
	return (pid_t)syscall(SYS_clone, flags | SIGCHLD, 0, 0, 0, 0);
}

enum cua_status cua_jail_spawn(const struct cua_jail_opts *o, pid_t *pid_out,
                               struct cua_jail_info *info, char *err, size_t errlen)
{
	int sp[2];
	struct cua_jail_info got = { 0 };
	bool root = geteuid() == 0;

	*pid_out = -1;
	if (info)
		memset(info, 0, sizeof(*info));
	if (pipe2(sp, O_CLOEXEC) < 0) {
		jail_errf(err, errlen, "jail: %s: %s", "pipe", errno);
		return CUA_E_SYSTEM;
	}
	const unsigned long ns = CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC |
	                         CLONE_NEWUTS;
	/* strongest first; each entry: flags, pid_ns, net_ns, drop uid, user ns */
	struct { unsigned long f; bool pid, net, drop, user; } tries[] = {
		{ ns, true, true, true, false },
		{ CLONE_NEWUSER | ns, true, true, true, true },
		{ CLONE_NEWNET, false, true, true, false },
		{ CLONE_NEWUSER | CLONE_NEWNET, false, true, true, true },
		{ 0, false, false, true, false },
	};
	pid_t pid = -1;
	for (size_t i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		if (o->no_namespaces && tries[i].f)
			continue;
		if (!root && tries[i].f && !tries[i].user)
			continue;   /* namespaces other than a user ns need root */
		bool drop = root && tries[i].drop && !tries[i].user;
		pid = clone_with(tries[i].f);
		if (pid == 0)   /* does not return */
			child_main(o, sp[1], tries[i].pid,
			           drop && !(o->late_drop && (tries[i].f & CLONE_NEWNS)));
		if (pid > 0) {
			got.pid_ns = tries[i].pid;
			got.net_ns = tries[i].net;
			got.user_ns = tries[i].user;
			got.user_dropped = drop || tries[i].user;
			break;
		}
	}
	close(sp[1]);
	if (pid < 0) {
		jail_errf(err, errlen, "jail: %s: %s", "clone", errno);
		close(sp[0]);
		return CUA_E_SYSTEM;
	}
	struct fail_msg m;
	ssize_t r;
	do
		r = read(sp[0], &m, sizeof m);
	while (r < 0 && errno == EINTR);
	close(sp[0]);
	if (r == (ssize_t)sizeof m) {
		int status;
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		jail_errf(err, errlen, "jail: cannot start the candidate's process: %s: %s",
		          stage_name(m.stage), m.err);
		return CUA_E_SYSTEM;
	}
	*pid_out = pid;
	if (info)
		*info = got;
	return CUA_OK;
}

/* ---- confining oneself ----------------------------------------------------------- */

#define MAX_ENTRIES 160
#define NAME_LEN 512

struct entries {
	struct cua_view_entry e[MAX_ENTRIES];
	char names[MAX_ENTRIES][NAME_LEN];
	int n;
};

static void add(struct entries *v, const char *host, const char *at, unsigned flags)
{
	if (v->n >= MAX_ENTRIES || (host && strlen(host) >= NAME_LEN))
		return;
	for (int i = 0; host && i < v->n; i++)
		if (v->e[i].host && !strcmp(v->e[i].host, host))
			return;
	char *h = NULL;
	if (host) {
		h = v->names[v->n];
		memcpy(h, host, strlen(host) + 1);
	}
	v->e[v->n++] = (struct cua_view_entry){ h, at, flags };
}

/* Every entry of dir whose name starts with prefix. */
static void add_matching(struct entries *v, const char *dir, const char *prefix,
                         unsigned flags)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[NAME_LEN];
	while (d && (de = readdir(d))) {
		if (strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) < (int)sizeof(path))
			add(v, path, NULL, flags);
	}
	if (d)
		closedir(d);
}

/* The driver's own libraries: libcuda as loaded, and its siblings (libcuda
 * loads some of them when first needed: the PTX compiler, for one). */
static int driver_lib(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	struct entries *v = arg;
	const char *p = info->dlpi_name;
	const char *base = p ? strrchr(p, '/') : NULL;
	if (!base || strncmp(base + 1, "libcuda.so", 10))
		return 0;
	char dir[NAME_LEN];
	size_t n = (size_t)(base - p);
	if (n == 0 || n >= sizeof(dir))
		return 0;
	memcpy(dir, p, n);
	dir[n] = '\0';
	add(v, p, NULL, CUA_VIEW_OPTIONAL);
	add_matching(v, dir, "libcuda.so", CUA_VIEW_OPTIONAL);
	add_matching(v, dir, "libnvidia-", CUA_VIEW_OPTIONAL);
	return 0;
}

long cua_jail_status_field(pid_t pid, const char *field)
{
	char path[64], buf[4096];
	if (pid > 0)
		snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	else
		snprintf(path, sizeof(path), "/proc/self/status");
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (r <= 0)
		return -1;
	buf[r] = '\0';
	size_t fl = strlen(field);
	for (char *l = buf; *l;) {
		char *e = strchr(l, '\n');
		if (e)
			*e = '\0';
		if (!strncmp(l, field, fl)) {
			long v;
			if (sscanf(l + fl, "%ld", &v) != 1)
				return -1;
			return strstr(l, " kB") ? v * 1024 : v;
		}
		if (!e)
			break;
		l = e + 1;
	}
	return -1;
}

enum cua_status cua_jail_confine(const struct cua_jail_confine *c, char *err, size_t errlen)
{
	static struct entries v;   /* large: not on the stack */
	v.n = 0;
	if (c->view) {
		/* the GPU: every device node of the driver's, and /dev/null */
		add_matching(&v, "/dev", "nvidia", 0);
		add(&v, "/dev/null", NULL, CUA_VIEW_OPTIONAL);
		/* the driver (a library the kernel may not call is not here) */
		dl_iterate_phdr(driver_lib, &v);
		add(&v, "/etc/ld.so.cache", NULL, CUA_VIEW_OPTIONAL);
		add(&v, c->object, CUA_JAIL_OBJECT, 0);
		add(&v, NULL, "/tmp", CUA_VIEW_TMPFS);
		const char *stage = NULL;
		if (cua_view_enter(v.e, v.n, true, &stage) != 0) {
			jail_errf(err, errlen, "jail: %s: %s", stage ? stage : "the view", errno);
			return CUA_E_SYSTEM;
		}
	}
	/* First in the OOM killer's line: a kernel that takes the host's memory
	 * (pinned buffers, say) loses its own process, not the judge. */
	int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		(void)!write(fd, "1000", 4);
		close(fd);
	}
	if (geteuid() == 0) {
		gid_t g = CUA_JAIL_GID;
		if (setgroups(0, NULL) < 0 || setresgid(g, g, g) < 0 ||
		    setresuid(CUA_JAIL_UID, CUA_JAIL_UID, CUA_JAIL_UID) < 0) {
			jail_errf(err, errlen, "jail: %s: %s", "dropping to the unprivileged user", errno);
			return CUA_E_SYSTEM;
		}
		if (setuid(0) == 0 || geteuid() == 0) {
			jail_errf(err, errlen, "jail: %s: %s", "root could be regained", EPERM);
			return CUA_E_SYSTEM;
		}
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		jail_errf(err, errlen, "jail: %s: %s", "no_new_privs", errno);
		return CUA_E_SYSTEM;
	}
	if (c->nproc > 0 && limit(RLIMIT_NPROC, c->nproc) < 0) {
		jail_errf(err, errlen, "jail: %s: %s", "RLIMIT_NPROC", errno);
		return CUA_E_SYSTEM;
	}
	if (c->data_headroom) {
		long now = cua_jail_status_field(0, "VmData:");
		if (now > 0 && limit(RLIMIT_DATA, now + (long)c->data_headroom) < 0) {
			jail_errf(err, errlen, "jail: %s: %s", "RLIMIT_DATA", errno);
			return CUA_E_SYSTEM;
		}
	}
	return CUA_OK;
}

void cua_jail_describe(const struct cua_jail_info *i, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s",
	         i->user_dropped ? (i->user_ns ? "user namespace" : "uid 65534")
	                         : "same uid (judge not root, no user namespace)",
	         i->pid_ns ? ", pid namespace" : "", i->net_ns ? ", net namespace" : "");
}

/* ---- the allow-list -------------------------------------------------------------- */

#ifdef JAIL_ARCH

#define NAME(x) { SYS_##x, #x }
/* Allowed outright. Everything a CUDA program does after its context exists:
 * memory, the driver's ioctls, futexes and threads' housekeeping, clocks,
 * polling, I/O on descriptors it already holds. */
static const struct { long nr; const char *name; } allowed[] = {
	NAME(ioctl), NAME(futex), NAME(sched_yield), NAME(read), NAME(write), NAME(readv), NAME(writev), NAME(pread64), NAME(pwrite64),
	NAME(close), NAME(fstat), NAME(newfstatat), NAME(statx), NAME(lseek),
#ifdef SYS_stat
	NAME(stat), NAME(lstat), NAME(access), NAME(readlink), NAME(poll), NAME(select),
	NAME(pipe), NAME(dup2), NAME(epoll_create), NAME(epoll_wait), NAME(time),
	NAME(getdents64),
#endif
	NAME(faccessat), NAME(faccessat2), NAME(readlinkat), NAME(getcwd),
	NAME(mmap), NAME(mprotect), NAME(munmap), NAME(mremap), NAME(madvise), NAME(brk),
	NAME(msync), NAME(mlock), NAME(munlock), NAME(mincore),
	NAME(get_mempolicy), NAME(set_mempolicy), NAME(mbind),
	NAME(rt_sigaction), NAME(rt_sigprocmask), NAME(rt_sigreturn), NAME(sigaltstack),
	NAME(rt_sigtimedwait), NAME(restart_syscall),
	NAME(ppoll), NAME(pselect6), NAME(epoll_create1), NAME(epoll_ctl),
	NAME(epoll_pwait), NAME(eventfd2), NAME(pipe2), NAME(dup), NAME(dup3), NAME(fcntl),
	NAME(set_robust_list), NAME(get_robust_list), NAME(set_tid_address),
#ifdef SYS_rseq
	NAME(rseq),
#endif
#ifdef SYS_futex_waitv
	NAME(futex_waitv),
#endif
#ifdef SYS_arch_prctl
	NAME(arch_prctl),
#endif
	NAME(sched_getaffinity), NAME(sched_setaffinity),
	NAME(sched_getparam), NAME(sched_getscheduler), NAME(sched_get_priority_max),
	NAME(sched_get_priority_min), NAME(getpriority),
	NAME(nanosleep), NAME(clock_nanosleep), NAME(clock_gettime), NAME(clock_getres),
	NAME(gettimeofday), NAME(timerfd_create), NAME(timerfd_settime),
	NAME(timerfd_gettime),
	NAME(getpid), NAME(getppid), NAME(gettid), NAME(getuid), NAME(geteuid),
	NAME(getgid), NAME(getegid), NAME(getgroups), NAME(getrlimit), NAME(prlimit64),
	NAME(getrusage), NAME(sysinfo), NAME(uname), NAME(statfs), NAME(fstatfs),
	NAME(fadvise64),
	NAME(recvmsg), NAME(sendmsg), NAME(recvfrom), NAME(sendto), NAME(getsockopt),
	NAME(getrandom), NAME(membarrier), NAME(tgkill), NAME(tkill),
	NAME(exit), NAME(exit_group),
};

/* Refused: named for messages and tests. A refused call kills the process
 * (SECCOMP_RET_KILL_PROCESS): until 2026-12-01 it raised SIGSYS (RET_TRAP) for a
 * handler that named the call, and a kernel that installed its own handler
 * (rt_sigaction is allowed) survived every refusal, its forks and sockets
 * failing quietly (held-out wave 2). No handler runs now; the judge sees the
 * process end by SIGSYS. */
static const struct { long nr; const char *name; } refused[] = {
	NAME(clone), NAME(clone3), NAME(execve), NAME(execveat), NAME(ptrace),
	NAME(process_vm_readv), NAME(process_vm_writev), NAME(socket), NAME(socketpair),
	NAME(connect), NAME(bind), NAME(listen), NAME(accept4), NAME(openat),
	NAME(openat2), NAME(kill), NAME(prctl), NAME(mount), NAME(umount2),
	NAME(setuid), NAME(setgid), NAME(setsid), NAME(unshare), NAME(setns),
	NAME(perf_event_open), NAME(bpf), NAME(userfaultfd), NAME(memfd_create),
	NAME(pidfd_open), NAME(pidfd_getfd), NAME(kcmp), NAME(io_uring_setup),
	NAME(unlinkat), NAME(renameat2), NAME(mkdirat), NAME(fchmodat), NAME(linkat),
	NAME(symlinkat), NAME(kexec_load),
#ifdef SYS_fork
	NAME(fork), NAME(vfork), NAME(open), NAME(creat), NAME(unlink), NAME(rename),
	NAME(mkdir), NAME(chmod), NAME(link), NAME(symlink),
#endif
};
#undef NAME

const char *cua_jail_syscall_name(long nr)
{
	for (size_t i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++)
		if (allowed[i].nr == nr)
			return allowed[i].name;
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (refused[i].nr == nr)
			return refused[i].name;
	return NULL;
}

#define N_ALLOWED (sizeof(allowed) / sizeof(allowed[0]))
#define MAX_PROG (2 * N_ALLOWED + 64)
#define STMT(c, k) ((struct sock_filter)BPF_STMT((c), (k)))
#define JUMP(c, k, t, f) ((struct sock_filter)BPF_JUMP((c), (k), (t), (f)))
#define ARG_LO(i) (offsetof(struct seccomp_data, args) + 8 * (i))
#define LD_NR STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr))
#define RET(v) STMT(BPF_RET | BPF_K, (v))

static struct sock_filter g_prog[MAX_PROG];
static int g_len;

/* A call whose flags argument (low word of argument `arg`) has none of `bad`
 * set is allowed; else the process is killed. 5 instructions. */
static int flags_rule(struct sock_filter *p, long nr, int arg, uint32_t bad)
{
	int k = 0;
	p[k++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, 4);
	p[k++] = STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(arg));
	p[k++] = JUMP(BPF_JMP | BPF_JSET | BPF_K, bad, 1, 0);
	p[k++] = RET(SECCOMP_RET_ALLOW);
	p[k++] = RET(SECCOMP_RET_KILL_PROCESS);
	return k;
}

static void build(void)
{
	struct sock_filter *p = g_prog;
	int k = 0;
	/* another syscall ABI (i386 on x86-64) would see other numbers: kill */
	p[k++] = STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	p[k++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, JAIL_ARCH, 1, 0);
	p[k++] = RET(SECCOMP_RET_KILL_PROCESS);
#if defined(__x86_64__)
	/* the x32 ABI shares the arch value: numbers with bit 30 set */
	p[k++] = LD_NR;
	p[k++] = JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1);
	p[k++] = RET(SECCOMP_RET_KILL_PROCESS);
#endif
	p[k++] = LD_NR;
	/* threads yes (CUDA starts some), processes no */
	p[k++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 4);
	p[k++] = STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(0));
	p[k++] = JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1);
	p[k++] = RET(SECCOMP_RET_ALLOW);
	p[k++] = RET(SECCOMP_RET_KILL_PROCESS);
	/* clone3's flags are behind a pointer: glibc falls back to clone on ENOSYS */
	p[k++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 0, 1);
	p[k++] = RET(SECCOMP_RET_ERRNO | ENOSYS);
	/* opens: read-only, never creating or truncating */
	/* Opens that create, truncate, append or write only are refused. A read-write
	 * open of an existing file is not: the CUDA runtime opens its device nodes
	 * that way lazily, after the filter is in (seen on the H200: CUB's
	 * device-wide algorithms with a cudaMallocAsync workspace, and the runtime
	 * after a reset, each died of a refused openat). As uid 65534 in its own
	 * mount namespace, with nothing created, the files it can write are the
	 * device nodes and its own /proc entries. 020000000 is the kernel's
	 * O_TMPFILE bit alone: glibc's O_TMPFILE and __O_TMPFILE both carry
	 * O_DIRECTORY, and reading a directory is fine (an opendir of /proc was
	 * refused on the H200 before). */
	const uint32_t wr = O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | 020000000u;
#ifdef SYS_open
	k += flags_rule(p + k, SYS_open, 1, wr);
#endif
	k += flags_rule(p + k, SYS_openat, 2, wr);
	p[k++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat2, 0, 1);
	p[k++] = RET(SECCOMP_RET_ERRNO | ENOSYS);
	/* prctl: thread names only */
	p[k++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_prctl, 0, 5);
	p[k++] = STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(0));
	p[k++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, PR_SET_NAME, 2, 0);
	p[k++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, PR_GET_NAME, 1, 0);
	p[k++] = RET(SECCOMP_RET_KILL_PROCESS);
	p[k++] = RET(SECCOMP_RET_ALLOW);
	for (size_t i = 0; i < N_ALLOWED; i++) {
		p[k++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)allowed[i].nr, 0, 1);
		p[k++] = RET(SECCOMP_RET_ALLOW);
	}
	p[k++] = RET(SECCOMP_RET_KILL_PROCESS);
	g_len = k;
}

int cua_jail_filter_program(const void **prog)
{
	if (!g_len)
		build();
	*prog = g_prog;
	return g_len;
}

enum cua_status cua_jail_filter_install(char *err, size_t errlen)
{
	const void *prog;
	int len = cua_jail_filter_program(&prog);
	if (len > BPF_MAXINSNS) {
		jail_errf(err, errlen, "jail: %s: %s", "filter too long", E2BIG);
		return CUA_E_SYSTEM;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		jail_errf(err, errlen, "jail: %s: %s", "no_new_privs", errno);
		return CUA_E_SYSTEM;
	}
	struct sock_fprog fp = { .len = (unsigned short)len,
	                         .filter = (struct sock_filter *)prog };
	long rc = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &fp);
	if (rc != 0) {
		jail_errf(err, errlen, "jail: %s: %s", rc > 0 ? "a thread refused the filter"
		                                               : "seccomp", rc > 0 ? EBUSY : errno);
		return CUA_E_SYSTEM;
	}
	return CUA_OK;
}

#else

const char *cua_jail_syscall_name(long nr) { return NULL; }
int cua_jail_filter_program(const void **prog) { *prog = NULL; return 0; }
enum cua_status cua_jail_filter_install(char *err, size_t errlen)
{
	jail_errf(err, errlen, "jail: %s: %s", "seccomp filter", ENOSYS);
	return CUA_E_SYSTEM;
}

#endif
