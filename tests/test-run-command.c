/* test-run-command.c — harness/run-command.c, the one way the harness starts a
 * child (the exec agent, gnuplot, sandbox.c): streams, environment, cwd, the
 * stage a start failed at, process groups, signals, capture with caps and a
 * time limit, and no child left unreaped; pre_exec and its failures, kept
 * descriptors, the pidfd, the resources used. */
#include <criterion/criterion.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run-command.h"

static char err[CUA_ERR_LEN];

/* A child running `sh -c script`; streams set by the caller. */
static void sh(struct cua_child *c, char **argv, const char *script)
{
	cua_child_init(c);
	argv[0] = "sh";
	argv[1] = "-c";
	argv[2] = (char *)script;
	argv[3] = NULL;
	c->path = "/bin/sh";
	c->argv = argv;
}

/* Runs script with stdout and stderr captured (cap bytes each, timeout_s). */
static enum cua_status capture(const char *script, unsigned flags, size_t cap, double timeout_s,
                               struct cua_buf *out, struct cua_buf *errout, bool *truncated,
                               bool *timed_out, int *wstatus)
{
	struct cua_child c;
	char *argv[4];
	sh(&c, argv, script);
	c.in = c.out = c.err = CUA_CHILD_PIPE;
	c.flags = flags;
	cr_assert_eq(cua_child_start(&c, err, sizeof err), CUA_OK, "%s", err);
	enum cua_status st = cua_child_capture(&c, cap, timeout_s, out, errout, truncated,
	                                       timed_out, err, sizeof err);
	cr_assert_eq(c.pid, -1, "the child is reaped");
	cr_assert_eq(c.from_out, -1);
	cr_assert_eq(c.from_err, -1);
	*wstatus = c.wstatus;
	return st;
}

Test(run_command, captures_stdout_and_stderr_apart_and_the_exit_status)
{
	struct cua_buf out = {0}, eo = {0};
	bool cut, late;
	int ws;
	cr_assert_eq(capture("echo to-out; echo to-err >&2; exit 3", 0, 1024, 10, &out, &eo, &cut,
	                     &late, &ws), CUA_OK, "%s", err);
	cr_assert_str_eq(out.s, "to-out\n");
	cr_assert_str_eq(eo.s, "to-err\n");
	cr_assert(!cut && !late);
	cr_assert(WIFEXITED(ws) && WEXITSTATUS(ws) == 3);
	free(out.s);
	free(eo.s);
}

Test(run_command, keeps_at_most_cap_bytes_of_a_stream_and_says_so)
{
	struct cua_buf out = {0};
	bool cut, late;
	int ws;
	cr_assert_eq(capture("head -c 200000 /dev/zero | tr '\\0' x", 0, 1000, 10, &out, NULL,
	                     &cut, &late, &ws), CUA_OK, "%s", err);
	cr_assert_eq(out.len, 1000);
	cr_assert_eq(strspn(out.s, "x"), 1000);
	cr_assert(cut, "the cut is reported");
	cr_assert(WIFEXITED(ws) && WEXITSTATUS(ws) == 0, "the child was read to its end");
	free(out.s);
}

Test(run_command, drops_a_stream_the_caller_does_not_keep_without_calling_it_cut)
{
	struct cua_buf out = {0};
	bool cut, late;
	int ws;
	cr_assert_eq(capture("echo kept; head -c 100000 /dev/zero >&2", 0, 1024, 10, &out, NULL,
	                     &cut, &late, &ws), CUA_OK, "%s", err);
	cr_assert_str_eq(out.s, "kept\n");
	cr_assert(!cut, "stderr was read to its end and dropped, as asked");
	free(out.s);
}

