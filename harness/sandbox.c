/* sandbox.c — fork/exec of one untrusted child with rlimits, a scrubbed
 * environment, a private temp dir, captured output and a deadline (sandbox.h).
 *
 * Over docs/CODE-STYLE.md's ~900 lines: its two ways to run a child (once, or
 * staying for exchange after exchange) share the helpers that make a child safe
 * (environment, rlimits, namespaces, the jail, capture), which must stay in one
 * place.
 */
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* How long the parent keeps reading after the direct child has exited, in
 * case something outside its process group still holds the pipes open. */
#define GRACE_S 0.2
/* Poll tick while waiting for the child to exit without a pidfd. */
#define TICK_MS 20
#define SCRATCH_LEN 65536

/* Setup stages the child reports on failure (status pipe). */
enum stage { STAGE_FDS = 1, STAGE_RLIMIT, STAGE_CWD, STAGE_EXEC, STAGE_JAIL };

/* Status pipe protocol (child to parent, closed by execve's O_CLOEXEC):
 * "N" + one byte of ISO_* bits, then on a setup failure "F" + struct
 * startup_failure. EOF with no "F" means execve succeeded. */
#define MSG_NET 'N'
#define MSG_FAIL 'F'
#define ISO_NET 1      /* own network namespace */
#define ISO_JAIL 2     /* in the view, unprivileged (opts->view) */
#define ISO_USERNS 4   /* the jail is a user namespace's */

/* The user a jailed child runs as when the caller is root ("nobody"; the
 * kernel's process is the same user: judge/jail.h). */
#define JAIL_ID 65534

static const char *stage_name(int s)
{
	switch (s) {
	case STAGE_FDS: return "setting up file descriptors";
	case STAGE_RLIMIT: return "setting resource limits";
	case STAGE_CWD: return "changing directory";
	case STAGE_EXEC: return "execve";
	case STAGE_JAIL: return "jail";
	}
	return "setup";
}

/* Status message after the net byte: a setup stage, its errno, and for the
 * jail the step that failed ("binding /usr/include"). */
struct startup_failure {
	int32_t stage;
	int32_t err;
	char step[160];
};

void cua_sandbox_opts_init(struct cua_sandbox_opts *o)
{
	*o = (struct cua_sandbox_opts){
		.timeout_s = 60.0,
		.cpu_s = 0,
		.fsize_bytes = 0,
		.nofile = 0,
		.isolate_net = true,
		.private_tmp = true,
		.channel_fd = -1,
		.capture_max = 64 * 1024,
		.channel_max = 64 * 1024,
		.env = NULL,
		.cwd = NULL,
		.stop = NULL,
	};
}

void cua_child_result_clear(struct cua_child_result *res)
{
	if (!res)
		return;
	free(res->out);
	free(res->err);
	free(res->channel);
	res->out = res->err = res->channel = NULL;
	res->out_len = res->err_len = res->channel_len = 0;
}

const char *cua_signal_desc(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV (segmentation fault)";
	case SIGKILL: return "SIGKILL (killed)";
	case SIGABRT: return "SIGABRT (aborted)";
	case SIGBUS: return "SIGBUS (bus error)";
	case SIGFPE: return "SIGFPE (arithmetic exception)";
	case SIGXCPU: return "SIGXCPU (CPU time limit)";
	case SIGXFSZ: return "SIGXFSZ (file size limit)";
	case SIGILL: return "SIGILL (illegal instruction)";
	case SIGTERM: return "SIGTERM (terminated)";
	case SIGINT: return "SIGINT (interrupted)";
	case SIGHUP: return "SIGHUP (hangup)";
	case SIGPIPE: return "SIGPIPE (broken pipe)";
	case SIGTRAP: return "SIGTRAP (trace trap)";
	case SIGSYS: return "SIGSYS (bad system call)";
	}
	return "a signal (abnormal termination)";
}

/* ---- child side: async-signal-safe calls only ---------------------------- */

static void write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t r = write(fd, p, len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return;
		p += r;
		len -= (size_t)r;
	}
}

static void child_fail_step(int status_fd, int stage, const char *step)
{
	unsigned char msg[1 + sizeof(struct startup_failure)];
	struct startup_failure f = { .stage = stage, .err = errno };

	if (step) {
		size_t n = strlen(step);
		if (n >= sizeof f.step)
			n = sizeof f.step - 1;
		memcpy(f.step, step, n);
	}
	msg[0] = MSG_FAIL;
	memcpy(msg + 1, &f, sizeof f);
	write_all(status_fd, msg, sizeof msg);
	_exit(127);
}

static void child_fail(int status_fd, int stage)
{
	child_fail_step(status_fd, stage, NULL);
}

