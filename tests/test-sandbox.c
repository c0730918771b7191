/* test-sandbox.c — the sandbox runs misbehaving children (tests/helpers/) and
 * classifies how each ended; the parent survives all of them. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sandbox.h"
#include "cuarena-test.h"

/* Path of a built helper program: $CUARENA_BUILD/tests/helpers/NAME. */
static const char *helper(const char *name)
{
	char rel[256];
	snprintf(rel, sizeof rel, "tests/helpers/%s", name);
	return built(rel, X_OK);
}

static struct cua_sandbox_opts opts;
static struct cua_child_result res;
static char err[CUA_ERR_LEN];

static void setup(void)
{
	cua_sandbox_opts_init(&opts);
	opts.timeout_s = 10;
	memset(&res, 0, sizeof res);
	err[0] = '\0';
}

static void teardown(void)
{
	cua_child_result_clear(&res);
}

TestSuite(sandbox, .init = setup, .fini = teardown, .timeout = 20);

/* Runs helper NAME with optional args; asserts the sandbox itself succeeded. */
static void run_helper(const char *name, const char *arg1, const char *arg2)
{
	const char *argv[] = { helper(name), arg1, arg2, NULL };
	enum cua_status st = cua_sandbox_run(argv, &opts, &res, err, sizeof err);

	cr_assert_eq(st, CUA_OK, "cua_sandbox_run(%s): %d %s", name, st, err);
	cr_assert_not_null(res.out);
	cr_assert_not_null(res.err);
	cr_assert_not_null(res.channel);
}

Test(sandbox, defaults_are_safe_and_documented)
{
	cr_expect_float_eq(opts.timeout_s, 10.0, 1e-9);     /* set by setup */
	cua_sandbox_opts_init(&opts);
	cr_expect_float_eq(opts.timeout_s, 60.0, 1e-9);
	cr_expect(opts.isolate_net);
	cr_expect(opts.private_tmp);
	cr_expect_eq(opts.channel_fd, -1);
	cr_expect_eq(opts.capture_max, 64 * 1024);
	cr_expect_null(opts.env);
}

Test(sandbox, exit_status_and_both_streams_are_captured)
{
	run_helper("exit3", NULL, NULL);
	cr_expect_eq(res.how, CUA_CHILD_NORMAL);
	cr_expect_eq(res.code, 3);
	cr_expect_str_eq(res.out, "to stdout\n");
	cr_expect_str_eq(res.err, "to stderr\n");
	cr_expect_eq(res.out_len, strlen("to stdout\n"));
	cr_expect_not(res.out_truncated);
	cr_expect_eq(res.channel_len, 0);
	cr_expect_gt(res.wall_s, 0.0);
	cr_expect_lt(res.wall_s, 5.0);
}

Test(sandbox, segfault_is_classified_as_sigsegv_and_output_before_it_kept)
{
	run_helper("segv", NULL, NULL);
	cr_expect_eq(res.how, CUA_CHILD_SIGNALED);
	cr_expect_eq(res.sig, SIGSEGV);
	cr_expect_str_eq(cua_signal_desc(res.sig), "SIGSEGV (segmentation fault)");
	cr_expect_str_eq(res.out, "about to crash\n");
}

Test(sandbox, sleeping_child_is_killed_at_the_deadline)
{
	opts.timeout_s = 0.5;
	run_helper("sleep", NULL, NULL);
	cr_expect_eq(res.how, CUA_CHILD_TIMEOUT);
	cr_expect_eq(res.sig, SIGKILL);
	cr_expect_geq(res.wall_s, 0.5);
	cr_expect_lt(res.wall_s, 1.5, "killed after %.3f s", res.wall_s);
}

static volatile sig_atomic_t stop_flag;

static void *raise_stop(void *arg)
{
	(void)arg;
	struct timespec ts = { 0, 200 * 1000000L };
	nanosleep(&ts, NULL);
	stop_flag = 1;
	return NULL;
}

Test(sandbox, sleeping_child_is_killed_when_the_caller_stops)
{
	opts.timeout_s = 10;
	stop_flag = 0;
	opts.stop = &stop_flag;
	pthread_t th;
	cr_assert_eq(pthread_create(&th, NULL, raise_stop, NULL), 0);
	run_helper("sleep", NULL, NULL);
	pthread_join(th, NULL);
	cr_expect_eq(res.how, CUA_CHILD_STOPPED);
	cr_expect_eq(res.sig, SIGKILL);
	cr_expect_geq(res.wall_s, 0.2);
	cr_expect_lt(res.wall_s, 1.0, "killed %.3f s after the start (stop at 0.2 s)",
	             res.wall_s);
}

