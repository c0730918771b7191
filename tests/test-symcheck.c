/* test-symcheck.c — the static check flags forbidden imports and interposing
 * definitions in fixture .so files (tests/data/so/), and rejects non-ELF input. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <elf.h>
#include <string.h>
#include <unistd.h>

#include "compile/symcheck.h"
#include "cuarena-test.h"

/* Path of a built fixture: $CUARENA_BUILD/tests/so/NAME.so. */
static const char *so_path(const char *name)
{
	char rel[256];
	snprintf(rel, sizeof rel, "tests/so/%s.so", name);
	return built(rel, R_OK);
}

static struct cua_symcheck_result res;
static char err[CUA_ERR_LEN];

static void setup(void)
{
	memset(&res, 0, sizeof res);
	err[0] = '\0';
}

TestSuite(symcheck, .init = setup, .fini = tmp_remove, .timeout = 20);

/* The kept violation for symbol, or NULL. */
static const struct cua_violation *find_violation(const char *symbol)
{
	int kept = res.n < CUA_SYMCHECK_MAX ? res.n : CUA_SYMCHECK_MAX;

	for (int i = 0; i < kept; i++)
		if (!strcmp(res.v[i].symbol, symbol))
			return &res.v[i];
	return NULL;
}

static void check_fixture(const char *name, const struct cua_symcheck_policy *policy)
{
	enum cua_status st = cua_symcheck_file(so_path(name), policy, &res, err, sizeof err);
	cr_assert_eq(st, CUA_OK, "%s: %d %s", name, st, err);
}

/* A scratch file in tmp (made on first use), holding len bytes of buf. */
static const char *scratch_file(const char *name, const void *buf, size_t len)
{
	static char path[512];

	if (!tmp[0])
		tmp_make();
	snprintf(path, sizeof path, "%s/%s", tmp, name);
	FILE *f = fopen(path, "wb");
	cr_assert_not_null(f);
	cr_assert_eq(fwrite(buf, 1, len, f), len);
	cr_assert_eq(fclose(f), 0);
	return path;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f, "%s", path);
	cr_assert_eq(fseek(f, 0, SEEK_END), 0);
	long n = ftell(f);
	cr_assert_gt(n, 0);
	rewind(f);
	char *buf = malloc((size_t)n);
	cr_assert_not_null(buf);
	cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

Test(symcheck, clean_candidate_passes_and_has_an_entry)
{
	check_fixture("clean", NULL);
	cr_expect_eq(res.n, 0, "first: %s (%s)", res.v[0].symbol, res.v[0].reason);
	cr_expect(res.has_entry);
}

Test(symcheck, nvcc_style_imports_pass)
{
	check_fixture("cuda-ok", NULL);
	cr_expect_eq(res.n, 0, "first: %s (%s)", res.v[0].symbol, res.v[0].reason);
	cr_expect(res.has_entry);
}

Test(symcheck, object_without_cua_solve_has_no_entry)
{
	check_fixture("no-entry", NULL);
	cr_expect_eq(res.n, 0);
	cr_expect_not(res.has_entry);
}

/* Parameters are copied into the test's own process: no pointers in them. */
struct fixture_case {
	char so[32];
	char symbol[48];
	char reason[80];
};

ParameterizedTestParameters(symcheck, forbidden_fixture_names_symbol_and_reason)
{
	static struct fixture_case cases[] = {
		{ "dlopen", "dlopen", "dynamic loading is forbidden" },
		{ "dlopen", "dlsym", "dynamic loading is forbidden" },
		{ "spawn", "fork", "starting processes is forbidden" },
		{ "spawn", "system", "starting processes is forbidden" },
		{ "fopen", "fopen", "file system access is forbidden" },
		{ "socket", "socket", "network access is forbidden" },
		{ "thread", "pthread_create", "threads are forbidden" },
		{ "interposer", "clock_gettime", "defining clock_gettime would interpose on the harness" },
		{ "interposer", "cudaEventElapsedTime",
		  "defining cudaEventElapsedTime would interpose on the harness" },
		{ "l2attr", "cudaStreamSetAttribute",
		  "persisting-L2 / device-limit changes are forbidden" },
		{ "cublas", "cublasSgemm_v2", "cuBLAS is not allowed in this task" },
		{ "cublas", "cublasCreate_v2", "cuBLAS is not allowed in this task" },
		{ "driver", "cuLaunchKernel", "the CUDA driver API is not available to candidates" },
		{ "driver", "cudaLaunchHostFunc", "host callbacks are forbidden" },
	};
	return cr_make_param_array(struct fixture_case, cases, CUA_ARRAY_LEN(cases));
}