Test(run_command, kills_a_child_past_its_time_limit_with_its_process_group)
{
	struct cua_buf out = {0};
	bool cut, late;
	int ws;
	char pidfile[] = "/tmp/cuarena-rc-XXXXXX";
	int fd = mkstemp(pidfile);
	cr_assert(fd >= 0);
	close(fd);
	char script[256];
	/* a grandchild that holds the pipe too: killed with the group */
	snprintf(script, sizeof script, "sleep 30 & echo $! > %s; echo started; wait", pidfile);
	double t0 = cua_now();
	cr_assert_eq(capture(script, CUA_CHILD_NEW_PGRP, 1024, 0.5, &out, NULL, &cut, &late, &ws),
	             CUA_E_TIMEOUT);
	cr_assert(late);
	cr_assert_lt(cua_now() - t0, 5.0);
	cr_assert(WIFSIGNALED(ws) && WTERMSIG(ws) == SIGKILL);
	cr_assert_str_eq(out.s, "started\n");
	FILE *f = fopen(pidfile, "r");
	int gpid = 0;
	cr_assert(f && fscanf(f, "%d", &gpid) == 1);
	fclose(f);
	unlink(pidfile);
	/* the grandchild was reparented and is reaped by init: give it a moment */
	bool gone = false;
	for (int i = 0; i < 100 && !gone; i++) {
		gone = kill(gpid, 0) < 0 && errno == ESRCH;
		if (!gone)
			usleep(20000);
	}
	cr_assert(gone, "the grandchild %d died with its group", gpid);
	free(out.s);
}

Test(run_command, a_missing_program_is_not_found_at_execve_and_nothing_is_left)
{
	struct cua_child c;
	char *argv[] = {"no-such-program", NULL};
	cua_child_init(&c);
	c.path = "/nonexistent/no-such-program";
	c.argv = argv;
	c.in = c.out = c.err = CUA_CHILD_PIPE;
	cr_assert_eq(cua_child_start(&c, err, sizeof err), CUA_E_NOT_FOUND);
	cr_assert_eq(c.failed, CUA_CHILD_AT_EXEC);
	cr_assert_eq(c.failed_errno, ENOENT);
	cr_assert_str_eq(err, "cannot start no-such-program: execve: No such file or directory");
	cr_assert_eq(c.pid, -1);
	cr_assert(c.to_child < 0 && c.from_out < 0 && c.from_err < 0);
	cr_assert(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD, "no child left");
}

Test(run_command, a_missing_cwd_fails_at_chdir)
{
	struct cua_child c;
	char *argv[4];
	sh(&c, argv, "true");
	c.cwd = "/nonexistent-dir";
	cr_assert_eq(cua_child_start(&c, err, sizeof err), CUA_E_SYSTEM);
	cr_assert_eq(c.failed, CUA_CHILD_AT_CWD);
	cr_assert_str_eq(err, "cannot start sh: changing directory: No such file or directory");
}

Test(run_command, gives_the_child_its_cwd_environment_and_a_null_stdin)
{
	struct cua_child c;
	char *argv[4], *envp[] = {"ONLY=this", NULL};
	struct cua_buf out = {0};
	bool cut, late;
	sh(&c, argv, "pwd; echo \"$ONLY.$HOME\"; cat; echo end");
	c.cwd = "/";
	c.envp = envp;
	c.in = CUA_CHILD_NULL;
	c.out = CUA_CHILD_PIPE;
	cr_assert_eq(cua_child_start(&c, err, sizeof err), CUA_OK, "%s", err);
	cr_assert_eq(c.to_child, -1);
	cr_assert_eq(cua_child_capture(&c, 1024, 10, &out, NULL, &cut, &late, err, sizeof err),
	             CUA_OK, "%s", err);
	cr_assert_str_eq(out.s, "/\nthis.\nend\n");
	free(out.s);
}

Test(run_command, sends_stdout_and_stderr_to_a_descriptor_of_the_callers)
{
	char path[] = "/tmp/cuarena-rc-XXXXXX";
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	struct cua_child c;
	char *argv[4];
	sh(&c, argv, "echo one; echo two >&2");
	c.out = c.err = CUA_CHILD_FD;
	c.out_fd = c.err_fd = fd;
	cr_assert_eq(cua_child_start(&c, err, sizeof err), CUA_OK, "%s", err);
	cr_assert_eq(cua_child_wait(&c, err, sizeof err), CUA_OK, "%s", err);
	cr_assert(WIFEXITED(c.wstatus) && WEXITSTATUS(c.wstatus) == 0);
	char buf[64] = "";
	cr_assert_eq(pread(fd, buf, sizeof buf - 1, 0), 8);
	cr_assert_str_eq(buf, "one\ntwo\n");
	close(fd);
	unlink(path);
}

