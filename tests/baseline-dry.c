/* baseline-dry.c — library baselines called as the judge's kernel process calls them, on a
 * CPU: each baseline is built against no library (nvcc -cudart none, no -lcudnn/-lcublas)
 * and its calls are answered by this program's counting shim (baseline-dry-shim.c,
 * baseline-dry-stubs.c). For every task that lists the baseline and every shape set of it
 * (the check shapes, then the timed one, as the judge goes), cua_solve is called twice,
 * on two sets of buffers (the judge rotates among several, so nothing may be keyed by a
 * pointer); the second call at a shape must only enqueue work on the call's stream: no
 * allocation
 * (cudaMalloc, or a cudaMallocAsync the stream-ordered pool cannot serve from what it
 * holds), no free, no handle, descriptor, plan or event made or destroyed, no algorithm
 * search, no synchronisation, nothing on another stream (and no call ever works on
 * another stream). That host work is what the judge's clock, which times one call from an
 * idle GPU, counts and the process's own CUDA events do not (issue 28).
 *
 *     build/tests/baseline-dry ROOT SODIR NAME...     # NAME: cudnn/l2-001-fused
 *
 * SODIR/NAME.so is the baseline built by the Makefile's rule. NAME may also be FILE.so:TASK
 * (an object run for one task: tests/data/bl-dry/faults.cu), and a leading '!' says the
 * entry must fail by per-call work (the check's own controls). Each entry runs in a child
 * process of its own (a kernel process serves one baseline). Prints a line per (baseline,
 * task); exits 1 when any entry did not do as it should, 2 on usage. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "catalogue/catalogue.h"
#include "baseline-dry.h"

typedef int (*solve_fn)(const struct cua_tensor *, int, struct cua_tensor *, int, void *);

/* How a failure is printed: "FAIL " (a control that must fail: "found") */
static const char *fail_tag = "FAIL ";

/* The stream the kernel's process would pass: any value the shim can tell apart. */
#define CALL_STREAM ((void *)(uintptr_t)0x57ea)

/* spec's tensor at shape set k, of the dtype the task says, at a made-up address of its
 * own (tensor `slot` of buffer set `set`). */
static int make_tensor(const struct cua_task *t, int k, const struct cua_tensor_spec *spec,
                       int set, int slot, struct cua_tensor *out, char *err, size_t errlen)
{
	int64_t dims[CUA_MAX_DIMS];
	memset(out, 0, sizeof(*out));
	if (cua_task_tensor_shape(t, k, spec, dims, err, errlen) != CUA_OK)
		return 1;
	out->data = (void *)(((uintptr_t)1 << 46) + ((uintptr_t)set << 44) + ((uintptr_t)slot << 38));
	out->dtype = spec->dtype;
	out->ndim = spec->ndim;
	memcpy(out->shape, dims, sizeof(int64_t) * (size_t)spec->ndim);
	return 0;
}

/* One call at shape set k; 0 with counts filled, or the baseline's return code. */
static int call(solve_fn solve, struct cua_tensor *in, int n_in, struct cua_tensor *out,
                int n_out, int counts[SHIM_KINDS], const char *what[SHIM_KINDS])
{
	shim_call_begin(CALL_STREAM);
	int rc = solve(in, n_in, out, n_out, CALL_STREAM);
	shim_call_end(counts, what);
	return rc;
}

/* "2 pool growth (cudaMallocAsync), 1 free (cudaFree)" for the non-zero counts. */
static void describe(const int counts[SHIM_KINDS], const char *what[SHIM_KINDS], char *buf,
                     size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	for (int k = 0; k < SHIM_KINDS && at < len; k++)
		if (counts[k])
			at += (size_t)snprintf(buf + at, len - at, "%s%d %s (%s)", at ? ", " : "",
			                       counts[k], shim_kind_name((enum shim_kind)k), what[k]);
}

/* Every shape set of t through solve, twice each; prints the verdict; 0 = passed, 1 =
 * per-call work or work on another stream, 2 = anything else (a call that failed). */