Test(sandbox, spinning_child_is_killed_at_the_deadline)
{
	opts.timeout_s = 0.5;
	run_helper("spin", NULL, NULL);
	cr_expect_eq(res.how, CUA_CHILD_TIMEOUT);
	cr_expect_lt(res.wall_s, 1.5, "killed after %.3f s", res.wall_s);
}

Test(sandbox, cpu_rlimit_stops_a_spinning_child_with_sigxcpu_or_sigkill)
{
	opts.cpu_s = 1;
	run_helper("spin", NULL, NULL);
	cr_expect_eq(res.how, CUA_CHILD_SIGNALED);
	cr_expect(res.sig == SIGXCPU || res.sig == SIGKILL, "signal %d", res.sig);
	cr_expect_str_eq(cua_signal_desc(SIGXCPU), "SIGXCPU (CPU time limit)");
	cr_expect_lt(res.wall_s, 8.0);
}

Test(sandbox, file_size_rlimit_stops_a_growing_file_with_sigxfsz)
{
	opts.fsize_bytes = 64 * 1024;
	run_helper("bigfile", NULL, NULL);
	cr_expect_eq(res.how, CUA_CHILD_SIGNALED);
	cr_expect_eq(res.sig, SIGXFSZ);
}

Test(sandbox, nofile_rlimit_bounds_open_files)
{
	int n = -1;

	opts.nofile = 16;
	run_helper("openfiles", NULL, NULL);
	cr_assert_eq(res.how, CUA_CHILD_NORMAL);
	cr_assert_eq(sscanf(res.out, "opened %d", &n), 1, "stdout: %s", res.out);
	cr_expect_leq(n, 13, "opened %d with nofile 16", n);
	cr_expect_gt(n, 0);
}

Test(sandbox, flood_is_truncated_at_capture_max_and_the_child_completes)
{
	opts.capture_max = 4096;
	run_helper("flood", NULL, NULL);
	cr_expect_eq(res.how, CUA_CHILD_NORMAL);
	cr_expect_eq(res.code, 0);
	cr_expect_eq(res.out_len, 4096);
	cr_expect(res.out_truncated);
	cr_expect_eq(res.out[4095], 'x');
	cr_expect_eq(res.out[4096], '\0');
	cr_expect_str_eq(res.err, "done\n");
	cr_expect_not(res.err_truncated);
}

Test(sandbox, grandchild_holding_the_pipes_is_killed_with_the_group)
{
	run_helper("grandchild", NULL, NULL);
	cr_expect_eq(res.how, CUA_CHILD_NORMAL);
	cr_expect_eq(res.code, 0);
	cr_expect_lt(res.wall_s, 1.0, "took %.3f s", res.wall_s);
	cr_expect_not_null(strstr(res.out, "left grandchild"));
}

Test(sandbox, grandchild_that_escapes_the_group_does_not_hang_the_parent)
{
	run_helper("grandchild", "setsid", NULL);
	cr_expect_eq(res.how, CUA_CHILD_NORMAL);
	cr_expect_eq(res.code, 0);
	cr_expect_lt(res.wall_s, 1.0, "took %.3f s", res.wall_s);
	cr_expect_not_null(strstr(res.out, "left grandchild"));
}

Test(sandbox, channel_fd_carries_the_report_and_no_other_fd_leaks)
{
	opts.channel_fd = 5;
	run_helper("channel", "5", NULL);
	cr_expect_eq(res.how, CUA_CHILD_NORMAL);
	cr_expect_eq(res.code, 0, "stderr: %s", res.err);
	cr_expect_str_eq(res.channel, "hello");
	cr_expect_eq(res.channel_len, 5);
	cr_expect_str_eq(res.out, "0 1 2 5 \n");
}

Test(sandbox, channel_on_a_high_fd_and_channel_max_truncates)
{
	opts.channel_fd = 100;
	opts.channel_max = 3;
	run_helper("channel", "100", NULL);
	cr_expect_eq(res.code, 0, "stderr: %s", res.err);
	cr_expect_str_eq(res.channel, "hel");
	cr_expect(res.channel_truncated);
	cr_expect_str_eq(res.out, "0 1 2 100 \n");
}

