/* test-run-command.c — harness/run-command.c, the one way the harness starts a
 * child with pipes (the exec agent, gnuplot): streams, environment, cwd, the
 * stage a start failed at, process groups, signals, capture with caps and a
 * time limit, and no child left unreaped. */
#include <criterion/criterion.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
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