/* Closes every fd >= 3 except keep_a and keep_b (either may be < 3). */
static void close_others(int keep_a, int keep_b)
{
	unsigned int keep[2] = { keep_a < 3 ? 0 : (unsigned int)keep_a,
	                         keep_b < 3 ? 0 : (unsigned int)keep_b };
	unsigned int from = 3;

	if (keep[0] > keep[1]) {
		unsigned int t = keep[0];
		keep[0] = keep[1];
		keep[1] = t;
	}
	for (int i = 0; i <= 2; i++) {
		unsigned int to = i < 2 ? keep[i] : 0;

		if (i < 2 && to < from)
			continue;                   /* nothing kept here */
		unsigned int last = i < 2 ? to - 1 : ~0U;
		if (last >= from &&
		    syscall(SYS_close_range, from, last, 0) != 0) {
			/* No close_range (old kernel): close what the fd limit allows. */
			long max = sysconf(_SC_OPEN_MAX);
			if (max < 0 || max > 1 << 20)
				max = 1 << 20;
			for (long fd = from; fd <= (long)last && fd < max; fd++)
				close((int)fd);
		}
		if (i < 2)
			from = to + 1;
	}
}

static int set_limit(int resource, rlim_t v)
{
	struct rlimit rl = { .rlim_cur = v, .rlim_max = v };
	return setrlimit(resource, &rl);
}

/* Writes text to a /proc file of ours; -1 with errno on failure. */
static int write_proc(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	size_t n = strlen(text);
	ssize_t w = write(fd, text, n);
	int e = errno;
	close(fd);
	errno = e;
	return w == (ssize_t)n ? 0 : -1;
}

/* "ID ID 1\n": an id mapped to itself (no snprintf in a forked child). */
static void self_map(char *buf, unsigned id)
{
	char digits[12];
	int n = 0;
	do
		digits[n++] = (char)('0' + id % 10);
	while ((id /= 10) && n < 11);
	char *p = buf;
	for (int k = 0; k < 2; k++) {
		for (int i = n - 1; i >= 0; i--)
			*p++ = digits[i];
		*p++ = ' ';
	}
	memcpy(p, "1\n", 3);
}

static int drop_to_nobody(void)
{
	if (setgroups(0, NULL) < 0 || setresgid(JAIL_ID, JAIL_ID, JAIL_ID) < 0 ||
	    setresuid(JAIL_ID, JAIL_ID, JAIL_ID) < 0)
		return -1;
	if (setuid(0) == 0) {   /* must be impossible now */
		errno = EPERM;
		return -1;
	}
	return 0;
}

/* The jail of sandbox.h (opts->view): returns its ISO_* bits, or reports the
 * step that failed and ends. As root, namespaces directly and the drop to 65534
 * after the view is made; otherwise, or when that is refused (a container's
 * root without CAP_SYS_ADMIN), a user namespace mapping the user to itself,
 * entered as 65534 when root (dumpable again, so that its /proc files are its
 * own to write). */
static unsigned char child_jail(const struct cua_sandbox_opts *o, int status_fd)
{
	const int ns = CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS;
	bool root = geteuid() == 0, userns = false;
	char map[40];

	if (!root || unshare(ns) < 0) {
		if (root && (drop_to_nobody() < 0 || prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0))
			child_fail_step(status_fd, STAGE_JAIL, "dropping to uid 65534");
		uid_t uid = geteuid();
		gid_t gid = getegid();
		if (unshare(CLONE_NEWUSER | ns) < 0)
			child_fail_step(status_fd, STAGE_JAIL,
			                "making namespaces (root's, or a user namespace's)");
		self_map(map, uid);
		if (write_proc("/proc/self/uid_map", map) < 0)
			child_fail_step(status_fd, STAGE_JAIL, "writing the user namespace's uid_map");
		if (write_proc("/proc/self/setgroups", "deny") < 0 && errno != ENOENT)
			child_fail_step(status_fd, STAGE_JAIL, "writing the user namespace's setgroups");
		self_map(map, gid);
		if (write_proc("/proc/self/gid_map", map) < 0)
			child_fail_step(status_fd, STAGE_JAIL, "writing the user namespace's gid_map");
		userns = true;
	}
	const char *step = NULL;
	if (cua_view_enter(o->view, o->n_view, false, &step) < 0)
		child_fail_step(status_fd, STAGE_JAIL, step ? step : "entering the view");
	if (root && !userns && drop_to_nobody() < 0)
		child_fail_step(status_fd, STAGE_JAIL, "dropping to uid 65534");
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		child_fail_step(status_fd, STAGE_JAIL, "setting no_new_privs");
	return ISO_NET | ISO_JAIL | (userns ? ISO_USERNS : 0);
}

struct child_setup {
	const char *path;
	char *const *argv;
	char *const *envp;
	const char *dir;            /* chdir target or NULL */
	int devnull, out_w, err_w, chan_w, status_w;
	const struct cua_sandbox_opts *opts;
};

static void nproc_limit(long nproc, int status_fd)
{
	/* never above the hard limit we were given (that would fail, not limit) */
	struct rlimit cur;
	rlim_t v = (rlim_t)nproc;
	if (getrlimit(RLIMIT_NPROC, &cur) == 0 && cur.rlim_max != RLIM_INFINITY &&
	    cur.rlim_max < v)
		v = cur.rlim_max;
	if (set_limit(RLIMIT_NPROC, v) < 0)
		child_fail(status_fd, STAGE_RLIMIT);
}