Test(sandbox, channel_on_a_stdio_fd_is_refused)
{
	const char *argv[] = { "true", NULL };

	opts.channel_fd = 1;
	cr_expect_eq(cua_sandbox_run(argv, &opts, &res, err, sizeof err), CUA_E_INVALID);
	cr_expect_null(res.out);
}

Test(sandbox, environment_is_scrubbed_and_tmp_is_private_and_removed)
{
	const char *env[] = { "FOO=bar", "HOME=/nonexistent", "TMPDIR=/also-not", NULL };
	char dir[4096] = "", line[4200];
	const char *base = getenv("TMPDIR");
	char prefix[4096];

	setenv("CUARENA_SECRET", "do-not-leak", 1);
	opts.env = env;
	run_helper("env", NULL, NULL);
	cr_assert_eq(res.how, CUA_CHILD_NORMAL);
	cr_assert_eq(res.code, 0, "stderr: %s", res.err);

	cr_expect_null(strstr(res.out, "CUARENA_SECRET"));
	cr_expect_null(strstr(res.out, "env PATH="));
	cr_expect_not_null(strstr(res.out, "env FOO=bar\n"));
	cr_expect_null(strstr(res.out, "/nonexistent"));
	cr_expect_null(strstr(res.out, "/also-not"));
	cr_expect_not_null(strstr(res.out, "stdin eof\n"));
	cr_expect_not_null(strstr(res.out, "write ok\n"));

	const char *cwd = strstr(res.out, "cwd ");
	cr_assert_not_null(cwd);
	cr_assert_eq(sscanf(cwd, "cwd %4095s", dir), 1);
	snprintf(prefix, sizeof prefix, "%s/cuarena-", base && *base ? base : "/tmp");
	cr_expect_eq(strncmp(dir, prefix, strlen(prefix)), 0, "dir %s", dir);
	snprintf(line, sizeof line, "env HOME=%s\n", dir);
	cr_expect_not_null(strstr(res.out, line), "no %s in %s", line, res.out);
	snprintf(line, sizeof line, "env TMPDIR=%s\n", dir);
	cr_expect_not_null(strstr(res.out, line), "no %s in %s", line, res.out);

	/* exactly three variables: FOO, HOME, TMPDIR and nothing else */
	int n = 0;
	for (const char *p = res.out; (p = strstr(p, "env ")); p += 4)
		n++;
	cr_expect_eq(n, 3, "environment:\n%s", res.out);

	struct stat sb;
	cr_expect_neq(stat(dir, &sb), 0, "%s still exists", dir);
	cr_expect_eq(errno, ENOENT);
}

Test(sandbox, without_private_tmp_cwd_is_honoured)
{
	opts.private_tmp = false;
	opts.cwd = "/";
	opts.env = NULL;
	run_helper("env", NULL, NULL);
	cr_expect_not_null(strstr(res.out, "cwd /\n"), "stdout: %s", res.out);
	cr_expect_null(strstr(res.out, "env "), "no environment expected: %s", res.out);
}

/* Counts "if NAME" lines and whether every one is "lo". */
static int count_interfaces(const char *out, bool *only_lo)
{
	int n = 0;

	*only_lo = true;
	for (const char *p = out; (p = strstr(p, "if ")); p += 3) {
		if (p != out && p[-1] != '\n')
			continue;
		n++;
		if (strncmp(p, "if lo\n", 6) != 0)
			*only_lo = false;
	}
	return n;
}

Test(sandbox, network_isolation_is_reported_consistently)
{
	bool only_lo;

	run_helper("net", NULL, NULL);
	cr_assert_eq(res.how, CUA_CHILD_NORMAL);
	cr_assert_eq(res.code, 0, "stderr: %s", res.err);
	int n = count_interfaces(res.out, &only_lo);
	if (res.net_isolated) {
		cr_expect_eq(n, 1, "isolated but sees:\n%s", res.out);
		cr_expect(only_lo, "isolated but sees:\n%s", res.out);
	} else {
		cr_log_warn("network isolation is not available here");
	}

	/* Without isolation the child sees the host's interfaces (at least lo). */
	cua_child_result_clear(&res);
	opts.isolate_net = false;
	run_helper("net", NULL, NULL);
	cr_expect_not(res.net_isolated);
	cr_expect_geq(count_interfaces(res.out, &only_lo), 1, "%s", res.out);
}