ParameterizedTest(struct fixture_case *c, symcheck, forbidden_fixture_names_symbol_and_reason)
{
	check_fixture(c->so, NULL);
	cr_expect(res.has_entry, "%s defines cua_solve", c->so);
	const struct cua_violation *v = find_violation(c->symbol);
	cr_assert_not_null(v, "%s: no violation for %s (n=%d)", c->so, c->symbol, res.n);
	cr_expect_str_eq(v->reason, c->reason);
}

Test(symcheck, fixtures_report_only_their_own_violations)
{
	check_fixture("dlopen", NULL);
	cr_expect_eq(res.n, 2);
	check_fixture("interposer", NULL);
	cr_expect_eq(res.n, 2);
	check_fixture("fopen", NULL);
	/* fopen, fread and fclose: only fopen has a specific reason */
	cr_expect_not_null(find_violation("fopen"));
	cr_expect_null(find_violation("_ITM_registerTMCloneTable"));
	cr_expect_null(find_violation("__cxa_finalize"));
}

Test(symcheck, cublas_passes_when_the_task_allows_it)
{
	struct cua_symcheck_policy p = { .allow_cublas = true };

	check_fixture("cublas", &p);
	cr_expect_eq(res.n, 0, "first: %s (%s)", res.v[0].symbol, res.v[0].reason);
	cr_expect(res.has_entry);
}

Test(symcheck, garbage_file_is_a_parse_error_naming_the_file)
{
	char junk[4096];

	for (size_t i = 0; i < sizeof junk; i++)
		junk[i] = (char)(i * 131 + 7);
	const char *path = scratch_file("garbage.so", junk, sizeof junk);
	cr_expect_eq(cua_symcheck_file(path, NULL, &res, err, sizeof err), CUA_E_PARSE);
	cr_expect_not_null(strstr(err, path), "err: %s", err);
}

Test(symcheck, empty_and_tiny_files_are_parse_errors)
{
	const char *path = scratch_file("empty.so", "", 0);
	cr_expect_eq(cua_symcheck_file(path, NULL, &res, err, sizeof err), CUA_E_PARSE);
	cr_expect_not_null(strstr(err, path), "err: %s", err);

	path = scratch_file("magic.so", ELFMAG, SELFMAG);
	cr_expect_eq(cua_symcheck_file(path, NULL, &res, err, sizeof err), CUA_E_PARSE);
	cr_expect_not_null(strstr(err, path), "err: %s", err);
}

Test(symcheck, truncated_shared_object_is_a_parse_error)
{
	size_t len;
	char *buf = slurp(so_path("clean"), &len);
	size_t cuts[] = { 16, 64, 100, 1000, len / 2, len - 1 };

	for (size_t i = 0; i < CUA_ARRAY_LEN(cuts); i++) {
		const char *path = scratch_file("truncated.so", buf, cuts[i]);
		cr_expect_eq(cua_symcheck_file(path, NULL, &res, err, sizeof err), CUA_E_PARSE,
		             "cut at %zu of %zu", cuts[i], len);
		cr_expect_not_null(strstr(err, "truncated.so"), "err: %s", err);
	}
	free(buf);
}

Test(symcheck, missing_file_is_not_found)
{
	cr_expect_eq(cua_symcheck_file("/nonexistent/x.so", NULL, &res, err, sizeof err),
	             CUA_E_NOT_FOUND);
	cr_expect_not_null(strstr(err, "/nonexistent/x.so"));
}

