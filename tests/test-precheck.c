/* test-precheck.c — what is decided before a kernel runs (harness/eval/precheck.c), on
 * real builds: legitimate CUDA links clean with the build flags, rejected kernels
 * get their verdict and advice, the SASS policy follows the task. Runs the real
 * nvcc and cuobjdump (skipped when either is missing); no GPU is needed. */
#include <criterion/criterion.h>

#include <string.h>
#include <unistd.h>

#include "catalogue/catalogue.h"
#include "eval/precheck.h"
#include "compile/sass.h"
#include "cuarena-test.h"

static struct cua_catalogue cat;
static struct cua_eval_opts opts;
static struct cua_eval ev;
static struct cua_build build;
static char err[CUA_ERR_LEN];

static void setup(void)
{
	tmp_make();
	char cache[4200];
	snprintf(cache, sizeof(cache), "%s/cache", tmp);
	cr_assert_eq(cua_catalogue_load(root(), &cat, err, sizeof(err)), CUA_OK, "%s", err);
	cua_eval_opts_init(&opts, root(), NULL, cache);
	/* these tests are about what links, not how fast: a Thrust build alone takes
	 * ~13 s on 2 cores, and the suite runs other builds beside it */
	opts.build.timeout_s = 400;
	memset(&build, 0, sizeof(build));
	cua_eval_init(&ev, "candidate");
}

static void teardown(void)
{
	cua_build_clear(&build);
	cua_eval_clear(&ev);
	cua_catalogue_clear(&cat);
	tmp_remove();
}

TestSuite(precheck, .init = setup, .fini = teardown, .timeout = 600);

static void need_tools(void)
{
	if (!cua_find_nvcc())
		cr_skip_test("no nvcc: the precheck tests build real kernels");
	if (!cua_find_cuobjdump(cua_find_nvcc()))
		cr_skip_test("no cuobjdump (make deps installs it): the SASS check needs it");
}

/* Prechecks `src` (text) as a candidate of task `name`; the verdict lands in ev. */
static void precheck_text(const char *name, const char *src, enum cua_subject_kind kind)
{
	char path[4200];
	const struct cua_task *t = cua_catalogue_find(&cat, name, err, sizeof(err));
	cr_assert_not_null(t, "%s", err);
	snprintf(path, sizeof(path), "%s/cand-%d.cu", tmp, (int)getpid());
	cr_assert_eq(cua_write_file(path, src, strlen(src), err, sizeof(err)), CUA_OK);
	cua_build_clear(&build);
	cua_eval_clear(&ev);
	cua_eval_init(&ev, "candidate");
	enum cua_status st = cua_precheck(t, path, kind, kind == CUA_SUBJECT_BASELINE
	                                  ? "cublas/sgemm" : "candidate", &opts, NULL, &build,
	                                  &ev, err, sizeof(err));
	cr_assert_eq(st, CUA_OK, "%s", err);
}

static void precheck_file(const char *name, const char *rel)
{
	char path[4200];
	const struct cua_task *t = cua_catalogue_find(&cat, name, err, sizeof(err));
	cr_assert_not_null(t, "%s", err);
	snprintf(path, sizeof(path), "%s/%s", root(), rel);
	enum cua_status st = cua_precheck(t, path, CUA_SUBJECT_CANDIDATE, "candidate", &opts,
	                                  NULL, &build, &ev, err, sizeof(err));
	cr_assert_eq(st, CUA_OK, "%s", err);
}

#define SOLVE_RELU(kernel_call) \
	"int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,\n" \
	"              int n_out, cudaStream_t s)\n" \
	"{\n" \
	"\tint64_t n = cua_numel(&in[0]);\n" \
	"\t" kernel_call "<<<(unsigned)((n + 255) / 256), 256, 0, s>>>(\n" \
	"\t\t(const float *)in[0].data, (float *)out[0].data, n);\n" \
	"\treturn cudaGetLastError() != cudaSuccess;\n" \
	"}\n"

/* issue 14: nvcc's host stub of a non-static __device__ function calls exit. */
Test(precheck, a_non_static_device_helper_links_clean)
{
	need_tools();
	precheck_text("relu",
		"#include \"cuarena.h\"\n"
		"__device__ float relu_one(float v) { return fmaxf(v, 0.f); }\n"
		"__global__ void relu_kernel(const float *x, float *y, int64_t n)\n"
		"{\n"
		"\tint64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;\n"
		"\tif (i < n) y[i] = relu_one(x[i]);\n"
		"}\n" SOLVE_RELU("relu_kernel"), CUA_SUBJECT_CANDIDATE);
	cr_expect_eq(ev.verdict, CUA_VERDICT_OK, "%s: %s", cua_verdict_name(ev.verdict),
	             ev.message);
}

Test(precheck, cub_device_reduce_with_nvtx_and_iostream_links_clean)
{
	need_tools();
	precheck_file("mseloss", "tests/gpu/candidates/mse-loss-cub-device-reduce.cu");
	cr_expect_eq(ev.verdict, CUA_VERDICT_OK, "%s: %s", cua_verdict_name(ev.verdict),
	             ev.message);
}

