/* run-command.c — the one way to start a child of the harness's (run-command.h):
 * fork, the child's streams, kept descriptors and the caller's pre_exec, a
 * close-on-exec status pipe that tells a failed start from a started program,
 * a pidfd, reaping with the resources used. */
#include "run-command.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

void cua_child_init(struct cua_child *c)
{
	memset(c, 0, sizeof(*c));
	c->in_fd = c->out_fd = c->err_fd = -1;
	c->pid = -1;
	c->to_child = c->from_out = c->from_err = c->pidfd = -1;
}

/* Sent by the child through the status pipe: pre_exec's note once it has
 * returned (stage CUA_CHILD_STARTED), and a failure to start (any other stage,
 * the last message). EOF without a failure: execve succeeded (the pipe is
 * close-on-exec) or, with no path, the child ended after pre_exec. */
struct start_report {
	int32_t stage;
	int32_t err;
	int32_t pre_stage;
	uint32_t note;
	char step[CUA_CHILD_STEP_LEN];
};

static void send_report(int fd, const struct start_report *r)
{
	ssize_t n;

	do
		n = write(fd, r, sizeof *r);   /* under PIPE_BUF: all of it or nothing */
	while (n < 0 && errno == EINTR);
}

static void fail_report(int fd, enum cua_child_stage stage, int pre_stage, const char *step,
                        unsigned note) __attribute__((noreturn));
static void fail_report(int fd, enum cua_child_stage stage, int pre_stage, const char *step,
                        unsigned note)
{
	struct start_report r = { .stage = (int32_t)stage, .err = errno,
	                          .pre_stage = pre_stage, .note = note };

	if (step) {
		size_t n = strlen(step);
		if (n >= sizeof r.step)
			n = sizeof r.step - 1;
		memcpy(r.step, step, n);
	}
	send_report(fd, &r);
	_exit(127);
}

static void child_fail(int fd, enum cua_child_stage stage, unsigned note)
	__attribute__((noreturn));
static void child_fail(int fd, enum cua_child_stage stage, unsigned note)
{
	fail_report(fd, stage, 0, NULL, note);
}

void cua_child_fail(struct cua_child_pre *pre, int stage, const char *step)
{
	fail_report(pre->status_fd, CUA_CHILD_AT_PRE_EXEC, stage, step, pre->note);
}

/* Closes every descriptor from 3 up but the n in keep (sorted here; those
 * below 3 ignored). Where the kernel has no close_range, one by one up to the
 * descriptor limit. */
static void close_others(unsigned int *keep, int n)
{
	unsigned int from = 3;

	for (int i = 1; i < n; i++)                 /* insertion sort: n is small */
		for (int j = i; j > 0 && keep[j - 1] > keep[j]; j--) {
			unsigned int t = keep[j];
			keep[j] = keep[j - 1];
			keep[j - 1] = t;
		}
	for (int i = 0; i <= n; i++) {
		unsigned int last = i < n ? keep[i] - 1 : ~0U;
		if (i < n && keep[i] < from) {
			if (keep[i] + 1 > from)
				from = keep[i] + 1;
			continue;                           /* below 3, or a repeat */
		}
		if (last >= from && syscall(SYS_close_range, from, last, 0u) != 0) {
			long max = sysconf(_SC_OPEN_MAX);
			if (max < 0 || max > 1 << 20)
				max = 1 << 20;
			for (long fd = from; fd <= (long)last && fd < max; fd++)
				close((int)fd);
		}
		if (i < n)
			from = keep[i] + 1;
	}
}

/* In the child, between fork and execve: async-signal-safe calls only. fds[i]
 * is what stream i becomes (-1: left as it is); st_w the status pipe. */