static void child_main(const struct child_setup *s)
{
	const struct cua_sandbox_opts *o = s->opts;
	int chan_fd = o->channel_fd;
	int floor_fd = chan_fd >= 3 ? chan_fd + 1 : 3;
	int fds[5] = { s->devnull, s->out_w, s->err_w, s->chan_w, s->status_w };
	int hi[5];
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t none;
	char net[2] = { MSG_NET, 0 };

	setpgid(0, 0);
	/* Ignored signals survive execve: give the child default dispositions. */
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigaction(sig, &dfl, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	/* Move everything above the fd numbers we are about to fill, so that a
	 * channel_fd equal to one of our pipe fds cannot clobber it. */
	for (int i = 0; i < 5; i++) {
		hi[i] = -1;
		if (fds[i] < 0)
			continue;
		hi[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, floor_fd);
		if (hi[i] < 0)
			child_fail(s->status_w, STAGE_FDS);
	}
	int status_fd = hi[4];
	if (dup2(hi[0], 0) < 0 || dup2(hi[1], 1) < 0 || dup2(hi[2], 2) < 0)
		child_fail(status_fd, STAGE_FDS);
	if (chan_fd >= 0 && dup2(hi[3], chan_fd) < 0)
		child_fail(status_fd, STAGE_FDS);
	close_others(chan_fd >= 0 ? chan_fd : 0, status_fd);

	if (set_limit(RLIMIT_CORE, 0) < 0)
		child_fail(status_fd, STAGE_RLIMIT);
	if (o->cpu_s > 0) {
		/* Soft limit raises SIGXCPU; the hard one a second later SIGKILL. */
		struct rlimit rl = { .rlim_cur = (rlim_t)o->cpu_s,
		                     .rlim_max = (rlim_t)o->cpu_s + 1 };
		if (setrlimit(RLIMIT_CPU, &rl) < 0)
			child_fail(status_fd, STAGE_RLIMIT);
	}
	if (o->fsize_bytes > 0 && set_limit(RLIMIT_FSIZE, (rlim_t)o->fsize_bytes) < 0)
		child_fail(status_fd, STAGE_RLIMIT);
	if (o->nofile > 0 && set_limit(RLIMIT_NOFILE, (rlim_t)o->nofile) < 0)
		child_fail(status_fd, STAGE_RLIMIT);
	if (o->nproc > 0 && !o->view)
		nproc_limit(o->nproc, status_fd);

	if (o->view) {
		net[1] = (char)child_jail(o, status_fd);
		if (o->nproc > 0)
			nproc_limit(o->nproc, status_fd);
	} else if (o->isolate_net) {
		/* Root (or CAP_SYS_ADMIN) can unshare directly; otherwise an
		 * unprivileged user namespace may allow it. */
		if (unshare(CLONE_NEWNET) == 0 ||
		    unshare(CLONE_NEWUSER | CLONE_NEWNET) == 0)
			net[1] = ISO_NET;
	}
	write_all(status_fd, net, sizeof net);

	if (s->dir && chdir(s->dir) < 0)
		child_fail(status_fd, STAGE_CWD);
	/* Last: this process is a copy of the harness, whose address space may
	 * already be over the limit (its threads' stacks, a sanitizer's shadow):
	 * from here on nothing grows before execve replaces it. */
	if (o->as_bytes > 0 && set_limit(RLIMIT_AS, (rlim_t)o->as_bytes) < 0)
		child_fail(status_fd, STAGE_RLIMIT);

	execve(s->path, s->argv, s->envp);
	child_fail(status_fd, STAGE_EXEC);
}

/* ---- parent side ---------------------------------------------------------- */


struct capture {
	char *buf;
	size_t len, cap_max, alloc;
	bool truncated;
};

static void capture_init(struct capture *c, size_t cap_max)
{
	c->buf = cua_xmalloc(1);
	c->buf[0] = '\0';
	c->len = 0;
	c->alloc = 1;
	c->cap_max = cap_max;
	c->truncated = false;
}

/* Appends up to the cap; the rest is counted as truncated. */
static void capture_add(struct capture *c, const char *p, size_t n)
{
	size_t room = c->cap_max - c->len;
	size_t take = n < room ? n : room;

	if (take < n)
		c->truncated = true;
	if (take == 0)
		return;
	if (c->len + take + 1 > c->alloc) {
		size_t want = c->alloc * 2;
		if (want < c->len + take + 1)
			want = c->len + take + 1;
		if (want > c->cap_max + 1)
			want = c->cap_max + 1;
		c->buf = cua_xrealloc(c->buf, want);
		c->alloc = want;
	}
	memcpy(c->buf + c->len, p, take);
	c->len += take;
	c->buf[c->len] = '\0';
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Builds the child's environment: opts->env, with HOME/TMPDIR replaced by
 * dir when given. The returned array and its HOME/TMPDIR strings are heap;
 * the other entries are borrowed from opts->env. */
static char **build_env(const char *const *env, const char *dir, char **own)
{
	size_t n = 0;
	char **e;

	own[0] = own[1] = NULL;
	for (size_t i = 0; env && env[i]; i++)
		n++;
	e = cua_xcalloc(n + 3, sizeof *e);
	n = 0;
	for (size_t i = 0; env && env[i]; i++) {
		if (dir && (!strncmp(env[i], "HOME=", 5) || !strncmp(env[i], "TMPDIR=", 7)))
			continue;
		e[n++] = (char *)env[i];
	}
	if (dir) {
		own[0] = cua_env_pair("HOME", dir);
		own[1] = cua_env_pair("TMPDIR", dir);
		e[n++] = own[0];
		e[n++] = own[1];
	}
	e[n] = NULL;
	return e;
}

/* argv[0] when it has a '/' (made absolute: the child changes directory
 * before execve), else the first executable match in the parent's PATH, else
 * a copy of argv[0] (execve then fails ENOENT). Heap. */
static char *resolve_path(const char *name)
{
	const char *path = getenv("PATH");

	if (name[0] == '/' || !*name)
		return cua_xstrdup(name);
	if (strchr(name, '/')) {
		char cwd[CUA_PATH_LEN];
		if (!getcwd(cwd, sizeof cwd))
			return cua_xstrdup(name);
		size_t cl = strlen(cwd), nl = strlen(name);
		char *abs = cua_xmalloc(cl + nl + 2);
		memcpy(abs, cwd, cl);
		abs[cl] = '/';
		memcpy(abs + cl + 1, name, nl + 1);
		return abs;
	}
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	size_t nl = strlen(name);
	for (const char *p = path; ; ) {
		const char *end = strchr(p, ':');
		size_t dl = end ? (size_t)(end - p) : strlen(p);
		char *cand = cua_xmalloc(dl + nl + 3);

		if (dl == 0) {
			memcpy(cand, "./", 2);
			memcpy(cand + 2, name, nl + 1);
		} else {
			memcpy(cand, p, dl);
			cand[dl] = '/';
			memcpy(cand + dl + 1, name, nl + 1);
		}
		if (access(cand, X_OK) == 0)
			return cand;
		free(cand);
		if (!end)
			break;
		p = end + 1;
	}
	return cua_xstrdup(name);
}

static int make_pipe(int p[2])
{
	if (pipe2(p, O_CLOEXEC) < 0) {
		p[0] = p[1] = -1;
		return -1;
	}
	return 0;
}

/* The parent never writes to the child, but a harness that does (or a
 * library it uses) must not die of SIGPIPE: ignore it if nobody handles it. */
static void ignore_sigpipe(void)
{
	struct sigaction old;

	if (sigaction(SIGPIPE, NULL, &old) == 0 && old.sa_handler == SIG_DFL &&
	    !(old.sa_flags & SA_SIGINFO)) {
		struct sigaction ign = { .sa_handler = SIG_IGN };
		sigaction(SIGPIPE, &ign, NULL);
	}
}

static int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd >= 0)
		fcntl(fd, F_SETFD, FD_CLOEXEC);
	return fd;
#else
	(void)pid;
	return -1;
#endif
}

