/* sandbox.c — one untrusted child with rlimits, a scrubbed environment, a
 * private temp dir, captured output and a deadline (sandbox.h), started through
 * run-command.c: what makes it safe is run-command's pre_exec here.
 *
 * Over docs/CODE-STYLE.md's ~900 lines: its two ways to run a child (once, or
 * staying for exchange after exchange) share the helpers that make a child safe
 * (environment, rlimits, namespaces, the jail, capture), which must stay in one
 * place.
 */
#include "sandbox.h"
#include "run-command.h"

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

/* Setup stages a start-up failure is named by: pre_exec's own (cua_child_fail)
 * and run-command's descriptors and execve, in the same words. */
enum stage { STAGE_FDS = 1, STAGE_RLIMIT, STAGE_CWD, STAGE_EXEC, STAGE_JAIL };

/* What pre_exec tells the parent (its note): how the child is isolated. */
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
static unsigned char child_jail(const struct cua_sandbox_opts *o, struct cua_child_pre *pre)
{
	const int ns = CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS;
	bool root = geteuid() == 0, userns = false;
	char map[40];

	if (!root || unshare(ns) < 0) {
		if (root && (drop_to_nobody() < 0 || prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0))
			cua_child_fail(pre, STAGE_JAIL, "dropping to uid 65534");
		uid_t uid = geteuid();
		gid_t gid = getegid();
		if (unshare(CLONE_NEWUSER | ns) < 0)
			cua_child_fail(pre, STAGE_JAIL,
			                "making namespaces (root's, or a user namespace's)");
		self_map(map, uid);
		if (write_proc("/proc/self/uid_map", map) < 0)
			cua_child_fail(pre, STAGE_JAIL, "writing the user namespace's uid_map");
		if (write_proc("/proc/self/setgroups", "deny") < 0 && errno != ENOENT)
			cua_child_fail(pre, STAGE_JAIL, "writing the user namespace's setgroups");
		self_map(map, gid);
		if (write_proc("/proc/self/gid_map", map) < 0)
			cua_child_fail(pre, STAGE_JAIL, "writing the user namespace's gid_map");
		userns = true;
	}
	const char *step = NULL;
	if (cua_view_enter(o->view, o->n_view, false, &step) < 0)
		cua_child_fail(pre, STAGE_JAIL, step ? step : "entering the view");
	if (root && !userns && drop_to_nobody() < 0)
		cua_child_fail(pre, STAGE_JAIL, "dropping to uid 65534");
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		cua_child_fail(pre, STAGE_JAIL, "setting no_new_privs");
	return ISO_NET | ISO_JAIL | (userns ? ISO_USERNS : 0);
}

/* What the child does to itself before execve (child_setup). */
struct child_setup {
	const struct cua_sandbox_opts *opts;
	const char *dir;            /* chdir target or NULL */
};

static void nproc_limit(long nproc, struct cua_child_pre *pre)
{
	/* never above the hard limit we were given (that would fail, not limit) */
	struct rlimit cur;
	rlim_t v = (rlim_t)nproc;
	if (getrlimit(RLIMIT_NPROC, &cur) == 0 && cur.rlim_max != RLIM_INFINITY &&
	    cur.rlim_max < v)
		v = cur.rlim_max;
	if (set_limit(RLIMIT_NPROC, v) < 0)
		cua_child_fail(pre, STAGE_RLIMIT, NULL);
}

/* run-command's pre_exec for every child of ours: the process group, default
 * signals, its streams and only them (and the channel, as opts->channel_fd)
 * are in place; here the rlimits, the jail or the network namespace (the note
 * says which), the directory, and RLIMIT_AS last. */