static void child_main(const struct cua_child *c, const int fds[3], int st_w)
{
	int hi[3], khi[CUA_CHILD_KEEP_MAX], st = st_w;
	unsigned int kept[CUA_CHILD_KEEP_MAX + 1];
	int floor = 3, n = c->n_keep;
	struct cua_child_pre pre = { .note = 0 };

	if (c->flags & CUA_CHILD_NEW_PGRP)
		setpgid(0, 0);
	if (c->flags & CUA_CHILD_DEFAULT_SIG) {
		struct sigaction dfl = { .sa_handler = SIG_DFL };
		sigset_t none;
		for (int sig = 1; sig < NSIG; sig++)
			if (sig != SIGKILL && sig != SIGSTOP)
				sigaction(sig, &dfl, NULL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
	}
	/* Lift every fd above the numbers about to be filled first (0..2 and the
	 * kept ones' targets), so that none is clobbered before it is moved. */
	for (int i = 0; i < n; i++) {
		int as = c->keep[i].as >= 0 ? c->keep[i].as : c->keep[i].fd;
		if (as >= floor)
			floor = as + 1;
	}
	for (int i = 0; i < 3; i++)
		if (fds[i] >= 0 && (hi[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, floor)) < 0)
			child_fail(st, CUA_CHILD_AT_FDS, 0);
	for (int i = 0; i < n; i++)
		if ((khi[i] = fcntl(c->keep[i].fd, F_DUPFD_CLOEXEC, floor)) < 0)
			child_fail(st, CUA_CHILD_AT_FDS, 0);
	if ((st = fcntl(st_w, F_DUPFD_CLOEXEC, floor)) < 0)
		child_fail(st_w, CUA_CHILD_AT_FDS, 0);
	for (int i = 0; i < 3; i++)
		if (fds[i] >= 0 && dup2(hi[i], i) < 0)
			child_fail(st, CUA_CHILD_AT_FDS, 0);
	for (int i = 0; i < n; i++) {   /* dup2 leaves the new one open across execve */
		int as = c->keep[i].as >= 0 ? c->keep[i].as : c->keep[i].fd;
		if (dup2(khi[i], as) < 0)
			child_fail(st, CUA_CHILD_AT_FDS, 0);
		kept[i] = (unsigned int)as;
	}
	kept[n] = (unsigned int)st;     /* the status pipe: close-on-exec */
	if (c->flags & CUA_CHILD_CLOSE_FDS)
		close_others(kept, n + 1);
	if (c->pre_exec) {
		pre.status_fd = st;
		c->pre_exec(&pre, c->pre_exec_ctx);
		send_report(st, &(struct start_report){ .stage = CUA_CHILD_STARTED,
		                                        .note = pre.note });
	}
	if (c->cwd && chdir(c->cwd) < 0)
		child_fail(st, CUA_CHILD_AT_CWD, pre.note);
	if (!c->path)
		_exit(0);
	execve(c->path, c->argv, c->envp ? c->envp : environ);
	child_fail(st, CUA_CHILD_AT_EXEC, pre.note);
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

/* Reads the status pipe to its end or to a failure; true (and *r) on one. */
static bool read_reports(int fd, struct cua_child *c, struct start_report *r)
{
	for (;;) {
		size_t got = 0;
		while (got < sizeof *r) {
			ssize_t n = read(fd, (char *)r + got, sizeof *r - got);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				return false;
			got += (size_t)n;
		}
		c->note = r->note;
		if (r->stage != CUA_CHILD_STARTED)
			return true;
	}
}

enum cua_status cua_child_start(struct cua_child *c, char *err, size_t errlen)
{
	static const char *const stage[] = { "", "setting up its pipes",
	                                     "changing directory", "execve" };
	const enum cua_child_io how[3] = { c->in, c->out, c->err };
	const int given[3] = { c->in_fd, c->out_fd, c->err_fd };
	int pipes[3][2] = { { -1, -1 }, { -1, -1 }, { -1, -1 } }, st_p[2] = { -1, -1 };
	int devnull[3] = { -1, -1, -1 }, fds[3] = { -1, -1, -1 };
	enum cua_status result = CUA_E_SYSTEM;
	struct start_report f;

	CUA_ASSERT(c->n_keep >= 0 && c->n_keep <= CUA_CHILD_KEEP_MAX);
	for (int i = 0; i < c->n_keep; i++)
		CUA_ASSERT(c->keep[i].fd >= 0 && (c->keep[i].as > 2 ||
		           (c->keep[i].as == -1 && c->keep[i].fd > 2)));
	c->pid = -1;
	c->to_child = c->from_out = c->from_err = c->pidfd = -1;
	c->note = 0;
	c->wstatus = 0;
	memset(&c->rusage, 0, sizeof c->rusage);
	c->failed = CUA_CHILD_STARTED;
	c->failed_errno = 0;
	c->failed_pre_stage = 0;
	c->failed_step[0] = '\0';
	for (int i = 0; i < 3; i++) {
		if (how[i] == CUA_CHILD_PIPE && pipe2(pipes[i], O_CLOEXEC) < 0)
			goto pipe_failed;
		if (how[i] == CUA_CHILD_NULL &&
		    (devnull[i] = open("/dev/null", (i == 0 ? O_RDONLY : O_WRONLY) | O_CLOEXEC)) < 0)
			goto pipe_failed;
		fds[i] = how[i] == CUA_CHILD_PIPE ? pipes[i][i == 0 ? 0 : 1]
		       : how[i] == CUA_CHILD_NULL ? devnull[i]
		       : how[i] == CUA_CHILD_FD ? given[i] : -1;
	}
	if (pipe2(st_p, O_CLOEXEC) < 0)
		goto pipe_failed;
	c->pid = fork();
	if (c->pid < 0) {
		c->failed = CUA_CHILD_AT_FORK;
		c->failed_errno = errno;
		cua_errf(err, errlen, "fork failed: %s", strerror(errno));
		goto out;
	}
	if (c->pid == 0)
		child_main(c, fds, st_p[1]);   /* never returns */
	if (c->flags & CUA_CHILD_NEW_PGRP)
		setpgid(c->pid, c->pid);       /* also done by the child; whichever is first */
	if (c->flags & CUA_CHILD_PIDFD)
		c->pidfd = open_pidfd(c->pid);
	close_fd(&st_p[1]);
	for (int i = 0; i < 3; i++)
		if (how[i] == CUA_CHILD_PIPE)
			close_fd(&pipes[i][i == 0 ? 0 : 1]);

	if (read_reports(st_p[0], c, &f)) {
		cua_child_kill(c);
		c->failed = f.stage >= CUA_CHILD_AT_FDS && f.stage <= CUA_CHILD_AT_PRE_EXEC &&
		            f.stage != CUA_CHILD_AT_PIPES && f.stage != CUA_CHILD_AT_FORK
		            ? (enum cua_child_stage)f.stage : CUA_CHILD_AT_FDS;
		c->failed_errno = f.err;
		if (c->failed == CUA_CHILD_AT_PRE_EXEC) {
			c->failed_pre_stage = f.pre_stage;
			f.step[sizeof f.step - 1] = '\0';
			memcpy(c->failed_step, f.step, sizeof f.step);
			cua_errf(err, errlen, "cannot start %s: %s: %s", c->argv[0],
			         f.step[0] ? f.step : "its pre-exec setup", strerror(f.err));
		} else {
			cua_errf(err, errlen, "cannot start %s: %s: %s", c->argv[0],
			         stage[c->failed], strerror(f.err));
		}
		result = c->failed == CUA_CHILD_AT_EXEC && (f.err == ENOENT || f.err == ENOTDIR)
		         ? CUA_E_NOT_FOUND : CUA_E_SYSTEM;
		goto out;
	}
	c->to_child = pipes[0][1];
	c->from_out = pipes[1][0];
	c->from_err = pipes[2][0];
	pipes[0][1] = pipes[1][0] = pipes[2][0] = -1;
	if (c->flags & CUA_CHILD_NONBLOCK) {
		int ours[3] = { c->to_child, c->from_out, c->from_err };
		for (int i = 0; i < 3; i++)
			if (ours[i] >= 0)
				fcntl(ours[i], F_SETFL, fcntl(ours[i], F_GETFL) | O_NONBLOCK);
	}
	result = CUA_OK;
	goto out;
pipe_failed:
	c->failed = CUA_CHILD_AT_PIPES;
	c->failed_errno = errno;
	cua_errf(err, errlen, "cannot create pipes: %s", strerror(errno));
out:
	for (int i = 0; i < 3; i++) {
		close_fd(&pipes[i][0]);
		close_fd(&pipes[i][1]);
		close_fd(&devnull[i]);
	}
	close_fd(&st_p[0]);
	close_fd(&st_p[1]);
	return result;
}

bool cua_child_exited(const struct cua_child *c)
{
	siginfo_t si;

	if (c->pid <= 0)
		return true;
	memset(&si, 0, sizeof si);
	while (waitid(P_PID, (id_t)c->pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0) {
		if (errno == EINTR)
			continue;
		return kill(c->pid, 0) < 0 && errno == ESRCH;   /* SIGCHLD ignored: gone */
	}
	return si.si_pid == c->pid;
}

void cua_child_signal(const struct cua_child *c, int sig)
{
	if (c->pid <= 0)
		return;
	if (c->flags & CUA_CHILD_NEW_PGRP)
		kill(-c->pid, sig);
	kill(c->pid, sig);
}

/* What names c in an error after its start: argv[0], unless the caller has
 * let argv go (NULL). */
static const char *child_name(const struct cua_child *c)
{
	return c->argv && c->argv[0] ? c->argv[0] : "child";
}

/* wait4 for c, EINTR retried; on success or not, c is no longer running. */
static pid_t reap(struct cua_child *c)
{
	pid_t r;

	do
		r = wait4(c->pid, &c->wstatus, 0, &c->rusage);
	while (r < 0 && errno == EINTR);
	if (r < 0) {
		c->wstatus = 0;     /* ECHILD: someone else reaped it */
		memset(&c->rusage, 0, sizeof c->rusage);
	}
	c->pid = -1;
	close_fd(&c->pidfd);
	return r;
}

void cua_child_kill(struct cua_child *c)
{
	if (c->pid <= 0)
		return;
	cua_child_signal(c, SIGKILL);
	reap(c);
}

enum cua_status cua_child_wait(struct cua_child *c, char *err, size_t errlen)
{
	if (c->pid <= 0)
		return CUA_OK;
	const char *name = child_name(c);
	if (reap(c) < 0) {
		int e = errno;
		cua_errf(err, errlen, "%s: wait failed: %s", name, strerror(e));
		errno = e;
		return CUA_E_SYSTEM;
	}
	return CUA_OK;
}

/* Appends n bytes to b, keeping at most cap of them; *cut when some were not. */
static void keep(struct cua_buf *b, const char *p, size_t n, size_t cap, bool *cut)
{
	if (!b)
		return;             /* a stream the caller does not want: not a cut */
	size_t room = b->len < cap ? cap - b->len : 0;
	if (n > room) {
		*cut = true;
		n = room;
	}
	if (b->len + n + 1 > b->cap) {
		size_t ncap = b->cap ? b->cap : 1024;
		while (ncap < b->len + n + 1)
			ncap *= 2;
		b->s = cua_xrealloc(b->s, ncap);
		b->cap = ncap;
	}
	memcpy(b->s + b->len, p, n);
	b->len += n;
	b->s[b->len] = '\0';
}

enum cua_status cua_child_capture(struct cua_child *c, size_t cap, double timeout_s,
                                  struct cua_buf *out, struct cua_buf *errout,
                                  bool *truncated, bool *timed_out, char *err,
                                  size_t errlen)
{
	double deadline = timeout_s > 0 ? cua_now() + timeout_s : 0;
	struct cua_buf *to[2] = { out, errout };
	int *fd[2] = { &c->from_out, &c->from_err };
	char chunk[65536];

	*truncated = *timed_out = false;
	for (int i = 0; i < 2; i++)
		keep(to[i], "", 0, cap, truncated);   /* NUL-terminated even when empty */
	close_fd(&c->to_child);
	while (c->from_out >= 0 || c->from_err >= 0) {
		struct pollfd p[2];
		nfds_t n = 0;
		int which[2];
		for (int i = 0; i < 2; i++)
			if (*fd[i] >= 0) {
				which[n] = i;
				p[n++] = (struct pollfd){ .fd = *fd[i], .events = POLLIN };
			}
		int wait_ms = -1;
		if (deadline) {
			double left = deadline - cua_now();
			if (left <= 0) {
				*timed_out = true;
				break;
			}
			wait_ms = (int)(left * 1e3) + 1;
		}
		int k = poll(p, n, wait_ms);
		if (k < 0 && errno != EINTR) {
			cua_errf(err, errlen, "%s: poll failed: %s", child_name(c), strerror(errno));
			cua_child_clear(c);
			return CUA_E_SYSTEM;
		}
		for (nfds_t i = 0; k > 0 && i < n; i++) {
			if (!p[i].revents)
				continue;
			ssize_t r = read(p[i].fd, chunk, sizeof chunk);
			if (r < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (r <= 0)
				close_fd(fd[which[i]]);
			else
				keep(to[which[i]], chunk, (size_t)r, cap, truncated);
		}
	}
	close_fd(&c->from_out);
	close_fd(&c->from_err);
	while (!*timed_out && !cua_child_exited(c)) {
		if (deadline && cua_now() >= deadline) {
			*timed_out = true;
			break;
		}
		struct timespec ts = { 0, 5 * 1000000L };
		nanosleep(&ts, NULL);
	}
	if (*timed_out) {
		cua_child_kill(c);
		cua_errf(err, errlen, "%s: killed after %g s", child_name(c), timeout_s);
		return CUA_E_TIMEOUT;
	}
	return cua_child_wait(c, err, errlen);
}

void cua_child_clear(struct cua_child *c)
{
	cua_child_kill(c);
	close_fd(&c->pidfd);
	close_fd(&c->to_child);
	close_fd(&c->from_out);
	close_fd(&c->from_err);
}