/* Without section headers the symbols are found through PT_DYNAMIC. */
static void check_without_sections(const char *name, int want_n, bool want_entry)
{
	size_t len;
	char *buf = slurp(so_path(name), &len);
	Elf64_Ehdr eh;

	memcpy(&eh, buf, sizeof eh);
	eh.e_shoff = 0;
	eh.e_shnum = 0;
	eh.e_shstrndx = 0;
	memcpy(buf, &eh, sizeof eh);
	const char *path = scratch_file("nosections.so", buf, len);
	free(buf);
	cr_assert_eq(cua_symcheck_file(path, NULL, &res, err, sizeof err), CUA_OK, "%s", err);
	cr_expect_eq(res.n, want_n, "%s", name);
	cr_expect_eq(res.has_entry, want_entry, "%s", name);
}

Test(symcheck, symbols_are_found_without_section_headers)
{
	check_without_sections("clean", 0, true);
	cr_expect_null(find_violation("dlopen"));
	check_without_sections("dlopen", 2, true);
	cr_expect_not_null(find_violation("dlopen"));
	check_without_sections("no-entry", 0, false);
}

Test(symcheck, corrupted_objects_never_crash_the_checker)
{
	size_t len;
	char *orig = slurp(so_path("dlopen"), &len);
	char *buf = malloc(len);
	unsigned seed = 12345;

	cr_assert_not_null(buf);
	for (int iter = 0; iter < 300; iter++) {
		memcpy(buf, orig, len);
		/* corrupt a few bytes, mostly in the headers and tables up front */
		for (int k = 0; k < 4; k++) {
			seed = seed * 1103515245u + 12345u;
			size_t at = (seed >> 8) % (k == 0 ? len : (len < 2048 ? len : 2048));
			seed = seed * 1103515245u + 12345u;
			buf[at] = (char)(seed >> 16);
		}
		const char *path = scratch_file("fuzz.so", buf, len);
		enum cua_status st = cua_symcheck_file(path, NULL, &res, err, sizeof err);
		cr_assert(st == CUA_OK || st == CUA_E_PARSE, "iteration %d: status %d", iter, st);
		cr_assert_geq(res.n, 0);
	}
	free(buf);
	free(orig);
}

Test(symcheck, violations_beyond_the_cap_are_counted)
{
	check_fixture("many-violations", NULL);
	cr_expect_eq(res.n, 40);
	cr_expect_str_eq(res.v[CUA_SYMCHECK_MAX - 1].reason,
	                 "the CUDA driver API is not available to candidates");
	cr_expect(res.has_entry);
}

/* ---- the policy, name by name ------------------------------------------------ */

struct symbol_case {
	char name[96];
	bool defined;
	bool allow_cublas;
	bool allow_cudnn;
	char reason[80];        /* "" = allowed */
};

#define OK ""
#define IMPORT(n, r) { n, false, false, false, r }
#define DEFINE(n, r) { n, true, false, false, r }