Test(precheck, thrust_on_a_stream_links_clean)
{
	need_tools();
	precheck_file("vector-add", "tests/gpu/candidates/vector-add-thrust.cu");
	cr_expect_eq(ev.verdict, CUA_VERDICT_OK, "%s: %s", cua_verdict_name(ev.verdict),
	             ev.message);
}

Test(precheck, a_cua_solve_declared_without_the_header_is_not_exported_and_says_why)
{
	need_tools();
	precheck_text("relu",
		"#include <cuda_runtime.h>\n"
		"extern \"C\" int cua_solve(const void *in, int n_in, void *out, int n_out,\n"
		"                          cudaStream_t s) { return 0; }\n", CUA_SUBJECT_CANDIDATE);
	cr_expect_eq(ev.verdict, CUA_VERDICT_LOAD_ERROR, "%s", cua_verdict_name(ev.verdict));
	cr_expect(strstr(ev.message, "include \"cuarena.h\""), "%s", ev.message);
}

Test(precheck, a_forbidden_symbol_comes_with_advice)
{
	need_tools();
	precheck_text("relu",
		"#include \"cuarena.h\"\n"
		"#include <cstdlib>\n"
		"__global__ void relu_kernel(const float *x, float *y, int64_t n)\n"
		"{\n"
		"\tint64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;\n"
		"\tif (i < n) y[i] = fmaxf(x[i], 0.f);\n"
		"}\n"
		"int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,\n"
		"              int n_out, cudaStream_t s)\n"
		"{\n"
		"\tif (n_in != 1) exit(1);\n"
		"\tint64_t n = cua_numel(&in[0]);\n"
		"\trelu_kernel<<<(unsigned)((n + 255) / 256), 256, 0, s>>>(\n"
		"\t\t(const float *)in[0].data, (float *)out[0].data, n);\n"
		"\treturn 0;\n"
		"}\n", CUA_SUBJECT_CANDIDATE);
	cr_expect_eq(ev.verdict, CUA_VERDICT_FORBIDDEN_SYMBOL);
	cr_expect(strstr(ev.message, "exit") && strstr(ev.message, "return non-zero"),
	          "%s", ev.message);
}

/* In a strict task precision is judged by value in the judge (judge/accuracy.h):
 * the scan does not refuse a tensor-core kernel before it runs (a split-precision
 * one is as accurate as fp32), it names the instruction that explains a failure. */
Test(precheck, tf32_tensor_cores_in_a_strict_task_run_and_are_named_for_the_verdict)
{
	need_tools();
	precheck_file("square-matrix-multiplication", "tests/cheats/tf32-wmma-in-strict.cu");
	cr_expect_eq(ev.verdict, CUA_VERDICT_OK, "%s: %s", cua_verdict_name(ev.verdict),
	             ev.message);
	cr_expect(strstr(ev.sass_note, "HMMA.1684.F32.TF32 in kernel sgemm_tf32_kernel"), "%s",
	          ev.sass_note);
}

Test(precheck, the_same_tf32_kernel_is_fine_where_tf32_is_allowed)
{
	need_tools();
	precheck_file("sgemm-tf32", "tests/cheats/tf32-wmma-in-strict.cu");
	cr_expect_eq(ev.verdict, CUA_VERDICT_OK, "%s: %s", cua_verdict_name(ev.verdict),
	             ev.message);
}

Test(precheck, split_bf16_is_forbidden_even_where_tf32_is_allowed)
{
	need_tools();
	precheck_file("sgemm-tf32", "tests/cheats/split-bf16-sgemm-in-strict.cu");
	cr_expect_eq(ev.verdict, CUA_VERDICT_FORBIDDEN_INSTRUCTION);
	cr_expect(strstr(ev.message, "HMMA.16816.F32.BF16"), "%s", ev.message);
}

Test(precheck, a_library_baseline_is_trusted_with_its_instructions)
{
	need_tools();
	char *src = NULL;
	char path[4200];
	snprintf(path, sizeof(path), "%s/tests/cheats/tf32-wmma-in-strict.cu", root());
	cr_assert_eq(cua_read_file(path, 1 << 20, &src, NULL, err, sizeof(err)), CUA_OK);
	precheck_text("square-matrix-multiplication", src, CUA_SUBJECT_BASELINE);
	free(src);
	cr_expect_eq(ev.verdict, CUA_VERDICT_OK, "%s: %s", cua_verdict_name(ev.verdict),
	             ev.message);
}

Test(precheck, the_sass_scan_is_cached_beside_the_build)
{
	need_tools();
	precheck_file("square-matrix-multiplication", "tests/gpu/candidates/sgemm-tiled.cu");
	cr_assert_eq(ev.verdict, CUA_VERDICT_OK, "%s", ev.message);
	char cached[4200];
	size_t n = strlen(build.so_path);
	snprintf(cached, sizeof(cached), "%.*s.sass", (int)(n - 3), build.so_path);
	cr_assert_eq(access(cached, R_OK), 0, "no %s", cached);
	/* the cache is what the next check reads: a finding planted there is reported */
	const char planted[] = "cuarena-sass 1 1 100 1\nHMMA.1684.F32.TF32 _Z1kv\n";
	cr_assert_eq(cua_write_file(cached, planted, sizeof planted - 1, err, sizeof(err)),
	             CUA_OK);
	cua_build_clear(&build);
	cua_eval_clear(&ev);
	cua_eval_init(&ev, "candidate");
	precheck_file("square-matrix-multiplication", "tests/gpu/candidates/sgemm-tiled.cu");
	cr_expect_eq(ev.verdict, CUA_VERDICT_OK, "%s", ev.message);
	cr_expect(strstr(ev.sass_note, "HMMA.1684.F32.TF32"), "the planted finding: %s",
	          ev.sass_note);
	cr_expect(ev.cache_hit);
}

