/* test-examples.c — examples/, the kernels a newcomer runs first: each says in its
 * header which task it is for and the verdict it should get, and each builds and
 * passes the checks made before a kernel runs (`cuarena eval TASK FILE
 * --compile-only`, from a cold cache), so the README's first command works as
 * written. Needs nvcc and cuobjdump (skipped without them); their verdicts on a
 * GPU are the H200's to show (tests/gpu/ and the commands in each header). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <string.h>

#include "compile/compile.h"
#include "compile/sass.h"
#include "cuarena-test.h"

TestSuite(examples, .fini = tmp_remove, .timeout = 600);

/* The verdicts an example may promise: a correct kernel, or one the judge rejects by
 * value (the off-by-one, the fp16 one). */
static const char *const promised[] = {"ok", "wrong_output"};

/* The value of the header line "// KEY: value" of src into buf ("" when absent). */
static void header(const char *src, const char *key, char *buf, size_t len)
{
	char tag[64];
	snprintf(tag, sizeof(tag), "// %s: ", key);
	const char *p = strstr(src, tag);
	buf[0] = '\0';
	if (p)
		snprintf(buf, len, "%.*s", (int)strcspn(p + strlen(tag), "\n"), p + strlen(tag));
}

/* The .cu files of examples/, sorted, into names (at most max); returns how many. */
static int examples(char names[][256], int max)
{
	char dir[4200];
	snprintf(dir, sizeof(dir), "%s/examples", root());
	DIR *d = opendir(dir);
	cr_assert_not_null(d, "no %s", dir);
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d)) && n < max) {
		size_t l = strlen(de->d_name);
		if (l > 3 && !strcmp(de->d_name + l - 3, ".cu"))
			snprintf(names[n++], 256, "%s", de->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof(names[0]), (int (*)(const void *, const void *))strcmp);
	return n;
}

Test(examples, each_says_its_task_and_the_verdict_it_should_get)
{
	char names[32][256], err[CUA_ERR_LEN];
	int n = examples(names, 32);
	cr_assert_geq(n, 3, "a fast kernel, a wrong one and an imprecise one");
	bool seen_ok = false, seen_wrong = false;
	for (int i = 0; i < n; i++) {
		char path[4500], task[64], expect[64], *src = NULL;
		snprintf(path, sizeof(path), "%s/examples/%.255s", root(), names[i]);
		cr_assert_eq(cua_read_file(path, 1 << 20, &src, NULL, err, sizeof(err)), CUA_OK,
		             "%s", err);
		header(src, "task", task, sizeof(task));
		header(src, "expect", expect, sizeof(expect));
		cr_expect(task[0], "%s: no '// task:' line", names[i]);
		bool known = false;
		for (size_t k = 0; k < CUA_ARRAY_LEN(promised); k++)
			known = known || !strcmp(expect, promised[k]);
		cr_expect(known, "%s: '// expect: %s' is not a verdict an example promises", names[i],
		          expect);
		seen_ok = seen_ok || !strcmp(expect, "ok");
		seen_wrong = seen_wrong || !strcmp(expect, "wrong_output");
		/* the header says how to run it, with its own name */
		char cmd[400];
		snprintf(cmd, sizeof(cmd), "build/cuarena eval %s examples/%.255s", task, names[i]);
		cr_expect(strstr(src, cmd) != NULL, "%s: its header does not show '%s'", names[i], cmd);
		free(src);
	}
	cr_expect(seen_ok && seen_wrong, "at least one right and one wrong example");
}

Test(examples, each_builds_and_passes_the_checks_before_a_run)
{
	if (!cua_find_nvcc())
		cr_skip_test("no nvcc: the examples are built by the real nvcc");
	if (!cua_find_cuobjdump(cua_find_nvcc()))
		cr_skip_test("no cuobjdump (make deps installs it): the SASS check needs it");
	tmp_make();
	char names[32][256], err[CUA_ERR_LEN];
	int n = examples(names, 32);
	for (int i = 0; i < n; i++) {
		char path[4500], task[64], env[4300], args[600], *src = NULL;
		int status;
		snprintf(path, sizeof(path), "%s/examples/%.255s", root(), names[i]);
		cr_assert_eq(cua_read_file(path, 1 << 20, &src, NULL, err, sizeof(err)), CUA_OK);
		header(src, "task", task, sizeof(task));
		free(src);
		/* a cache of its own: the example is really built here */
		snprintf(env, sizeof(env), "CUARENA_CACHE='%s/cache'", tmp);
		snprintf(args, sizeof(args), "eval %s examples/%.255s --compile-only", task, names[i]);
		char *out = run_cuarena_with((struct cuarena_call){.env = env}, args, &status);
		cr_expect_eq(status, 0, "cuarena %s: exit %d\n%s", args, status, out);
		cr_expect(strstr(out, "symbols and SASS pass the checks; not run (--compile-only)") !=
		          NULL, "cuarena %s:\n%s", args, out);
		free(out);
	}
}

Test(examples, the_readme_starts_with_one_of_them)
{
	char path[4200], err[CUA_ERR_LEN], *readme = NULL;
	snprintf(path, sizeof(path), "%s/README.md", root());
	cr_assert_eq(cua_read_file(path, 1 << 20, &readme, NULL, err, sizeof(err)), CUA_OK, "%s",
	             err);
	/* the first command of the README's first code block */
	const char *block = strstr(readme, "```sh\n");
	cr_assert_not_null(block, "README.md has no sh block");
	const char *eval = strstr(block, "build/cuarena eval ");
	cr_assert(eval && eval < strstr(block + 6, "```"), "the first block runs no eval");
	char task[64], file[256];
	cr_assert_eq(sscanf(eval, "build/cuarena eval %63s %255s", task, file), 2);
	cr_expect(!strncmp(file, "examples/", 9), "the first command evaluates %s, not an example",
	          file);
	snprintf(path, sizeof(path), "%s/%s", root(), file);
	cr_expect_eq(access(path, R_OK), 0, "the README's first command names %s: not there",
	             file);
	free(readme);
}