Test(run_command, default_signals_undo_an_ignored_sigpipe_and_close_fds_leaves_only_0_to_2)
{
	struct sigaction ign = {.sa_handler = SIG_IGN}, old;
	sigaction(SIGPIPE, &ign, &old);
	int stray = open("/dev/null", O_RDONLY);   /* not close-on-exec */
	cr_assert(stray > 2);
	char script[200];
	snprintf(script, sizeof script,
	         "m=$(sed -n 's/^SigIgn:[[:space:]]*//p' /proc/self/status);"
	         " [ $(( 0x$m >> 12 & 1 )) = 1 ] && echo ignored || echo default;"
	         " [ -e /proc/self/fd/%d ] && echo stray || echo closed", stray);
	struct cua_buf a = {0}, b = {0};
	bool cut, late;
	int ws;
	cr_assert_eq(capture(script, 0, 1024, 10, &a, NULL, &cut, &late, &ws), CUA_OK, "%s", err);
	cr_assert_eq(capture(script, CUA_CHILD_DEFAULT_SIG | CUA_CHILD_CLOSE_FDS, 1024, 10, &b,
	                     NULL, &cut, &late, &ws), CUA_OK, "%s", err);
	sigaction(SIGPIPE, &old, NULL);
	close(stray);
	cr_assert_str_eq(a.s, "ignored\nstray\n", "without the flags: as inherited");
	cr_assert_str_eq(b.s, "default\nclosed\n");
	free(a.s);
	free(b.s);
}

Test(run_command, exited_leaves_the_child_to_kill_and_kill_reaps_it)
{
	struct cua_child c;
	char *argv[4];
	sh(&c, argv, "exit 0");
	c.flags = CUA_CHILD_NEW_PGRP;
	cr_assert_eq(cua_child_start(&c, err, sizeof err), CUA_OK, "%s", err);
	pid_t pid = c.pid;
	for (int i = 0; i < 500 && !cua_child_exited(&c); i++)
		usleep(10000);
	cr_assert(cua_child_exited(&c));
	cr_assert_eq(kill(pid, 0), 0, "still a zombie: its id stays ours");
	cua_child_kill(&c);
	cr_assert_eq(c.pid, -1);
	cr_assert(WIFEXITED(c.wstatus) && WEXITSTATUS(c.wstatus) == 0);
	cr_assert(kill(pid, 0) < 0 && errno == ESRCH, "reaped");
	cua_child_clear(&c);   /* nothing left: a no-op */
}

/* ---- what sandbox.c starts its children with ---------------------------- */

/* pre_exec hooks of the tests below (async-signal-safe, as the contract asks) */
static void hook_limits(struct cua_child_pre *pre, void *ctx)
{
	struct rlimit rl = { .rlim_cur = 50, .rlim_max = 50 };
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		cua_child_fail(pre, 1, "setting RLIMIT_NOFILE");
	if (chdir("/") < 0)
		cua_child_fail(pre, 2, "chdir /");
	pre->note = *(const unsigned *)ctx;
}

static void hook_fails(struct cua_child_pre *pre, void *ctx)
{
	pre->note = 5;
	errno = EACCES;
	cua_child_fail(pre, 7, ctx);
}

Test(run_command, pre_exec_runs_in_the_child_before_chdir_and_execve_and_its_note_reaches_us)
{
	struct cua_child c;
	char *argv[4];
	unsigned note = 42;
	struct cua_buf out = {0};
	bool cut, late;
	sh(&c, argv, "ulimit -n; pwd");
	c.out = CUA_CHILD_PIPE;
	c.cwd = "/tmp";
	c.pre_exec = hook_limits;
	c.pre_exec_ctx = &note;
	cr_assert_eq(cua_child_start(&c, err, sizeof err), CUA_OK, "%s", err);
	cr_assert_eq(c.note, 42);
	cr_assert_eq(cua_child_capture(&c, 1024, 10, &out, NULL, &cut, &late, err, sizeof err),
	             CUA_OK, "%s", err);
	cr_assert_str_eq(out.s, "50\n/tmp\n", "the limit held and cwd was applied after the hook");
	struct rlimit rl;
	cr_assert(getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != 50, "ours is untouched");
	free(out.s);
}

Test(run_command, a_failing_pre_exec_is_reported_with_its_stage_step_and_errno)
{
	struct cua_child c;
	char *argv[4];
	sh(&c, argv, "echo never");
	c.out = CUA_CHILD_PIPE;
	c.pre_exec = hook_fails;
	c.pre_exec_ctx = "binding /usr/include";
	cr_assert_eq(cua_child_start(&c, err, sizeof err), CUA_E_SYSTEM);
	cr_assert_eq(c.failed, CUA_CHILD_AT_PRE_EXEC);
	cr_assert_eq(c.failed_pre_stage, 7);
	cr_assert_eq(c.failed_errno, EACCES);
	cr_assert_str_eq(c.failed_step, "binding /usr/include");
	cr_assert_eq(c.note, 5, "the note made before the failure still arrives");
	cr_assert_str_eq(err, "cannot start sh: binding /usr/include: Permission denied");
	cr_assert_eq(c.pid, -1);
	cr_assert(c.from_out < 0);
	cr_assert(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD, "no child left");
}

