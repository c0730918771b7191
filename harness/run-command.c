/* run-command.c — one way to start a child of the harness's, with pipes
 * (run-command.h): fork, the child's streams and setup, a close-on-exec status
 * pipe that tells a failed execve from a started program, reaping. */
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
	c->to_child = c->from_out = c->from_err = -1;
}

/* Reported by the child through the status pipe when it cannot start. */
struct start_failure {
	int32_t stage;
	int32_t err;
};

static void child_fail(int fd, enum cua_child_stage stage)
{
	struct start_failure f = { .stage = (int32_t)stage, .err = errno };
	ssize_t r;

	do
		r = write(fd, &f, sizeof f);
	while (r < 0 && errno == EINTR);
	_exit(127);
}

/* In the child, between fork and execve: async-signal-safe calls only. fds[i]
 * is what stream i becomes (-1: left as it is); st_w the status pipe. */
static void child_main(const struct cua_child *c, const int fds[3], int st_w)
{
	int hi[4], st = st_w;

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
	/* Lift every fd above 2 first, so that one on 0..2 is not clobbered. */
	for (int i = 0; i < 3; i++)
		if (fds[i] >= 0 && (hi[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 3)) < 0)
			child_fail(st, CUA_CHILD_AT_FDS);
	if ((hi[3] = fcntl(st_w, F_DUPFD_CLOEXEC, 3)) < 0)
		child_fail(st, CUA_CHILD_AT_FDS);
	st = hi[3];
	for (int i = 0; i < 3; i++)
		if (fds[i] >= 0 && dup2(hi[i], i) < 0)
			child_fail(st, CUA_CHILD_AT_FDS);
	if (c->flags & CUA_CHILD_CLOSE_FDS) {
		/* everything else but the status pipe (close-on-exec) */
		if (st > 3)
			syscall(SYS_close_range, 3u, (unsigned int)st - 1, 0u);
		syscall(SYS_close_range, (unsigned int)st + 1, ~0u, 0u);
	}
	if (c->cwd && chdir(c->cwd) < 0)
		child_fail(st, CUA_CHILD_AT_CWD);
	execve(c->path, c->argv, c->envp ? c->envp : environ);
	child_fail(st, CUA_CHILD_AT_EXEC);
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
	struct start_failure f;
	ssize_t got = 0, r;

	c->pid = -1;
	c->to_child = c->from_out = c->from_err = -1;
	c->wstatus = 0;
	c->failed = CUA_CHILD_STARTED;
	c->failed_errno = 0;
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
	close_fd(&st_p[1]);
	for (int i = 0; i < 3; i++)
		if (how[i] == CUA_CHILD_PIPE)
			close_fd(&pipes[i][i == 0 ? 0 : 1]);

	/* EOF on the status pipe: execve succeeded (the pipe is close-on-exec). */
	while ((size_t)got < sizeof f) {
		r = read(st_p[0], (char *)&f + got, sizeof f - (size_t)got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += r;
	}
	if ((size_t)got == sizeof f) {
		cua_child_kill(c);
		c->failed = f.stage >= CUA_CHILD_AT_FDS && f.stage <= CUA_CHILD_AT_EXEC
		            ? (enum cua_child_stage)f.stage : CUA_CHILD_AT_FDS;
		c->failed_errno = f.err;
		cua_errf(err, errlen, "cannot start %s: %s: %s", c->argv[0],
		         f.stage >= 1 && f.stage <= 3 ? stage[f.stage] : "setup",
		         strerror(f.err));
		result = f.stage == CUA_CHILD_AT_EXEC && (f.err == ENOENT || f.err == ENOTDIR)
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

void cua_child_kill(struct cua_child *c)
{
	pid_t r;

	if (c->pid <= 0)
		return;
	if (c->flags & CUA_CHILD_NEW_PGRP)
		kill(-c->pid, SIGKILL);
	kill(c->pid, SIGKILL);
	do
		r = waitpid(c->pid, &c->wstatus, 0);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		c->wstatus = 0;     /* ECHILD: someone else reaped it */
	c->pid = -1;
}

enum cua_status cua_child_wait(struct cua_child *c, char *err, size_t errlen)
{
	if (c->pid <= 0)
		return CUA_OK;
	while (waitpid(c->pid, &c->wstatus, 0) < 0)
		if (errno != EINTR) {
			cua_errf(err, errlen, "%s: wait failed: %s", c->argv[0], strerror(errno));
			return CUA_E_SYSTEM;
		}
	c->pid = -1;
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
			cua_errf(err, errlen, "%s: poll failed: %s", c->argv[0], strerror(errno));
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
		cua_errf(err, errlen, "%s: killed after %g s", c->argv[0], timeout_s);
		return CUA_E_TIMEOUT;
	}
	return cua_child_wait(c, err, errlen);
}

void cua_child_clear(struct cua_child *c)
{
	cua_child_kill(c);
	close_fd(&c->to_child);
	close_fd(&c->from_out);
	close_fd(&c->from_err);
}