static int run_task(const char *name, const struct cua_task *t, solve_fn solve)
{
	char err[CUA_ERR_LEN], buf[512];
	const int timed = cua_task_timed_shape(t);
	for (int pass = 0; pass < t->n_shapes; pass++) {
		/* the check shapes in order, then the timed one */
		const int k = pass < t->n_shapes - 1 ? pass + (pass >= timed) : timed;
		for (int n = 1; n <= 2; n++) {
			struct cua_tensor in[CUA_MAX_TENSORS], out[CUA_MAX_TENSORS];
			for (int i = 0; i < t->n_inputs + t->n_outputs; i++) {
				const bool is_in = i < t->n_inputs;
				const struct cua_tensor_spec *spec =
				    is_in ? &t->inputs[i] : &t->outputs[i - t->n_inputs];
				if (make_tensor(t, k, spec, n, i, is_in ? &in[i] : &out[i - t->n_inputs], err,
				                sizeof(err))) {
					printf("%s %s %s: %s\n", fail_tag, name, t->id, err);
					return 2;
				}
			}
			int counts[SHIM_KINDS];
			const char *what[SHIM_KINDS];
			int rc = call(solve, in, t->n_inputs, out, t->n_outputs, counts, what);
			if (rc) {
				printf("%s %s %s shape '%s': call %d returned %d\n", fail_tag, name, t->id,
				       t->shapes[k].name, n, rc);
				return 2;
			}
			if (n == 1)
				memset(counts, 0, sizeof(int) * SHIM_STREAM);   /* set-up is the first call's */
			describe(counts, what, buf, sizeof(buf));
			if (buf[0]) {
				printf("%s %s %s shape '%s': call %d at the shape: %s\n", fail_tag, name,
				       t->id, t->shapes[k].name, n, buf);
				return 1;
			}
		}
	}
	printf("ok    %s %s (%d shape sets, each twice)\n", name, t->id, t->n_shapes);
	return 0;
}

/* The child's work for one entry: load the object, run every task that lists the baseline
 * (or the one task named); the worst of run_task's codes. */
static int run_entry(const struct cua_catalogue *cat, const char *sodir, const char *entry)
{
	char path[4096], name[4096], err[CUA_ERR_LEN];
	const struct cua_task *only = NULL;
	const char *colon = strstr(entry, ".so:");
	if (colon) {
		snprintf(path, sizeof(path), "%.*s", (int)(colon + 3 - entry), entry);
		snprintf(name, sizeof(name), "%s", entry);
		if (!(only = cua_catalogue_find(cat, colon + 4, err, sizeof(err)))) {
			printf("FAIL  %s: %s\n", entry, err);
			return 2;
		}
	} else {
		snprintf(path, sizeof(path), "%s/%s.so", sodir, entry);
		snprintf(name, sizeof(name), "%s", entry);
	}
	shim_reset();
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		printf("FAIL  %s: %s\n", name, dlerror());
		return 2;
	}
	solve_fn solve = (solve_fn)dlsym(h, "cua_solve");
	if (!solve) {
		printf("FAIL  %s: no cua_solve\n", name);
		return 2;
	}
	int worst = 0, tasks = 0;
	for (int i = 0; i < cat->n; i++) {
		const struct cua_task *t = cat->tasks[i];
		bool lists = t == only;
		for (int b = 0; !only && b < t->n_baselines; b++)
			lists |= !strcmp(t->baselines[b], entry);
		if (lists) {
			int rc = run_task(name, t, solve);
			worst = rc > worst ? rc : worst;
			tasks++;
		}
	}
	if (tasks == 0) {
		printf("FAIL  %s: no task lists it\n", name);
		return 2;
	}
	return worst;
}

int main(int argc, char **argv)
{
	struct cua_catalogue cat;
	char err[CUA_ERR_LEN];
	if (argc < 4) {
		fprintf(stderr, "usage: baseline-dry ROOT SODIR NAME...  (NAME: cudnn/l2-001-fused)\n");
		return 2;
	}
	enum cua_status st = cua_catalogue_load(argv[1], &cat, err, sizeof(err));
	if (st != CUA_OK) {
		fprintf(stderr, "baseline-dry: %s\n", err);
		return 2;
	}
	int failed = 0, passed = 0;
	for (int a = 3; a < argc; a++) {
		fflush(stdout);
		pid_t pid = fork();
		if (pid < 0) {
			perror("fork");
			return 2;
		}
		const bool must_fail = argv[a][0] == '!';
		const char *entry = argv[a] + (must_fail ? 1 : 0);
		if (pid == 0) {
			if (must_fail)
				fail_tag = "found";
			int rc = run_entry(&cat, argv[2], entry);
			fflush(stdout);
			_exit(rc);
		}
		int status = 0;
		waitpid(pid, &status, 0);
		const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
		if (code == -1)
			printf("FAIL  %s: killed by signal %d\n", entry, WTERMSIG(status));
		if (must_fail && code == 1)
			printf("ok    %s: caught, as it must be\n", entry);
		else if (must_fail && code == 0)
			printf("FAIL  %s: passed, but its per-call work must be caught\n", entry);
		if (must_fail ? code == 1 : code == 0)
			passed++;
		else
			failed++;
	}
	cua_catalogue_clear(&cat);
	printf("baseline-dry: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