ParameterizedTestParameters(symcheck, symbol_policy_table)
{
	static struct symbol_case cases[] = {
		/* CUDA runtime and nvcc's helpers */
		IMPORT("cudaMalloc", OK), IMPORT("cudaLaunchKernel", OK),
		IMPORT("cudaLaunchKernelExC", OK), IMPORT("cudaMemcpyAsync_ptsz", OK),
		IMPORT("cudaEventElapsedTime", OK), IMPORT("cudaEventQuery", OK),
		IMPORT("cudaFuncSetAttribute", OK), IMPORT("cudaDeviceSetCacheConfig", OK),
		IMPORT("cudaGetLastError@libcudart.so.12", OK),
		IMPORT("__cudaRegisterFatBinary", OK), IMPORT("__cudaRegisterFunction", OK),
		IMPORT("__cudaPushCallConfiguration", OK), IMPORT("__cudaLaunchKernel_ptsz", OK),
		IMPORT("__cudaGetKernel", OK), IMPORT("__cudaInitModule", OK),
		/* forbidden CUDA calls */
		IMPORT("cudaStreamSetAttribute", "persisting-L2 / device-limit changes are forbidden"),
		IMPORT("cudaStreamSetAttribute_ptsz", "persisting-L2 / device-limit changes are forbidden"),
		IMPORT("cudaCtxResetPersistingL2Cache", "persisting-L2 / device-limit changes are forbidden"),
		IMPORT("cudaDeviceSetLimit", "persisting-L2 / device-limit changes are forbidden"),
		IMPORT("cudaGraphKernelNodeSetAttribute", "persisting-L2 / device-limit changes are forbidden"),
		IMPORT("cudaLaunchHostFunc", "host callbacks are forbidden"),
		IMPORT("cudaLaunchHostFunc_ptsz", "host callbacks are forbidden"),
		IMPORT("cudaStreamAddCallback", "host callbacks are forbidden"),
		IMPORT("cudaUserObjectCreate", "host callbacks are forbidden"),
		IMPORT("cudaDeviceRegisterAsyncNotification", "host callbacks are forbidden"),
		IMPORT("cudaDeviceReset", "resetting the device is forbidden"),
		/* the candidate's process has one device: re-selecting it is harmless
		 * (CUB's device-wide algorithms do) */
		IMPORT("cudaSetDevice", OK),
		IMPORT("cudaMallocAsync", OK), IMPORT("cudaFreeAsync", OK),
		IMPORT("cudaMemcpyToSymbolAsync", OK), IMPORT("cudaGetDevice", OK),
		IMPORT("cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", OK),
		IMPORT("cudaSetDeviceFlags", "changing the device or its flags is forbidden"),
		IMPORT("cudaIpcGetMemHandle", "sharing memory between processes is forbidden"),
		IMPORT("cudaGetDriverEntryPoint", "the CUDA driver API is not available to candidates"),
		IMPORT("cudaGetDriverEntryPointByVersion", "the CUDA driver API is not available to candidates"),
		IMPORT("cuLaunchKernel", "the CUDA driver API is not available to candidates"),
		IMPORT("cuGetProcAddress_v2", "the CUDA driver API is not available to candidates"),
		IMPORT("cuInit", "the CUDA driver API is not available to candidates"),
		IMPORT("nvrtcCompileProgram", "runtime compilation is forbidden"),
		IMPORT("nvJitLinkCreate", "runtime compilation is forbidden"),
		/* libraries by policy */
		IMPORT("cublasSgemm_v2", "cuBLAS is not allowed in this task"),
		IMPORT("cublasLtMatmul", "cuBLAS is not allowed in this task"),
		{ "cublasLtMatmul", false, true, false, OK },
		{ "cublasGemmEx", false, true, false, OK },
		IMPORT("cudnnConvolutionForward", "cuDNN is not allowed in this task"),
		{ "cudnnConvolutionForward", false, false, true, OK },
		{ "cudnnCreate", false, true, false, "cuDNN is not allowed in this task" },
		{ "cublasCreate_v2", false, false, true, "cuBLAS is not allowed in this task" },
		IMPORT("cufftExecC2C", "not in the allowlist of callable functions"),
		/* C++ runtime */
		IMPORT("_Znwm", OK), IMPORT("_Znam", OK), IMPORT("_ZdlPvm", OK), IMPORT("_ZdaPv", OK),
		IMPORT("__cxa_atexit", OK), IMPORT("__cxa_finalize", OK), IMPORT("__cxa_guard_acquire", OK),
		IMPORT("__cxa_throw", OK), IMPORT("__gxx_personality_v0", OK), IMPORT("_Unwind_Resume", OK),
		IMPORT("_ZSt9terminatev", OK), IMPORT("_ZSt20__throw_length_errorPKc", OK),
		IMPORT("_ZSt17__throw_bad_allocv", OK), IMPORT("_ITM_registerTMCloneTable", OK),
		IMPORT("__gmon_start__", OK), IMPORT("__stack_chk_fail", OK), IMPORT("__assert_fail", OK),
		IMPORT("_ZNSt6thread15_M_start_threadESt10unique_ptrINS_6_StateESt14default_deleteIS1_EEPFvvE",
		       "threads are forbidden"),
		/* <iostream>'s initialiser (CUB, Thrust) and output on the standard streams */
		IMPORT("_ZNSt8ios_base4InitC1Ev@GLIBCXX_3.4", OK), IMPORT("_ZNSt8ios_base4InitD1Ev", OK),
		IMPORT("_ZSt4cout", OK), IMPORT("_ZSt4cerr", OK),
		IMPORT("_ZStlsISt11char_traitsIcEERSt13basic_ostreamIcT_ES5_PKc", OK),
		IMPORT("_ZNSolsEi", OK),
		IMPORT("_ZSt3cin", "not in the allowlist of callable functions"),
		IMPORT("_ZNSt13basic_filebufIcSt11char_traitsIcEE4openEPKcSt13_Ios_Openmode",
		       "not in the allowlist of callable functions"),
		IMPORT("_ZNSt14basic_ifstreamIcSt11char_traitsIcEEC1EPKcSt13_Ios_Openmode",
		       "not in the allowlist of callable functions"),
		/* glibc 2.38+ spells these __isoc23_* (older ones __isoc99_*): same verdict */
		IMPORT("strtoull", OK), IMPORT("__isoc23_strtoull@GLIBC_2.38", OK),
		IMPORT("__isoc23_strtol", OK), IMPORT("sscanf", OK), IMPORT("__isoc23_sscanf", OK),
		IMPORT("__isoc99_sscanf", OK), IMPORT("__isoc23_vsscanf", OK),
		IMPORT("__isoc23_fscanf", "not in the allowlist of callable functions"),
		IMPORT("__isoc99_scanf", "not in the allowlist of callable functions"),
		IMPORT("__isoc23_", "not in the allowlist of callable functions"),
		/* libm, memory, stdio */
		IMPORT("expf", OK), IMPORT("exp", OK), IMPORT("expl", OK), IMPORT("tanhf", OK),
		IMPORT("sqrtf", OK), IMPORT("fmaf", OK), IMPORT("erff", OK), IMPORT("log1pf", OK),
		IMPORT("atan2f", OK), IMPORT("modff", OK), IMPORT("nanf", OK), IMPORT("lroundf", OK),
		IMPORT("expff", "not in the allowlist of callable functions"),
		IMPORT("memcpy@GLIBC_2.14", OK), IMPORT("memset", OK), IMPORT("strlen", OK),
		IMPORT("malloc", OK), IMPORT("posix_memalign", OK), IMPORT("free", OK),
		IMPORT("printf", OK), IMPORT("fprintf", OK), IMPORT("fwrite", OK), IMPORT("puts", OK),
		IMPORT("stderr", OK), IMPORT("stdout", OK), IMPORT("__errno_location", OK),
		IMPORT("qsort", OK), IMPORT("abs", OK), IMPORT("rand", OK),
		IMPORT("stdin", "not in the allowlist of callable functions"),
		IMPORT("fread", "not in the allowlist of callable functions"),
		IMPORT("clock_gettime", "not in the allowlist of callable functions"),
		IMPORT("made_up_function", "not in the allowlist of callable functions"),
		/* forbidden libc */
		IMPORT("dlopen", "dynamic loading is forbidden"),
		IMPORT("dlsym@GLIBC_2.34", "dynamic loading is forbidden"),
		IMPORT("dl_iterate_phdr", "dynamic loading is forbidden"),
		IMPORT("fork", "starting processes is forbidden"),
		IMPORT("vfork", "starting processes is forbidden"),
		IMPORT("execve", "starting processes is forbidden"),
		IMPORT("execvp", "starting processes is forbidden"),
		IMPORT("posix_spawnp", "starting processes is forbidden"),
		IMPORT("system", "starting processes is forbidden"),
		IMPORT("popen", "starting processes is forbidden"),
		IMPORT("clone3", "starting processes is forbidden"),
		IMPORT("pthread_create", "threads are forbidden"),
		IMPORT("thrd_create", "threads are forbidden"),
		IMPORT("socket", "network access is forbidden"),
		IMPORT("connect", "network access is forbidden"),
		IMPORT("getaddrinfo", "network access is forbidden"),
		IMPORT("open", "file system access is forbidden"),
		IMPORT("openat64", "file system access is forbidden"),
		IMPORT("__open_2", "file system access is forbidden"),
		IMPORT("fopen64", "file system access is forbidden"),
		IMPORT("opendir", "file system access is forbidden"),
		IMPORT("stat", "file system access is forbidden"),
		IMPORT("__xstat64", "file system access is forbidden"),
		IMPORT("readlink", "file system access is forbidden"),
		IMPORT("unlink", "file system access is forbidden"),
		IMPORT("rename", "file system access is forbidden"),
		IMPORT("mkdir", "file system access is forbidden"),
		IMPORT("syscall", "process/memory manipulation is forbidden"),
		IMPORT("mprotect", "process/memory manipulation is forbidden"),
		IMPORT("mmap64", "process/memory manipulation is forbidden"),
		IMPORT("ptrace", "process/memory manipulation is forbidden"),
		IMPORT("kill", "process/memory manipulation is forbidden"),
		IMPORT("sigaction", "process/memory manipulation is forbidden"),
		IMPORT("setitimer", "process/memory manipulation is forbidden"),
		IMPORT("alarm", "process/memory manipulation is forbidden"),
		IMPORT("exit", "exiting the process is forbidden"),
		IMPORT("_exit", "exiting the process is forbidden"),
		IMPORT("quick_exit", "exiting the process is forbidden"),
		IMPORT("atexit", "exiting the process is forbidden"),
		IMPORT("getenv", "reading the environment is forbidden"),
		IMPORT("secure_getenv", "reading the environment is forbidden"),
		IMPORT("environ", "reading the environment is forbidden"),
		IMPORT("program_invocation_name", "reading the environment is forbidden"),
		IMPORT("write", "raw file descriptor access is forbidden"),
		IMPORT("read", "raw file descriptor access is forbidden"),
		IMPORT("dup2", "raw file descriptor access is forbidden"),
		IMPORT("ioctl", "raw file descriptor access is forbidden"),
		IMPORT("pipe", "raw file descriptor access is forbidden"),
		/* definitions */
		DEFINE("cua_solve", OK), DEFINE("cua_oracle", OK), DEFINE("my_helper", OK),
		DEFINE("_Z12scale_kernelPKfPfl", OK), DEFINE("expf", OK), DEFINE("malloc", OK),
		DEFINE("clock_gettime", "defining this name would interpose on the harness"),
		DEFINE("gettimeofday", "defining this name would interpose on the harness"),
		DEFINE("time", "defining this name would interpose on the harness"),
		DEFINE("clock", "defining this name would interpose on the harness"),
		DEFINE("cudaEventElapsedTime", "defining this name would interpose on the harness"),
		DEFINE("cudaEventRecord@@libcudart.so.12", "defining this name would interpose on the harness"),
		DEFINE("__cudaRegisterFunction", "defining this name would interpose on the harness"),
		DEFINE("cuLaunchKernel", "defining this name would interpose on the harness"),
		DEFINE("cublasSgemm_v2", "defining this name would interpose on the harness"),
		DEFINE("dlsym", "defining this name would interpose on the harness"),
		DEFINE("pthread_mutex_lock", "defining this name would interpose on the harness"),
	};
	return cr_make_param_array(struct symbol_case, cases, CUA_ARRAY_LEN(cases));
}