/* True once the child has terminated (left as a zombie, not reaped, so
 * its pid and process group id cannot be reused while we kill the group). */
static bool child_exited(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof si);
	while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0) {
		if (errno == EINTR)
			continue;
		/* ECHILD: SIGCHLD is ignored and the kernel reaped it itself. */
		return kill(pid, 0) < 0 && errno == ESRCH;
	}
	return si.si_pid == pid;
}

static pid_t reap(pid_t pid, int *status)
{
	pid_t r;

	do
		r = waitpid(pid, status, 0);
	while (r < 0 && errno == EINTR);
	return r;
}

/* reap(), with the resources the child and its waited-for descendants used. */
static pid_t reap_usage(pid_t pid, int *status, struct rusage *ru)
{
	pid_t r;

	do
		r = wait4(pid, status, 0, ru);
	while (r < 0 && errno == EINTR);
	return r;
}

/* The status pipe's bytes (the network byte, then a start-up failure if
 * any): CUA_OK, or the failure as an error naming the program. */
static enum cua_status startup_status(const unsigned char *st, size_t len, const char *prog,
                                      unsigned char *iso, char *err, size_t errlen)
{
	size_t pos = 0;
	if (len >= 2 && st[0] == MSG_NET) {
		*iso = st[1];
		pos = 2;
	}
	if (len >= pos + 1 + sizeof(struct startup_failure) && st[pos] == MSG_FAIL) {
		struct startup_failure f;
		memcpy(&f, st + pos + 1, sizeof f);
		f.step[sizeof f.step - 1] = '\0';
		cua_errf(err, errlen, "sandbox: cannot start %s: %s%s%s: %s", prog,
		         stage_name(f.stage), f.step[0] ? ": " : "", f.step, strerror(f.err));
		return f.stage == STAGE_EXEC && (f.err == ENOENT || f.err == ENOTDIR)
		       ? CUA_E_NOT_FOUND : CUA_E_SYSTEM;
	}
	return CUA_OK;
}

/* How a reaped child ended, as res says it. */
static void set_how(struct cua_child_result *res, bool timed_out, bool stopped, int wstatus)
{
	if (timed_out) {
		res->how = CUA_CHILD_TIMEOUT;
		res->sig = SIGKILL;
	} else if (stopped) {
		res->how = CUA_CHILD_STOPPED;
		res->sig = SIGKILL;
	} else if (WIFSIGNALED(wstatus)) {
		res->how = CUA_CHILD_SIGNALED;
		res->sig = WTERMSIG(wstatus);
	} else {
		res->how = CUA_CHILD_NORMAL;
		res->code = WEXITSTATUS(wstatus);
	}
}