Test(run_command, a_pre_exec_step_longer_than_its_room_is_cut_not_overrun)
{
	struct cua_child c;
	char *argv[4], step[400];
	memset(step, 's', sizeof step - 1);
	step[sizeof step - 1] = '\0';
	sh(&c, argv, "true");
	c.pre_exec = hook_fails;
	c.pre_exec_ctx = step;
	cr_assert_eq(cua_child_start(&c, err, sizeof err), CUA_E_SYSTEM);
	cr_assert_eq(strlen(c.failed_step), CUA_CHILD_STEP_LEN - 1);
	cr_assert_eq(strspn(c.failed_step, "s"), CUA_CHILD_STEP_LEN - 1);
}

Test(run_command, without_a_path_the_child_ends_after_pre_exec_with_status_0)
{
	struct cua_child c;
	char *argv[] = {"a probe", NULL};
	unsigned note = 9;
	cua_child_init(&c);
	c.argv = argv;
	c.pre_exec = hook_limits;
	c.pre_exec_ctx = &note;
	cr_assert_eq(cua_child_start(&c, err, sizeof err), CUA_OK, "%s", err);
	cr_assert_eq(c.note, 9);
	cr_assert_eq(cua_child_wait(&c, err, sizeof err), CUA_OK, "%s", err);
	cr_assert(WIFEXITED(c.wstatus) && WEXITSTATUS(c.wstatus) == 0);
}

Test(run_command, kept_descriptors_reach_the_child_under_their_numbers_and_the_rest_are_closed)
{
	int p[2], same, stray = 9;    /* sh redirects 0..9 alone: a free one of those */
	while (stray > 2 && fcntl(stray, F_GETFD) >= 0)
		stray--;
	cr_assert_gt(stray, 2, "a descriptor of 3..9 is free");
	int null = open("/dev/null", O_RDONLY);
	cr_assert_eq(dup2(null, stray), stray);     /* not kept: its number is */
	if (null != stray)
		close(null);
	cr_assert(pipe2(p, O_CLOEXEC) == 0);
	same = open("/dev/null", O_RDONLY | O_CLOEXEC);     /* kept as itself */
	int other = open("/dev/null", O_RDONLY);            /* not kept, not close-on-exec */
	cr_assert(same > 2 && other > 2);
	struct cua_child_keep keep[] = { { .fd = p[1], .as = stray }, { .fd = same, .as = -1 } };
	char script[300];
	snprintf(script, sizeof script,
	         "echo report >&%d; [ -e /proc/self/fd/%d ] && echo same;"
	         " [ -e /proc/self/fd/%d ] && echo leak || echo closed", stray, same, other);
	struct cua_child c;
	char *argv[4];
	struct cua_buf out = {0};
	bool cut, late;
	sh(&c, argv, script);
	c.out = CUA_CHILD_PIPE;
	c.flags = CUA_CHILD_CLOSE_FDS;
	c.keep = keep;
	c.n_keep = 2;
	cr_assert_eq(cua_child_start(&c, err, sizeof err), CUA_OK, "%s", err);
	close(p[1]);
	cr_assert_eq(cua_child_capture(&c, 1024, 10, &out, NULL, &cut, &late, err, sizeof err),
	             CUA_OK, "%s", err);
	char buf[64] = "";
	cr_assert_eq(read(p[0], buf, sizeof buf - 1), 7);
	cr_assert_str_eq(buf, "report\n", "the pipe was dup'ed over the child's %d", stray);
	cr_assert_str_eq(out.s, "same\nclosed\n");
	cr_assert(fcntl(stray, F_GETFD) >= 0, "ours are untouched");
	close(p[0]);
	close(same);
	close(other);
	close(stray);
	free(out.s);
}