ParameterizedTest(struct symbol_case *c, symcheck, symbol_policy_table)
{
	struct cua_symcheck_policy p = { .allow_cublas = c->allow_cublas,
	                                 .allow_cudnn = c->allow_cudnn };
	const char *got = cua_symcheck_symbol(c->name, c->defined, &p);

	if (!c->reason[0])
		cr_expect_null(got, "%s %s: unexpected violation \"%s\"",
		               c->defined ? "defining" : "importing", c->name, got);
	else {
		cr_assert_not_null(got, "%s %s: expected \"%s\"",
		                   c->defined ? "defining" : "importing", c->name, c->reason);
		cr_expect_str_eq(got, c->reason, "%s", c->name);
	}
}

Test(symcheck, null_policy_allows_no_libraries)
{
	cr_expect_str_eq(cua_symcheck_symbol("cublasSgemm_v2", false, NULL),
	                 "cuBLAS is not allowed in this task");
	cr_expect_null(cua_symcheck_symbol("", false, NULL));
	cr_expect_null(cua_symcheck_symbol(NULL, false, NULL));
}

Test(symcheck, violations_with_a_known_cause_come_with_advice)
{
	const char *a = cua_symcheck_advice("exit@GLIBC_2.2.5");
	cr_assert_not_null(a);
	cr_expect(strstr(a, "return non-zero from cua_solve") && strstr(a, "static"), "%s", a);
	cr_expect_not_null(cua_symcheck_advice("dlopen"));
	cr_expect_not_null(cua_symcheck_advice("pthread_create"));
	cr_expect_not_null(cua_symcheck_advice("cublasSgemm_v2"));
	cr_expect_null(cua_symcheck_advice("made_up_function"));
}