enum cua_status cua_sandbox_jail_probe(bool *user_ns, char *err, size_t errlen)
{
	static const struct cua_view_entry one[] = { { "/dev/null", NULL, 0 } };
	struct cua_sandbox_opts o;
	unsigned char st[2 + 1 + sizeof(struct startup_failure)];
	size_t len = 0;
	int p[2], wstatus;

	cua_sandbox_opts_init(&o);
	o.view = one;
	o.n_view = 1;
	if (make_pipe(p) < 0) {
		cua_errf(err, errlen, "sandbox: cannot create a pipe: %s", strerror(errno));
		return CUA_E_SYSTEM;
	}
	pid_t pid = fork();
	if (pid < 0) {
		cua_errf(err, errlen, "sandbox: fork failed: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return CUA_E_SYSTEM;
	}
	if (pid == 0) {
		close(p[0]);
		st[0] = MSG_NET;
		st[1] = child_jail(&o, p[1]);
		write_all(p[1], st, 2);
		_exit(0);
	}
	close(p[1]);
	for (;;) {
		ssize_t n = read(p[0], st + len, sizeof st - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
		if (len == sizeof st)
			break;
	}
	close(p[0]);
	reap(pid, &wstatus);
	unsigned char iso = 0;
	enum cua_status r = startup_status(st, len, "a jailed child", &iso, err, errlen);
	if (r == CUA_OK && !(iso & ISO_JAIL)) {
		cua_errf(err, errlen, "sandbox: the jail's probe ended before it said how it went");
		r = CUA_E_SYSTEM;
	}
	if (user_ns)
		*user_ns = iso & ISO_USERNS;
	return r == CUA_OK ? CUA_OK : CUA_E_SYSTEM;
}

enum cua_status cua_sandbox_run(const char *const *argv,
                                const struct cua_sandbox_opts *opts,
                                struct cua_child_result *res, char *err,
                                size_t errlen)
{
	enum cua_status result = CUA_OK;
	struct cua_sandbox_opts defaults;
	char tmpdir[CUA_PATH_LEN] = "";
	char *own_env[2] = { NULL, NULL };
	char **envp = NULL;
	char *path = NULL;
	int devnull = -1, out_p[2] = { -1, -1 }, err_p[2] = { -1, -1 };
	int chan_p[2] = { -1, -1 }, st_p[2] = { -1, -1 }, pidfd = -1;
	struct capture cap[3] = { { 0 } };
	unsigned char st_buf[2 + 1 + sizeof(struct startup_failure)];
	size_t st_len = 0;
	char *scratch = NULL;
	pid_t pid = -1;
	int wstatus = 0;
	bool timed_out = false, stopped = false;

	if (res)
		memset(res, 0, sizeof *res);
	if (!opts) {
		cua_sandbox_opts_init(&defaults);
		opts = &defaults;
	}
	if (!argv || !argv[0] || !res) {
		cua_errf(err, errlen, "sandbox: no program to run");
		result = CUA_E_USAGE;
		goto out;
	}
	if (opts->channel_fd >= 0 && opts->channel_fd <= 2) {
		cua_errf(err, errlen, "sandbox: channel fd %d collides with stdio",
		         opts->channel_fd);
		result = CUA_E_INVALID;
		goto out;
	}
	if (opts->view && opts->private_tmp) {
		cua_errf(err, errlen, "sandbox: a jailed child lists its own tmp (no private_tmp)");
		result = CUA_E_USAGE;
		goto out;
	}
	ignore_sigpipe();

	capture_init(&cap[0], opts->capture_max);
	capture_init(&cap[1], opts->capture_max);
	capture_init(&cap[2], opts->channel_max);
	scratch = cua_xmalloc(SCRATCH_LEN);

	if (opts->private_tmp) {
		const char *base = getenv("TMPDIR");
		if (!base || !*base)
			base = "/tmp";
		int n = snprintf(tmpdir, sizeof tmpdir, "%s/cuarena-XXXXXX", base);
		if (n < 0 || (size_t)n >= sizeof tmpdir || !mkdtemp(tmpdir)) {
			cua_errf(err, errlen, "sandbox: cannot make a temp dir under %s: %s",
			         base, strerror(errno));
			tmpdir[0] = '\0';
			result = CUA_E_SYSTEM;
			goto out;
		}
	}
	envp = build_env(opts->env, tmpdir[0] ? tmpdir : NULL, own_env);
	path = resolve_path(argv[0]);

	devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (devnull < 0 || make_pipe(out_p) < 0 || make_pipe(err_p) < 0 ||
	    make_pipe(st_p) < 0 || (opts->channel_fd >= 0 && make_pipe(chan_p) < 0)) {
		cua_errf(err, errlen, "sandbox: cannot create pipes: %s", strerror(errno));
		result = CUA_E_SYSTEM;
		goto out;
	}

	struct child_setup setup = {
		.path = path,
		.argv = (char *const *)argv,
		.envp = envp,
		.dir = tmpdir[0] ? tmpdir : opts->cwd,
		.devnull = devnull,
		.out_w = out_p[1],
		.err_w = err_p[1],
		.chan_w = chan_p[1],
		.status_w = st_p[1],
		.opts = opts,
	};
	double start = cua_now();
	pid = fork();
	if (pid < 0) {
		cua_errf(err, errlen, "sandbox: fork failed: %s", strerror(errno));
		result = CUA_E_SYSTEM;
		goto out;
	}
	if (pid == 0)
		child_main(&setup);     /* never returns */

	setpgid(pid, pid);          /* also done by the child; whichever is first */
	pidfd = open_pidfd(pid);
	close_fd(&devnull);
	close_fd(&out_p[1]);
	close_fd(&err_p[1]);
	close_fd(&chan_p[1]);
	close_fd(&st_p[1]);

	double deadline = opts->timeout_s > 0 ? start + opts->timeout_s : 0;
	double exited_at = 0;
	bool exited = false;
	int *rfd[4] = { &out_p[0], &err_p[0], &chan_p[0], &st_p[0] };

	for (;;) {
		if (!exited && child_exited(pid)) {
			exited = true;
			exited_at = cua_now();
			kill(-pid, SIGKILL);    /* leftovers in its process group */
			close_fd(&pidfd);
		}
		bool open_fds = false;
		for (int i = 0; i < 4; i++)
			open_fds |= *rfd[i] >= 0;
		double now = cua_now();
		if (exited && (!open_fds || now - exited_at >= GRACE_S))
			break;
		if (!exited && !stopped && opts->stop && *opts->stop) {
			stopped = true;
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			continue;
		}
		if (!exited && deadline > 0 && now >= deadline) {
			timed_out = true;
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			deadline = 0;
			continue;
		}

		struct pollfd pfd[5];
		int idx[5], np = 0;
		for (int i = 0; i < 4; i++) {
			if (*rfd[i] < 0)
				continue;
			pfd[np] = (struct pollfd){ .fd = *rfd[i], .events = POLLIN };
			idx[np++] = i;
		}
		if (pidfd >= 0) {
			pfd[np] = (struct pollfd){ .fd = pidfd, .events = POLLIN };
			idx[np++] = -1;
		}
		double wait_s = -1;
		if (exited)
			wait_s = GRACE_S - (now - exited_at);
		else if (deadline > 0)
			wait_s = deadline - now;
		if (!exited && (pidfd < 0 || opts->stop) && (wait_s < 0 || wait_s > TICK_MS / 1e3))
			wait_s = TICK_MS / 1e3;
		int timeout_ms = wait_s < 0 ? -1 : (int)(wait_s * 1e3) + 1;

		int pr = poll(pfd, (nfds_t)np, timeout_ms);
		if (pr < 0) {
			if (errno == EINTR)
				continue;
			/* Should not happen; avoid spinning and let the deadline act. */
			struct timespec ts = { 0, TICK_MS * 1000000L };
			nanosleep(&ts, NULL);
			continue;
		}
		for (int k = 0; k < np; k++) {
			if (idx[k] < 0 || !(pfd[k].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL)))
				continue;
			int i = idx[k];
			ssize_t n = read(*rfd[i], scratch, SCRATCH_LEN);
			if (n < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (n <= 0) {
				close_fd(rfd[i]);
				continue;
			}
			if (i == 3) {
				size_t take = sizeof st_buf - st_len;
				if ((size_t)n < take)
					take = (size_t)n;
				memcpy(st_buf + st_len, scratch, take);
				st_len += take;
			} else {
				capture_add(&cap[i], scratch, (size_t)n);
			}
		}
	}
	for (int i = 0; i < 4; i++)
		close_fd(rfd[i]);
	close_fd(&pidfd);
	struct rusage ru;
	memset(&ru, 0, sizeof ru);
	if (reap_usage(pid, &wstatus, &ru) < 0) {
		cua_errf(err, errlen, "sandbox: waitpid failed: %s", strerror(errno));
		result = CUA_E_SYSTEM;
		pid = -1;
		goto out;
	}
	pid = -1;
	res->wall_s = cua_now() - start;

	unsigned char iso = 0;
	result = startup_status(st_buf, st_len, argv[0], &iso, err, errlen);
	if (result != CUA_OK)
		goto out;
	res->net_isolated = iso & ISO_NET;
	res->jailed = iso & ISO_JAIL;
	res->user_ns = iso & ISO_USERNS;
	res->cpu_s = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
	             ru.ru_stime.tv_usec / 1e6;
	res->maxrss_kb = ru.ru_maxrss;
	set_how(res, timed_out, stopped, wstatus);
	res->out = cap[0].buf;  res->out_len = cap[0].len;  res->out_truncated = cap[0].truncated;
	res->err = cap[1].buf;  res->err_len = cap[1].len;  res->err_truncated = cap[1].truncated;
	res->channel = cap[2].buf;  res->channel_len = cap[2].len;
	res->channel_truncated = cap[2].truncated;
	for (int i = 0; i < 3; i++)
		cap[i].buf = NULL;

out:
	if (pid > 0) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		reap(pid, &wstatus);
	}
	close_fd(&devnull);
	close_fd(&pidfd);
	for (int i = 0; i < 2; i++) {
		close_fd(&out_p[i]);
		close_fd(&err_p[i]);
		close_fd(&chan_p[i]);
		close_fd(&st_p[i]);
	}
	for (int i = 0; i < 3; i++)
		free(cap[i].buf);
	if (tmpdir[0])
		cua_rmtree(tmpdir);
	free(scratch);
	free(own_env[0]);
	free(own_env[1]);
	free(envp);
	free(path);
	if (result != CUA_OK && res)
		memset(res, 0, sizeof *res);
	return result;
}

/* ---- a child that stays ------------------------------------------------------ */

static void proc_init(struct cua_sandbox_proc *p)
{
	memset(p, 0, sizeof(*p));
	p->pid = -1;
	p->in_w = p->out_r = p->err_r = p->chan_r = p->pidfd = -1;
}

void cua_sandbox_end(struct cua_sandbox_proc *p)
{
	int wstatus;
	if (p->pid > 0) {
		kill(-p->pid, SIGKILL);
		kill(p->pid, SIGKILL);
		reap(p->pid, &wstatus);
	}
	close_fd(&p->in_w);
	close_fd(&p->out_r);
	close_fd(&p->err_r);
	close_fd(&p->chan_r);
	close_fd(&p->pidfd);
	if (p->tmpdir[0])
		cua_rmtree(p->tmpdir);
	proc_init(p);
}

enum cua_status cua_sandbox_spawn(const char *const *argv,
                                  const struct cua_sandbox_opts *opts,
                                  struct cua_sandbox_proc *p, char *err, size_t errlen)
{
	enum cua_status result = CUA_OK;
	char *own_env[2] = { NULL, NULL };
	char **envp = NULL;
	char *path = NULL;
	int in_p[2] = { -1, -1 }, out_p[2] = { -1, -1 }, err_p[2] = { -1, -1 };
	int chan_p[2] = { -1, -1 }, st_p[2] = { -1, -1 };
	unsigned char st_buf[2 + 1 + sizeof(struct startup_failure)];
	size_t st_len = 0;