static void child_setup(struct cua_child_pre *pre, void *ctx)
{
	const struct child_setup *s = ctx;
	const struct cua_sandbox_opts *o = s->opts;

	if (set_limit(RLIMIT_CORE, 0) < 0)
		cua_child_fail(pre, STAGE_RLIMIT, NULL);
	if (o->cpu_s > 0) {
		/* Soft limit raises SIGXCPU; the hard one a second later SIGKILL. */
		struct rlimit rl = { .rlim_cur = (rlim_t)o->cpu_s,
		                     .rlim_max = (rlim_t)o->cpu_s + 1 };
		if (setrlimit(RLIMIT_CPU, &rl) < 0)
			cua_child_fail(pre, STAGE_RLIMIT, NULL);
	}
	if (o->fsize_bytes > 0 && set_limit(RLIMIT_FSIZE, (rlim_t)o->fsize_bytes) < 0)
		cua_child_fail(pre, STAGE_RLIMIT, NULL);
	if (o->nofile > 0 && set_limit(RLIMIT_NOFILE, (rlim_t)o->nofile) < 0)
		cua_child_fail(pre, STAGE_RLIMIT, NULL);
	if (o->nproc > 0 && !o->view)
		nproc_limit(o->nproc, pre);

	if (o->view) {
		pre->note = child_jail(o, pre);
		if (o->nproc > 0)
			nproc_limit(o->nproc, pre);
	} else if (o->isolate_net) {
		/* Root (or CAP_SYS_ADMIN) can unshare directly; otherwise an
		 * unprivileged user namespace may allow it. */
		if (unshare(CLONE_NEWNET) == 0 ||
		    unshare(CLONE_NEWUSER | CLONE_NEWNET) == 0)
			pre->note = ISO_NET;
	}

	if (s->dir && chdir(s->dir) < 0)
		cua_child_fail(pre, STAGE_CWD, NULL);
	/* Last: this process is a copy of the harness, whose address space may
	 * already be over the limit (its threads' stacks, a sanitizer's shadow):
	 * from here on nothing grows before execve replaces it. */
	if (o->as_bytes > 0 && set_limit(RLIMIT_AS, (rlim_t)o->as_bytes) < 0)
		cua_child_fail(pre, STAGE_RLIMIT, NULL);
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

/* A child that did not start, in sandbox.c's words: "sandbox: cannot start
 * PROG: STAGE[: STEP]: ERRNO", or the pipes or the fork that failed. */
static void start_error(const struct cua_child *c, const char *prog, char *err, size_t errlen)
{
	int stage = c->failed == CUA_CHILD_AT_PRE_EXEC ? c->failed_pre_stage
	          : c->failed == CUA_CHILD_AT_EXEC ? STAGE_EXEC
	          : c->failed == CUA_CHILD_AT_CWD ? STAGE_CWD : STAGE_FDS;

	if (c->failed == CUA_CHILD_AT_PIPES)
		cua_errf(err, errlen, "sandbox: cannot create pipes: %s", strerror(c->failed_errno));
	else if (c->failed == CUA_CHILD_AT_FORK)
		cua_errf(err, errlen, "sandbox: fork failed: %s", strerror(c->failed_errno));
	else
		cua_errf(err, errlen, "sandbox: cannot start %s: %s%s%s: %s", prog,
		         stage_name(stage), c->failed_step[0] ? ": " : "", c->failed_step,
		         strerror(c->failed_errno));
}

/* Starts argv (path resolved, envp built) as sandbox.h's child: its own
 * process group, signals at their defaults, stdin as in says, stdout and
 * stderr piped, no other descriptor but chan_w as opts->channel_fd (when
 * chan_w >= 0), a pidfd where the kernel has one, and child_setup before
 * execve. An error is in sandbox.c's words, with nothing left running. */
static enum cua_status start_child(struct cua_child *c, const char *path,
                                   const char *const *argv, char **envp,
                                   enum cua_child_io in, int chan_w, struct child_setup *s,
                                   char *err, size_t errlen)
{
	struct cua_child_keep chan = { .fd = chan_w, .as = s->opts->channel_fd };
	char why[CUA_ERR_LEN];

	cua_child_init(c);
	c->path = path;
	c->argv = (char *const *)argv;
	c->envp = envp;
	c->in = in;
	c->out = c->err = CUA_CHILD_PIPE;
	c->flags = CUA_CHILD_NEW_PGRP | CUA_CHILD_DEFAULT_SIG | CUA_CHILD_CLOSE_FDS |
	           CUA_CHILD_PIDFD;
	if (chan_w >= 0) {
		c->keep = &chan;
		c->n_keep = 1;
	}
	c->pre_exec = child_setup;
	c->pre_exec_ctx = s;
	enum cua_status st = cua_child_start(c, why, sizeof why);
	c->keep = NULL;             /* chan was ours for the start alone */
	c->n_keep = 0;
	if (st != CUA_OK)
		start_error(c, argv[0], err, errlen);
	return st;
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

/* The probe's pre_exec: the jail alone, its bits the note. */
static void probe_jail(struct cua_child_pre *pre, void *ctx)
{
	pre->note = child_jail(ctx, pre);
}

enum cua_status cua_sandbox_jail_probe(bool *user_ns, char *err, size_t errlen)
{
	static const struct cua_view_entry one[] = { { "/dev/null", NULL, 0 } };
	char *argv[] = { "a jailed child", NULL };
	struct cua_sandbox_opts o;
	struct cua_child c;
	char why[CUA_ERR_LEN];

	cua_sandbox_opts_init(&o);
	o.view = one;
	o.n_view = 1;
	cua_child_init(&c);
	c.path = NULL;              /* no program: the child ends once jailed */
	c.argv = argv;
	c.pre_exec = probe_jail;
	c.pre_exec_ctx = &o;
	enum cua_status r = cua_child_start(&c, why, sizeof why);
	if (r != CUA_OK && c.failed == CUA_CHILD_AT_PIPES)
		cua_errf(err, errlen, "sandbox: cannot create a pipe: %s", strerror(c.failed_errno));
	else if (r != CUA_OK)
		start_error(&c, argv[0], err, errlen);
	else
		cua_child_wait(&c, why, sizeof why);
	if (r == CUA_OK && !(c.note & ISO_JAIL)) {
		cua_errf(err, errlen, "sandbox: the jail's probe ended before it said how it went");
		r = CUA_E_SYSTEM;
	}
	if (user_ns)
		*user_ns = c.note & ISO_USERNS;
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
	int chan_p[2] = { -1, -1 };
	struct cua_child c;
	struct capture cap[3] = { { 0 } };
	char *scratch = NULL;
	bool timed_out = false, stopped = false;

	cua_child_init(&c);
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

	if (opts->channel_fd >= 0 && make_pipe(chan_p) < 0) {
		cua_errf(err, errlen, "sandbox: cannot create pipes: %s", strerror(errno));
		result = CUA_E_SYSTEM;
		goto out;
	}

	struct child_setup setup = {
		.opts = opts,
		.dir = tmpdir[0] ? tmpdir : opts->cwd,
	};
	double start = cua_now();
	result = start_child(&c, path, argv, envp, CUA_CHILD_NULL, chan_p[1], &setup, err,
	                     errlen);
	if (result != CUA_OK)
		goto out;
	close_fd(&chan_p[1]);

	double deadline = opts->timeout_s > 0 ? start + opts->timeout_s : 0;
	double exited_at = 0;
	bool exited = false;
	int *rfd[3] = { &c.from_out, &c.from_err, &chan_p[0] };

	for (;;) {
		if (!exited && cua_child_exited(&c)) {
			exited = true;
			exited_at = cua_now();
			kill(-c.pid, SIGKILL);  /* leftovers in its process group */
		}
		bool open_fds = false;
		for (int i = 0; i < 3; i++)
			open_fds |= *rfd[i] >= 0;
		double now = cua_now();
		if (exited && (!open_fds || now - exited_at >= GRACE_S))
			break;
		if (!exited && !stopped && opts->stop && *opts->stop) {
			stopped = true;
			cua_child_signal(&c, SIGKILL);
			continue;
		}
		if (!exited && deadline > 0 && now >= deadline) {
			timed_out = true;
			cua_child_signal(&c, SIGKILL);
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
		bool pidfd = c.pidfd >= 0 && !exited;
		if (pidfd) {
			pfd[np] = (struct pollfd){ .fd = c.pidfd, .events = POLLIN };
			idx[np++] = -1;
		}
		double wait_s = -1;
		if (exited)
			wait_s = GRACE_S - (now - exited_at);
		else if (deadline > 0)
			wait_s = deadline - now;
		if (!exited && (!pidfd || opts->stop) && (wait_s < 0 || wait_s > TICK_MS / 1e3))
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
			capture_add(&cap[i], scratch, (size_t)n);
		}
	}
	for (int i = 0; i < 3; i++)
		close_fd(rfd[i]);
	char why[CUA_ERR_LEN];
	if (cua_child_wait(&c, why, sizeof why) != CUA_OK) {
		cua_errf(err, errlen, "sandbox: waitpid failed: %s", strerror(errno));
		result = CUA_E_SYSTEM;
		goto out;
	}
	res->wall_s = cua_now() - start;

	const struct rusage *ru = &c.rusage;
	res->net_isolated = c.note & ISO_NET;
	res->jailed = c.note & ISO_JAIL;
	res->user_ns = c.note & ISO_USERNS;
	res->cpu_s = ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6 + ru->ru_stime.tv_sec +
	             ru->ru_stime.tv_usec / 1e6;
	res->maxrss_kb = ru->ru_maxrss;
	set_how(res, timed_out, stopped, c.wstatus);
	res->out = cap[0].buf;  res->out_len = cap[0].len;  res->out_truncated = cap[0].truncated;
	res->err = cap[1].buf;  res->err_len = cap[1].len;  res->err_truncated = cap[1].truncated;
	res->channel = cap[2].buf;  res->channel_len = cap[2].len;
	res->channel_truncated = cap[2].truncated;
	for (int i = 0; i < 3; i++)
		cap[i].buf = NULL;

out:
	cua_child_clear(&c);
	for (int i = 0; i < 2; i++)
		close_fd(&chan_p[i]);
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

void cua_sandbox_proc_init(struct cua_sandbox_proc *p)
{
	memset(p, 0, sizeof(*p));
	cua_child_init(&p->child);
	p->chan_r = -1;
}

void cua_sandbox_end(struct cua_sandbox_proc *p)
{
	cua_child_clear(&p->child);
	close_fd(&p->chan_r);
	if (p->tmpdir[0])
		cua_rmtree(p->tmpdir);
	cua_sandbox_proc_init(p);
}

enum cua_status cua_sandbox_spawn(const char *const *argv,
                                  const struct cua_sandbox_opts *opts,
                                  struct cua_sandbox_proc *p, char *err, size_t errlen)
{
	enum cua_status result = CUA_OK;
	char *own_env[2] = { NULL, NULL };
	char **envp = NULL;
	char *path = NULL;
	int chan_p[2] = { -1, -1 };

	cua_sandbox_proc_init(p);
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
	if (make_pipe(chan_p) < 0) {
		cua_errf(err, errlen, "sandbox: cannot create pipes: %s", strerror(errno));
		result = CUA_E_SYSTEM;
		goto out;
	}
	struct child_setup setup = {
		.opts = opts,
		.dir = p->tmpdir[0] ? p->tmpdir : opts->cwd,
	};
	/* stdin a pipe: each request is written to it */
	result = start_child(&p->child, path, argv, envp, CUA_CHILD_PIPE, chan_p[1], &setup, err,
	                     errlen);
	p->net_isolated = p->child.note & ISO_NET;
	/* what it was started with is the caller's or freed below: not kept */
	p->child.path = NULL;
	p->child.argv = NULL;
	p->child.envp = NULL;
	p->child.pre_exec = NULL;
	p->child.pre_exec_ctx = NULL;
	if (result != CUA_OK)
		goto out;
	p->chan_r = chan_p[0];
	chan_p[0] = -1;
out:
	for (int i = 0; i < 2; i++)
		close_fd(&chan_p[i]);
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

	memset(res, 0, sizeof *res);
	if (p->child.pid <= 0) {
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
	while (len > 0 && p->child.to_child >= 0) {
		ssize_t w = write(p->child.to_child, m, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		m += w;
		len -= (size_t)w;
	}
	double deadline = timeout_s > 0 ? start + timeout_s : 0;
	int *rfd[3] = { &p->child.from_out, &p->child.from_err, &p->chan_r };
	bool exited = false;
	double exited_at = 0;
	for (;;) {
		if (!exited && cua_child_exited(&p->child)) {
			exited = true;
			exited_at = cua_now();
			kill(-p->child.pid, SIGKILL);
		}
		double now = cua_now();
		bool open_fds = false;
		for (int i = 0; i < 3; i++)
			open_fds |= *rfd[i] >= 0;
		if (exited && (!open_fds || now - exited_at >= GRACE_S))
			break;
		if (!exited && deadline > 0 && now >= deadline) {
			timed_out = true;
			cua_child_signal(&p->child, SIGKILL);
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
		if (p->child.pidfd >= 0 && !exited) {
			pfd[np] = (struct pollfd){ .fd = p->child.pidfd, .events = POLLIN };
			idx[np++] = -1;
		}
		double wait_s = exited ? GRACE_S - (now - exited_at) : deadline > 0 ? deadline - now : -1;
		if (!exited && p->child.pidfd < 0 && (wait_s < 0 || wait_s > TICK_MS / 1e3))
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
			drain_now(&p->child.from_out, &cap[0], scratch);
			drain_now(&p->child.from_err, &cap[1], scratch);
			finished = true;
			break;
		}
	}
	res->wall_s = cua_now() - start;
	res->net_isolated = p->net_isolated;
	if (finished) {
		res->how = CUA_CHILD_ALIVE;
	} else {
		char why[CUA_ERR_LEN];
		cua_child_wait(&p->child, why, sizeof why);   /* failed: forgotten, wstatus 0 */
		set_how(res, timed_out, false, p->child.wstatus);
		cua_sandbox_end(p);
	}
	res->out = cap[0].buf;  res->out_len = cap[0].len;  res->out_truncated = cap[0].truncated;
	res->err = cap[1].buf;  res->err_len = cap[1].len;  res->err_truncated = cap[1].truncated;
	res->channel = cap[2].buf;  res->channel_len = cap[2].len;
	res->channel_truncated = cap[2].truncated;
	free(scratch);
	return CUA_OK;
}
