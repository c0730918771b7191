/* cuarena-test.h — what the Criterion suites share (SCIP's tests/include/scip_test.h
 * is the example): where the repository and the build are, a private temporary
 * folder per test made and removed by the suite's .init/.fini, and running a
 * command or the cuarena CLI with its output captured. Static functions and one
 * static buffer (tmp): each test file includes it, and make rebuilds the tests
 * when it changes. */
#ifndef CUARENA_TEST_H
#define CUARENA_TEST_H

#include <criterion/criterion.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

/* ---- where things are ----------------------------------------------------------------- */

/* $CUARENA_ROOT, the repository (make test sets it); fails the test when unset. */
static inline const char *root(void)
{
	const char *r = getenv("CUARENA_ROOT");
	cr_assert(r && *r, "CUARENA_ROOT must name the repository root (make test sets it)");
	return r;
}

/* $CUARENA_BUILD, the build folder with cuarena and the test programs (make test
 * sets it); fails the test when unset. */
static inline const char *build_dir(void)
{
	const char *b = getenv("CUARENA_BUILD");
	cr_assert(b && *b, "CUARENA_BUILD must name the build directory (make test sets it)");
	return b;
}

/* $CUARENA_BUILD/REL, asserted accessible with `mode` (access(2): X_OK for a
 * program, R_OK for a fixture): something make test builds. The path lives in
 * one of four static buffers, reused in turn. */
static inline const char *built(const char *rel, int mode)
{
	static char paths[4][4096];
	static int slot;
	char *p = paths[slot++ % 4];
	snprintf(p, sizeof(paths[0]), "%s/%s", build_dir(), rel);
	cr_assert(access(p, mode) == 0, "%s is not built (make test)", p);
	return p;
}

/* ---- a private folder per test -------------------------------------------------------- */

/* The running test's private folder, "" until tmp_make(). Criterion runs each
 * test in a process of its own, so no two tests share one. */
static char tmp[128];

/* Makes tmp, /tmp/cuarena-test-SUITE-XXXXXX (SUITE: the running suite's name).
 * A suite whose every test has one says TestSuite(name, .init = tmp_make,
 * .fini = tmp_remove); a suite with more to set up calls both from its own. A
 * test that may skip calls tmp_make() after its skip checks instead, so that a
 * skipped test leaves nothing behind (.fini = tmp_remove still cleans up). */
static inline void tmp_make(void)
{
	snprintf(tmp, sizeof(tmp), "/tmp/cuarena-test-%s-XXXXXX", criterion_current_suite->name);
	cr_assert_not_null(mkdtemp(tmp), "mkdtemp %s: %s", tmp, strerror(errno));
}

/* Removes tmp and all below it, when it was made; tmp is "" again. */
static inline void tmp_remove(void)
{
	if (tmp[0])
		cua_rmtree(tmp);
	tmp[0] = '\0';
}

/* tmp/REL, read whole (heap); fails the test when it cannot be read. noinline:
 * inlined, gcc 12 mistakes what strstr finds in the text for a pointer to the
 * local s (a false -Wdangling-pointer); unused: not every file calls it. */
__attribute__((noinline, unused)) static char *tmp_read(const char *rel)
{
	char path[4200], *s = NULL;
	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	cr_assert_eq(cua_read_file(path, 1 << 24, &s, NULL, NULL, 0), CUA_OK, "no %s", path);
	return s;
}

/* Writes text to tmp/REL, making the folders REL names; returns the file's path,
 * in one of four static buffers reused in turn. */
static inline const char *tmp_write(const char *rel, const char *text)
{
	static char paths[4][4200];
	static int slot;
	char *p = paths[slot++ % 4], err[CUA_ERR_LEN];
	snprintf(p, sizeof(paths[0]), "%s/%s", tmp, rel);
	cr_assert_eq(cua_write_file(p, text, strlen(text), err, sizeof(err)), CUA_OK, "%s", err);
	return p;
}

/* ---- running commands ----------------------------------------------------------------- */

/* Runs the shell command cmd; returns what it wrote to stdout (heap, "" when
 * nothing) and sets *status to its exit status, -1 when a signal ended it. */
static inline char *sh(const char *cmd, int *status)
{
	FILE *p = popen(cmd, "r");
	cr_assert_not_null(p, "popen %s: %s", cmd, strerror(errno));
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	cr_assert_not_null(m);
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), p)) > 0)
		fwrite(chunk, 1, n, m);
	fclose(m);
	int st = pclose(p);
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	return buf;
}

/* How run_cuarena_with runs the CLI; {0} is run_cuarena's way. */
struct cuarena_call {
	const char *env;     /* "NAME=value ..." set for the command, or NULL */
	bool quiet;          /* stderr dropped, stdout alone returned (golden files);
	                      * otherwise stderr is mixed into the output */
};

/* Runs `ENV $CUARENA_BUILD/cuarena ARGS` in the repository root (ARGS: shell
 * words, so quote paths with spaces); returns its output (heap) and sets *status
 * to its exit status, as sh() does. */
static inline char *run_cuarena_with(struct cuarena_call c, const char *args, int *status)
{
	char cmd[8192];
	int n = snprintf(cmd, sizeof(cmd), "cd '%s' && %s '%s/cuarena' %s %s", root(),
	                 c.env ? c.env : "", build_dir(), args, c.quiet ? "2>/dev/null" : "2>&1");
	cr_assert(n > 0 && (size_t)n < sizeof(cmd), "cuarena %.60s...: the command is over %zu "
	          "bytes", args, sizeof(cmd));
	return sh(cmd, status);
}

/* Runs `cuarena ARGS` in the repository root: stdout and stderr (heap), *status. */
static inline char *run_cuarena(const char *args, int *status)
{
	return run_cuarena_with((struct cuarena_call){0}, args, status);
}

#endif