Test(run_command, a_pidfd_is_readable_once_the_child_ends_and_closed_when_it_is_reaped)
{
	struct cua_child c;
	char *argv[4];
	sh(&c, argv, "read line");
	c.in = CUA_CHILD_PIPE;
	cr_assert_eq(cua_child_start(&c, err, sizeof err), CUA_OK, "%s", err);
	cr_assert_eq(c.pidfd, -1, "none unless asked for");
	cua_child_clear(&c);

	sh(&c, argv, "read line");
	c.in = CUA_CHILD_PIPE;
	c.flags = CUA_CHILD_PIDFD;
	cr_assert_eq(cua_child_start(&c, err, sizeof err), CUA_OK, "%s", err);
	cr_assert_geq(c.pidfd, 0, "this kernel has pidfd_open");
	cr_assert(fcntl(c.pidfd, F_GETFD) & FD_CLOEXEC);
	int pidfd = c.pidfd;
	struct pollfd pf = {.fd = pidfd, .events = POLLIN};
	cr_assert_eq(poll(&pf, 1, 100), 0, "not readable while it runs");
	close(c.to_child);            /* its read sees EOF: it ends */
	c.to_child = -1;
	cr_assert_eq(poll(&pf, 1, 10000), 1);
	cr_assert(pf.revents & POLLIN);
	cr_assert(cua_child_exited(&c));
	cr_assert_eq(cua_child_wait(&c, err, sizeof err), CUA_OK, "%s", err);
	cr_assert_eq(c.pidfd, -1);
	cr_assert(fcntl(pidfd, F_GETFD) < 0 && errno == EBADF, "closed");
}

Test(run_command, reaping_fills_the_resources_the_child_used)
{
	struct cua_child c;
	char *argv[4];
	sh(&c, argv, "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done");
	cr_assert_eq(cua_child_start(&c, err, sizeof err), CUA_OK, "%s", err);
	cr_assert_eq(cua_child_wait(&c, err, sizeof err), CUA_OK, "%s", err);
	double cpu = c.rusage.ru_utime.tv_sec + c.rusage.ru_utime.tv_usec / 1e6 +
	             c.rusage.ru_stime.tv_sec + c.rusage.ru_stime.tv_usec / 1e6;
	cr_assert_gt(cpu, 0.0);
	cr_assert_gt(c.rusage.ru_maxrss, 0);

	sh(&c, argv, "sleep 30");
	cr_assert_eq(cua_child_start(&c, err, sizeof err), CUA_OK, "%s", err);
	cr_assert_eq(c.rusage.ru_maxrss, 0, "cleared by the start");
	cua_child_kill(&c);
	cr_assert_gt(c.rusage.ru_maxrss, 0, "a killed child's too");
}

Test(run_command, signal_leaves_the_child_to_reap_and_wait_forgets_one_reaped_elsewhere)
{
	struct cua_child c;
	char *argv[4];
	sh(&c, argv, "sleep 30");
	cr_assert_eq(cua_child_start(&c, err, sizeof err), CUA_OK, "%s", err);
	cua_child_signal(&c, SIGTERM);
	cr_assert_gt(c.pid, 0, "not reaped");
	cr_assert_eq(cua_child_wait(&c, err, sizeof err), CUA_OK, "%s", err);
	cr_assert(WIFSIGNALED(c.wstatus) && WTERMSIG(c.wstatus) == SIGTERM);

	sh(&c, argv, "exit 4");
	cr_assert_eq(cua_child_start(&c, err, sizeof err), CUA_OK, "%s", err);
	cr_assert_eq(waitpid(c.pid, NULL, 0), c.pid);   /* behind its back */
	errno = 0;
	cr_assert_eq(cua_child_wait(&c, err, sizeof err), CUA_E_SYSTEM);
	cr_assert_eq(errno, ECHILD);
	cr_assert_eq(c.pid, -1, "forgotten: never killed later by its old id");
	cr_assert_eq(c.wstatus, 0);
	cr_assert_str_eq(err, "sh: wait failed: No child processes");
}

Test(run_command, a_child_whose_argv_is_gone_is_named_child_in_later_errors)
{
	struct cua_child c;
	char *argv[4];
	sh(&c, argv, "exit 0");
	cr_assert_eq(cua_child_start(&c, err, sizeof err), CUA_OK, "%s", err);
	c.argv = NULL;                /* a staying child outlives what it was started with */
	cr_assert_eq(waitpid(c.pid, NULL, 0), c.pid);
	cr_assert_eq(cua_child_wait(&c, err, sizeof err), CUA_E_SYSTEM);
	cr_assert_str_eq(err, "child: wait failed: No child processes");
}