	proc_init(p);
	if (!argv || !argv[0] || !opts || opts->channel_fd <= 2) {
		cua_errf(err, errlen, "sandbox: a staying child needs a program and a channel");
		return CUA_E_USAGE;
	}
	ignore_sigpipe();
	p->capture_max = opts->capture_max;
	p->channel_max = opts->channel_max;
	if (opts->private_tmp) {
		const char *base = getenv("TMPDIR");
		if (!base || !*base)
			base = "/tmp";
		int n = snprintf(p->tmpdir, sizeof p->tmpdir, "%s/cuarena-XXXXXX", base);
		if (n < 0 || (size_t)n >= sizeof p->tmpdir || !mkdtemp(p->tmpdir)) {
			cua_errf(err, errlen, "sandbox: cannot make a temp dir under %s: %s", base,
			         strerror(errno));
			p->tmpdir[0] = '\0';
			return CUA_E_SYSTEM;
		}
	}
	envp = build_env(opts->env, p->tmpdir[0] ? p->tmpdir : NULL, own_env);
	path = resolve_path(argv[0]);
	if (make_pipe(in_p) < 0 || make_pipe(out_p) < 0 || make_pipe(err_p) < 0 ||
	    make_pipe(st_p) < 0 || make_pipe(chan_p) < 0) {
		cua_errf(err, errlen, "sandbox: cannot create pipes: %s", strerror(errno));
		result = CUA_E_SYSTEM;
		goto out;
	}
	struct child_setup setup = {
		.path = path,
		.argv = (char *const *)argv,
		.envp = envp,
		.dir = p->tmpdir[0] ? p->tmpdir : opts->cwd,
		.devnull = in_p[0],
		.out_w = out_p[1],
		.err_w = err_p[1],
		.chan_w = chan_p[1],
		.status_w = st_p[1],
		.opts = opts,
	};
	pid_t pid = fork();
	if (pid < 0) {
		cua_errf(err, errlen, "sandbox: fork failed: %s", strerror(errno));
		result = CUA_E_SYSTEM;
		goto out;
	}
	if (pid == 0)
		child_main(&setup);     /* never returns */
	setpgid(pid, pid);
	p->pid = pid;
	p->pidfd = open_pidfd(pid);
	close_fd(&in_p[0]);
	close_fd(&out_p[1]);
	close_fd(&err_p[1]);
	close_fd(&chan_p[1]);
	close_fd(&st_p[1]);
	/* The status pipe closes at execve (or says why it failed). */
	for (;;) {
		ssize_t n = read(st_p[0], st_buf + st_len, sizeof st_buf - st_len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		st_len += (size_t)n;
		if (st_len == sizeof st_buf)
			break;
	}
	unsigned char iso = 0;
	result = startup_status(st_buf, st_len, argv[0], &iso, err, errlen);
	p->net_isolated = iso & ISO_NET;
	if (result != CUA_OK)
		goto out;
	p->in_w = in_p[1];
	p->out_r = out_p[0];
	p->err_r = err_p[0];
	p->chan_r = chan_p[0];
	in_p[1] = out_p[0] = err_p[0] = chan_p[0] = -1;
out:
	for (int i = 0; i < 2; i++) {
		close_fd(&in_p[i]);
		close_fd(&out_p[i]);
		close_fd(&err_p[i]);
		close_fd(&chan_p[i]);
		close_fd(&st_p[i]);
	}
	free(own_env[0]);
	free(own_env[1]);
	free(envp);
	free(path);
	if (result != CUA_OK)
		cua_sandbox_end(p);
	return result;
}

/* Reads what is there on fd into c, without waiting; false once it is closed. */
static bool drain_now(int *fd, struct capture *c, char *scratch)
{
	while (*fd >= 0) {
		struct pollfd pf = { .fd = *fd, .events = POLLIN };
		if (poll(&pf, 1, 0) <= 0 || !(pf.revents & (POLLIN | POLLHUP | POLLERR)))
			return true;
		ssize_t n = read(*fd, scratch, SCRATCH_LEN);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0) {
			close_fd(fd);
			return false;
		}
		capture_add(c, scratch, (size_t)n);
	}
	return false;
}

enum cua_status cua_sandbox_exchange(struct cua_sandbox_proc *p, const void *msg,
                                     size_t len, double timeout_s,
                                     bool (*done)(void *ctx, const char *chan, size_t n),
                                     void *ctx, struct cua_child_result *res,
                                     char *err, size_t errlen)
{
	struct capture cap[3] = { { 0 } };
	char *scratch = NULL;
	double start = cua_now();
	bool timed_out = false, finished = false;
	int wstatus = 0;

	memset(res, 0, sizeof *res);
	if (p->pid <= 0) {
		cua_errf(err, errlen, "sandbox: the staying child is not running");
		return CUA_E_INVALID;
	}
	capture_init(&cap[0], p->capture_max);
	capture_init(&cap[1], p->capture_max);
	capture_init(&cap[2], p->channel_max);
	scratch = cua_xmalloc(SCRATCH_LEN);
	/* A child that died since its last answer shows as EPIPE here, and as an
	 * exit below: the caller decides (it never answered this one). */
	const char *m = msg;
	while (len > 0 && p->in_w >= 0) {
		ssize_t w = write(p->in_w, m, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		m += w;
		len -= (size_t)w;
	}
	double deadline = timeout_s > 0 ? start + timeout_s : 0;
	int *rfd[3] = { &p->out_r, &p->err_r, &p->chan_r };
	bool exited = false;
	double exited_at = 0;
	for (;;) {
		if (!exited && child_exited(p->pid)) {
			exited = true;
			exited_at = cua_now();
			kill(-p->pid, SIGKILL);
		}
		double now = cua_now();
		bool open_fds = p->out_r >= 0 || p->err_r >= 0 || p->chan_r >= 0;
		if (exited && (!open_fds || now - exited_at >= GRACE_S))
			break;
		if (!exited && deadline > 0 && now >= deadline) {
			timed_out = true;
			kill(-p->pid, SIGKILL);
			kill(p->pid, SIGKILL);
			deadline = 0;
			continue;
		}
		struct pollfd pfd[4];
		int idx[4], np = 0;
		for (int i = 0; i < 3; i++) {
			if (*rfd[i] < 0)
				continue;
			pfd[np] = (struct pollfd){ .fd = *rfd[i], .events = POLLIN };
			idx[np++] = i;
		}
		if (p->pidfd >= 0 && !exited) {
			pfd[np] = (struct pollfd){ .fd = p->pidfd, .events = POLLIN };
			idx[np++] = -1;
		}
		double wait_s = exited ? GRACE_S - (now - exited_at) : deadline > 0 ? deadline - now : -1;
		if (!exited && p->pidfd < 0 && (wait_s < 0 || wait_s > TICK_MS / 1e3))
			wait_s = TICK_MS / 1e3;
		int pr = poll(pfd, (nfds_t)np, wait_s < 0 ? -1 : (int)(wait_s * 1e3) + 1);
		if (pr < 0) {
			if (errno != EINTR) {
				struct timespec ts = { 0, TICK_MS * 1000000L };
				nanosleep(&ts, NULL);
			}
			continue;
		}
		bool news = false;
		for (int k = 0; k < np; k++) {
			if (idx[k] < 0 || !(pfd[k].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL)))
				continue;
			int i = idx[k];
			ssize_t n = read(*rfd[i], scratch, SCRATCH_LEN);
			if (n < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (n <= 0) {
				close_fd(rfd[i]);
				continue;
			}
			capture_add(&cap[i], scratch, (size_t)n);
			news |= i == 2;
		}
		if (news && !exited && done(ctx, cap[2].buf ? cap[2].buf : "", cap[2].len)) {
			/* everything it wrote before its answer is in the pipes now */
			drain_now(&p->out_r, &cap[0], scratch);
			drain_now(&p->err_r, &cap[1], scratch);
			finished = true;
			break;
		}
	}
	res->wall_s = cua_now() - start;
	res->net_isolated = p->net_isolated;
	if (finished) {
		res->how = CUA_CHILD_ALIVE;
	} else {
		close_fd(&p->pidfd);
		if (reap(p->pid, &wstatus) < 0)
			wstatus = 0;
		p->pid = -1;
		set_how(res, timed_out, false, wstatus);
		cua_sandbox_end(p);
	}
	res->out = cap[0].buf;  res->out_len = cap[0].len;  res->out_truncated = cap[0].truncated;
	res->err = cap[1].buf;  res->err_len = cap[1].len;  res->err_truncated = cap[1].truncated;
	res->channel = cap[2].buf;  res->channel_len = cap[2].len;
	res->channel_truncated = cap[2].truncated;
	free(scratch);
	return CUA_OK;
}