/* Hidden visibility: the object exports cua_solve and nothing else of its own. */
Test(precheck, only_what_the_header_exports_is_exported)
{
	need_tools();
	if (system("command -v nm >/dev/null 2>&1") != 0)
		cr_skip_test("no nm (binutils) to list the exports");
	precheck_text("relu",
		"#include \"cuarena.h\"\n"
		"__device__ float relu_one(float v) { return fmaxf(v, 0.f); }\n"
		"float host_helper(float v) { return v; }\n"
		"__global__ void relu_kernel(const float *x, float *y, int64_t n)\n"
		"{\n"
		"\tint64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;\n"
		"\tif (i < n) y[i] = relu_one(x[i]);\n"
		"}\n" SOLVE_RELU("relu_kernel"), CUA_SUBJECT_CANDIDATE);
	cr_assert_eq(ev.verdict, CUA_VERDICT_OK, "%s", ev.message);
	char cmd[CUA_PATH_BUF + 64], all[4096] = "";
	int status;
	snprintf(cmd, sizeof(cmd), "nm -D --defined-only '%s'", build.so_path);
	char *out = sh(cmd, &status);
	int functions = 0;
	for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		char addr[64], type[8], name[400];
		if (sscanf(line, "%63s %7s %399s", addr, type, name) == 3 && !strcmp(type, "T")) {
			functions++;
			strncat(all, name, sizeof(all) - strlen(all) - 2);
			strcat(all, " ");
		}
	}
	free(out);
	cr_expect_eq(functions, 1, "exported functions: %s", all);
	cr_expect(strstr(all, "cua_solve "), "%s", all);
}

/* nvdisasm takes ~2 s: a run's candidate build pays it on the CPU, not under the
 * GPU lock (cua_eval_built then reads the cached scan). */
Test(precheck, building_a_candidate_lists_its_sass_before_the_gpu_is_taken)
{
	need_tools();
	char path[4200], cached[4200];
	const struct cua_task *t = cua_catalogue_find(&cat, "square-matrix-multiplication", err,
	                                              sizeof(err));
	cr_assert_not_null(t);
	snprintf(path, sizeof(path), "%s/tests/gpu/candidates/sgemm-tiled.cu", root());
	cr_assert_eq(cua_build_candidate(t, path, &opts, &build, err, sizeof(err)), CUA_OK, "%s",
	             err);
	cr_assert(build.ok);
	size_t n = strlen(build.so_path);
	snprintf(cached, sizeof(cached), "%.*s.sass", (int)(n - 3), build.so_path);
	cr_expect_eq(access(cached, R_OK), 0, "no scan at %s", cached);
}

/* A bound the build meets is the verdict's message, named (issue 25): the
 * agent learns that its kernel met a limit, and which. */
Test(precheck, a_bound_the_build_meets_is_the_verdicts_message)
{
	if (!cua_find_nvcc())
		cr_skip_test("no nvcc: the precheck tests build real kernels");
	static const char bomb[] =
		"#include \"cuarena.h\"\n"
		"template <int N, class T> struct X {\n"
		"\ttypedef X<N - 1, X<N, T> > a;\n"
		"\ttypedef X<N - 1, X<N + 1, T> > b;\n"
		"\tstatic const long v = a::v + b::v;\n"
		"};\n"
		"template <class T> struct X<0, T> { static const long v = 1; };\n"
		"long bomb = X<24, int>::v;\n"
		"extern \"C\" int cua_solve(const struct cua_tensor *in, int n_in,\n"
		"    struct cua_tensor *out, int n_out, cudaStream_t s) { return (int)bomb; }\n";
	opts.build.mem_bytes = 512L << 20;
	precheck_text("relu", bomb, CUA_SUBJECT_CANDIDATE);
	cr_expect_eq(ev.verdict, CUA_VERDICT_COMPILE_ERROR, "%s", cua_verdict_name(ev.verdict));
	cr_expect_str_eq(ev.message, "the build ran out of memory: each compiler process may use "
	                 "512 MiB of address space");
	opts.build.mem_bytes = 0;
	opts.build.cpu_s = 1;
	precheck_text("relu", bomb, CUA_SUBJECT_CANDIDATE);
	cr_expect_eq(ev.verdict, CUA_VERDICT_COMPILE_TIMEOUT, "%s", cua_verdict_name(ev.verdict));
	cr_expect_str_eq(ev.message, "the build used up its CPU time: 1 s for each compiler process");
}