Test(sandbox, program_without_a_slash_is_searched_in_path)
{
	const char *argv[] = { "sh", "-c", "echo $0 ok; exit 7", NULL };

	opts.timeout_s = 5;
	cr_assert_eq(cua_sandbox_run(argv, &opts, &res, err, sizeof err), CUA_OK, "%s", err);
	cr_expect_eq(res.how, CUA_CHILD_NORMAL);
	cr_expect_eq(res.code, 7);
	cr_expect_str_eq(res.out, "sh ok\n");
}

Test(sandbox, relative_program_path_is_resolved_before_the_chdir)
{
	const char *argv[] = { "tests/helpers/exit3", NULL };

	cr_assert_eq(chdir(build_dir()), 0);
	cr_assert_eq(cua_sandbox_run(argv, &opts, &res, err, sizeof err), CUA_OK, "%s", err);
	cr_expect_eq(res.code, 3);
}

Test(sandbox, missing_program_is_an_error_with_no_result)
{
	const char *argv[] = { "/nonexistent/cuarena-no-such-program", NULL };

	cr_expect_eq(cua_sandbox_run(argv, &opts, &res, err, sizeof err), CUA_E_NOT_FOUND);
	cr_expect_not_null(strstr(err, "cuarena-no-such-program"), "err: %s", err);
	cr_expect_null(res.out);
	cr_expect_null(res.err);
}

Test(sandbox, parent_survives_sigpipe_after_a_run)
{
	int p[2];

	run_helper("exit3", NULL, NULL);
	cr_assert_eq(pipe(p), 0);
	close(p[0]);
	errno = 0;
	cr_expect_eq(write(p[1], "x", 1), -1);
	cr_expect_eq(errno, EPIPE);
	close(p[1]);
}

Test(sandbox, result_free_accepts_null_and_is_idempotent)
{
	cua_child_result_clear(NULL);
	run_helper("exit3", NULL, NULL);
	cua_child_result_clear(&res);
	cua_child_result_clear(&res);
	cr_expect_null(res.out);
}

/* Parameters are copied into the test's own process: no pointers in them. */
struct sig_case {
	int sig;
	char desc[40];
};

ParameterizedTestParameters(sandbox, signal_descriptions_name_the_signal)
{
	static struct sig_case cases[] = {
		{ SIGSEGV, "SIGSEGV (segmentation fault)" },
		{ SIGKILL, "SIGKILL (killed)" },
		{ SIGABRT, "SIGABRT (aborted)" },
		{ SIGBUS, "SIGBUS (bus error)" },
		{ SIGFPE, "SIGFPE (arithmetic exception)" },
		{ SIGXCPU, "SIGXCPU (CPU time limit)" },
		{ SIGXFSZ, "SIGXFSZ (file size limit)" },
		{ SIGILL, "SIGILL (illegal instruction)" },
	};
	return cr_make_param_array(struct sig_case, cases, CUA_ARRAY_LEN(cases));
}

ParameterizedTest(struct sig_case *c, sandbox, signal_descriptions_name_the_signal)
{
	cr_expect_str_eq(cua_signal_desc(c->sig), c->desc);
}

Test(sandbox, unknown_signal_gets_a_generic_description)
{
	cr_expect_not_null(cua_signal_desc(0));
	cr_expect_not_null(cua_signal_desc(1000));
}

/* The process limit reaches the child (RLIMIT_NPROC; not enforced for root, but set). */
Test(sandbox, the_process_limit_is_set_in_the_child)
{
	const char *argv[] = {"/bin/cat", "/proc/self/limits", NULL};
	struct cua_sandbox_opts o;
	struct cua_child_result r;
	char err[CUA_ERR_LEN];
	cua_sandbox_opts_init(&o);
	o.timeout_s = 10;
	o.nproc = 777;
	cr_assert_eq(cua_sandbox_run(argv, &o, &r, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_eq(r.how, CUA_CHILD_NORMAL);
	const char *line = r.out ? strstr(r.out, "Max processes") : NULL;
	cr_expect(line && strstr(line, "777"), "limits: %s", r.out ? r.out : "");
	cua_child_result_clear(&r);
}
