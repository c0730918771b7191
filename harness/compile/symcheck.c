/* symcheck.c — reads a candidate .so's ELF dynamic symbols (untrusted input,
 * every offset bounds-checked) and checks them against the policy (symcheck.h). */
#include "compile/symcheck.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- policy ---------------------------------------------------------------- */

#define R_DL      "dynamic loading is forbidden"
#define R_PROC    "starting processes is forbidden"
#define R_THREAD  "threads are forbidden"
#define R_NET     "network access is forbidden"
#define R_FS      "file system access is forbidden"
#define R_MEM     "process/memory manipulation is forbidden"
#define R_EXIT    "exiting the process is forbidden"
#define R_ENV     "reading the environment is forbidden"
#define R_FD      "raw file descriptor access is forbidden"
#define R_L2      "persisting-L2 / device-limit changes are forbidden"
#define R_HOSTCB  "host callbacks are forbidden"
#define R_RESET   "resetting the device is forbidden"
#define R_DEVICE  "changing the device or its flags is forbidden"
#define R_IPC     "sharing memory between processes is forbidden"
#define R_DRIVER  "the CUDA driver API is not available to candidates"
#define R_JIT     "runtime compilation is forbidden"
#define R_CUBLAS  "cuBLAS is not allowed in this task"
#define R_CUDNN   "cuDNN is not allowed in this task"
#define R_UNKNOWN "not in the allowlist of callable functions"
/* One object, compared by address when the violation is formatted. */
static const char r_interpose[] = "defining this name would interpose on the harness";
#define R_INTERPOSE r_interpose

/* A name pattern: exact, or a prefix when it ends in '*'. */
struct rule {
	const char *pattern;
	const char *reason;
};

static bool match(const char *pattern, const char *name)
{
	size_t n = strlen(pattern);

	if (n > 0 && pattern[n - 1] == '*')
		return strncmp(pattern, name, n - 1) == 0;
	return strcmp(pattern, name) == 0;
}

static const char *find_rule(const struct rule *rules, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (match(rules[i].pattern, name))
			return rules[i].reason;
	return NULL;
}

/* Imports that are never allowed, whatever else matches. Checked first. */
static const struct rule forbidden_imports[] = {
	{ "dlopen", R_DL }, { "dlmopen", R_DL }, { "dlsym", R_DL }, { "dlvsym", R_DL },
	{ "dladdr", R_DL }, { "dladdr1", R_DL }, { "dlinfo", R_DL }, { "dlclose", R_DL },
	{ "dl_iterate_phdr", R_DL }, { "__libc_dl*", R_DL }, { "_dl_*", R_DL },

	{ "fork", R_PROC }, { "_Fork", R_PROC }, { "__libc_fork", R_PROC },
	{ "vfork", R_PROC }, { "clone", R_PROC }, { "clone3", R_PROC },
	{ "execve", R_PROC }, { "execveat", R_PROC }, { "fexecve", R_PROC },
	{ "execv", R_PROC }, { "execvp", R_PROC }, { "execvpe", R_PROC },
	{ "execl", R_PROC }, { "execlp", R_PROC }, { "execle", R_PROC },
	{ "posix_spawn*", R_PROC }, { "system", R_PROC }, { "popen", R_PROC },
	{ "pclose", R_PROC }, { "daemon", R_PROC },

	{ "pthread_create", R_THREAD }, { "thrd_create", R_THREAD },
	{ "_ZNSt6thread*", R_THREAD }, { "_ZNSt10jthread*", R_THREAD },
	{ "_ZSt5async*", R_THREAD },

	{ "socket", R_NET }, { "socketpair", R_NET }, { "connect", R_NET },
	{ "bind", R_NET }, { "listen", R_NET }, { "accept", R_NET },
	{ "accept4", R_NET }, { "send", R_NET }, { "sendto", R_NET },
	{ "sendmsg", R_NET }, { "recv", R_NET }, { "recvfrom", R_NET },
	{ "recvmsg", R_NET }, { "getaddrinfo", R_NET }, { "gethostbyname*", R_NET },
	{ "setsockopt", R_NET }, { "shutdown", R_NET },

	{ "open", R_FS }, { "open64", R_FS }, { "openat", R_FS }, { "openat64", R_FS },
	{ "__open*", R_FS }, { "fopen", R_FS }, { "fopen64", R_FS },
	{ "freopen", R_FS }, { "freopen64", R_FS }, { "fdopen", R_FS },
	{ "creat", R_FS }, { "creat64", R_FS }, { "opendir", R_FS },
	{ "fdopendir", R_FS }, { "readdir*", R_FS }, { "scandir*", R_FS },
	{ "stat", R_FS }, { "stat64", R_FS }, { "lstat", R_FS }, { "lstat64", R_FS },
	{ "fstat", R_FS }, { "fstat64", R_FS }, { "fstatat", R_FS },
	{ "fstatat64", R_FS }, { "statx", R_FS }, { "__xstat*", R_FS },
	{ "__lxstat*", R_FS }, { "__fxstat*", R_FS }, { "statfs*", R_FS },
	{ "access", R_FS }, { "faccessat", R_FS }, { "euidaccess", R_FS },
	{ "readlink", R_FS }, { "readlinkat", R_FS }, { "realpath", R_FS },
	{ "unlink", R_FS }, { "unlinkat", R_FS }, { "remove", R_FS },
	{ "rename", R_FS }, { "renameat*", R_FS }, { "mkdir", R_FS },
	{ "mkdirat", R_FS }, { "rmdir", R_FS }, { "chdir", R_FS }, { "chmod", R_FS },
	{ "chown", R_FS }, { "truncate*", R_FS }, { "ftruncate*", R_FS },
	{ "link", R_FS }, { "symlink", R_FS }, { "tmpfile*", R_FS },
	{ "mkstemp*", R_FS }, { "mkdtemp", R_FS }, { "tmpnam", R_FS },

	{ "syscall", R_MEM }, { "mprotect", R_MEM }, { "pkey_mprotect", R_MEM },
	{ "mmap", R_MEM }, { "mmap64", R_MEM }, { "munmap", R_MEM },
	{ "mremap", R_MEM }, { "ptrace", R_MEM }, { "prctl", R_MEM },
	{ "arch_prctl", R_MEM }, { "kill", R_MEM }, { "tgkill", R_MEM },
	{ "killpg", R_MEM }, { "raise", R_MEM }, { "signal", R_MEM },
	{ "sigaction", R_MEM }, { "sigprocmask", R_MEM }, { "setitimer", R_MEM },
	{ "alarm", R_MEM }, { "timer_create", R_MEM }, { "setrlimit*", R_MEM },
	{ "prlimit*", R_MEM }, { "personality", R_MEM }, { "setpgid", R_MEM },
	{ "setsid", R_MEM }, { "sched_setaffinity", R_MEM }, { "process_vm_*", R_MEM },

	{ "exit", R_EXIT }, { "_exit", R_EXIT }, { "_Exit", R_EXIT },
	{ "quick_exit", R_EXIT }, { "atexit", R_EXIT }, { "at_quick_exit", R_EXIT },
	{ "on_exit", R_EXIT },

	{ "getenv", R_ENV }, { "secure_getenv", R_ENV }, { "__libc_secure_getenv", R_ENV },
	{ "environ", R_ENV }, { "__environ", R_ENV }, { "_environ", R_ENV },
	{ "program_invocation_name", R_ENV }, { "program_invocation_short_name", R_ENV },
	{ "setenv", R_ENV }, { "putenv", R_ENV }, { "unsetenv", R_ENV },
	{ "clearenv", R_ENV },

	{ "write", R_FD }, { "read", R_FD }, { "pread*", R_FD }, { "pwrite*", R_FD },
	{ "readv", R_FD }, { "writev", R_FD }, { "close", R_FD }, { "lseek*", R_FD },
	{ "dup", R_FD }, { "dup2", R_FD }, { "dup3", R_FD }, { "fcntl", R_FD },
	{ "fcntl64", R_FD }, { "ioctl", R_FD }, { "pipe", R_FD }, { "pipe2", R_FD },
	{ "fileno", R_FD },

	{ "cudaStreamSetAttribute", R_L2 }, { "cudaCtxResetPersistingL2Cache", R_L2 },
	{ "cudaDeviceSetLimit", R_L2 }, { "cudaThreadSetLimit", R_L2 },
	{ "cudaDeviceSetPersistingL2CacheSize", R_L2 },
	{ "cudaGraphKernelNodeSetAttribute", R_L2 },
	{ "cudaLaunchHostFunc", R_HOSTCB }, { "cudaStreamAddCallback", R_HOSTCB },
	{ "cudaGraphAddHostNode", R_HOSTCB }, { "cudaGraphHostNodeSetParams", R_HOSTCB },
	{ "cudaGraphExecHostNodeSetParams", R_HOSTCB },
	/* a user object's destructor and an async notification run host code of the
	 * kernel's on CUDA's own threads (held-out wave 2) */
	{ "cudaUserObjectCreate", R_HOSTCB }, { "cudaDeviceRegisterAsyncNotification", R_HOSTCB },
	{ "cudaDeviceReset", R_RESET }, { "cudaThreadExit", R_RESET },
	/* cudaSetDevice is allowed: the candidate's process is given one device, so it
	 * can only re-select the one it has (CUB's device-wide algorithms do). */
	{ "cudaSetDeviceFlags", R_DEVICE },
	{ "cudaSetValidDevices", R_DEVICE }, { "cudaInitDevice", R_DEVICE },
	{ "cudaIpc*", R_IPC },
	{ "cudaGetDriverEntryPoint*", R_DRIVER },
	{ "nvrtc*", R_JIT }, { "nvJitLink*", R_JIT }, { "nvPTXCompiler*", R_JIT },
};

/* Imports a candidate may use (after the forbidden list and the library
 * switches). Math functions are matched separately with f/l variants. */
static const struct rule allowed_imports[] = {
	/* CUDA runtime and nvcc's registration/launch helpers */
	{ "cuda*", NULL }, { "__cuda*", NULL },
	/* C++ runtime: new/delete, exceptions, guards, unwinding */
	{ "_Znwm*", NULL }, { "_Znam*", NULL }, { "_ZdlPv*", NULL }, { "_ZdaPv*", NULL },
	{ "__cxa_*", NULL }, { "__gxx_personality_v0", NULL }, { "_Unwind_*", NULL },
	{ "_ZSt9terminatev", NULL }, { "_ZSt7nothrow", NULL },
	{ "_ZTVN10__cxxabiv1*", NULL }, { "_ZTISt*", NULL }, { "_ZTSSt*", NULL },
	{ "_ZTVSt*", NULL }, { "_ZNSt9exception*", NULL }, { "_ZNKSt9exception*", NULL },
	{ "_ZNSt9bad_alloc*", NULL }, { "_ZNKSt9bad_alloc*", NULL },
	{ "_ZNSt20bad_array_new_length*", NULL }, { "_ZNSt11logic_error*", NULL },
	{ "_ZNSt13runtime_error*", NULL }, { "_ZNSt12length_error*", NULL },
	{ "_ZNSt12out_of_range*", NULL }, { "_ZNSt16invalid_argument*", NULL },
	{ "_ZNKSt11logic_error*", NULL }, { "_ZNKSt13runtime_error*", NULL },
	{ "_ZNSt7__cxx1112basic_string*", NULL }, { "_ZNKSt7__cxx1112basic_string*", NULL },
	{ "_ITM_*", NULL }, { "__gmon_start__", NULL }, { "__tls_get_addr", NULL },
	/* <iostream>'s static initialiser (CUB and Thrust include it) and output to
	 * the standard streams: the same as printf (no file streams: basic_filebuf
	 * and fstream are not here) */
	{ "_ZNSt8ios_base4Init*", NULL }, { "_ZSt4cout", NULL }, { "_ZSt4cerr", NULL },
	{ "_ZSt4clog", NULL }, { "_ZNSo*", NULL }, { "_ZSt16__ostream_insert*", NULL },
	{ "_ZStlsISt11char_traitsIcEERSt13basic_ostreamIcT_ES5_*", NULL },
	{ "_ZSt4endlIcSt11char_traitsIcEERSt13basic_ostreamIT_T0_ES6_", NULL },
	{ "_ZNSt9basic_iosIcSt11char_traitsIcEE*", NULL },
	/* libc odds and ends */
	{ "__stack_chk_fail", NULL }, { "__assert_fail", NULL }, { "abort", NULL },
	{ "__errno_location", NULL }, { "__ctype_*", NULL }, { "strerror", NULL },
	{ "qsort", NULL }, { "bsearch", NULL }, { "abs", NULL }, { "labs", NULL },
	{ "llabs", NULL }, { "div", NULL }, { "ldiv", NULL }, { "rand", NULL },
	{ "srand", NULL }, { "atoi", NULL }, { "atol", NULL }, { "atof", NULL },
	{ "strtol", NULL }, { "strtoll", NULL }, { "strtoul", NULL },
	{ "strtoull", NULL }, { "strtod", NULL }, { "strtof", NULL },
	{ "strtoimax", NULL }, { "strtoumax", NULL }, { "sscanf", NULL }, { "vsscanf", NULL },
	/* memory and strings */
	{ "memcpy", NULL }, { "memmove", NULL }, { "memset", NULL }, { "memcmp", NULL },
	{ "memchr", NULL }, { "strlen", NULL }, { "strnlen", NULL }, { "strcmp", NULL },
	{ "strncmp", NULL }, { "strcpy", NULL }, { "strncpy", NULL }, { "strcat", NULL },
	{ "strncat", NULL }, { "strchr", NULL }, { "strrchr", NULL }, { "strstr", NULL },
	{ "strdup", NULL }, { "__memcpy_chk", NULL }, { "__memmove_chk", NULL },
	{ "__memset_chk", NULL }, { "__strcpy_chk", NULL }, { "__strncpy_chk", NULL },
	{ "__strcat_chk", NULL },
	{ "malloc", NULL }, { "calloc", NULL }, { "realloc", NULL }, { "free", NULL },
	{ "aligned_alloc", NULL }, { "posix_memalign", NULL }, { "memalign", NULL },
	/* output to the standard streams (opening any other stream is forbidden) */
	{ "printf", NULL }, { "fprintf", NULL }, { "vprintf", NULL }, { "vfprintf", NULL },
	{ "puts", NULL }, { "putchar", NULL }, { "fputs", NULL }, { "fputc", NULL },
	{ "putc", NULL }, { "fwrite", NULL }, { "fflush", NULL }, { "perror", NULL },
	{ "snprintf", NULL }, { "sprintf", NULL }, { "vsnprintf", NULL },
	{ "vsprintf", NULL }, { "__printf_chk", NULL }, { "__fprintf_chk", NULL },
	{ "__vprintf_chk", NULL }, { "__vfprintf_chk", NULL }, { "__snprintf_chk", NULL },
	{ "__sprintf_chk", NULL }, { "__vsnprintf_chk", NULL }, { "__vsprintf_chk", NULL },
	{ "stdout", NULL }, { "stderr", NULL },
	/* classification helpers behind <math.h> macros */
	{ "__isnan*", NULL }, { "__isinf*", NULL }, { "__finite*", NULL },
	{ "__fpclassify*", NULL }, { "__signbit*", NULL },
};

/* libm functions; NAME, NAMEf and NAMEl are all allowed. */
static const char *const math_names[] = {
	"sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh",
	"asinh", "acosh", "atanh", "sincos", "exp", "exp2", "exp10", "expm1", "log",
	"log2", "log10", "log1p", "logb", "ilogb", "pow", "sqrt", "cbrt", "hypot",
	"erf", "erfc", "lgamma", "tgamma", "fabs", "floor", "ceil", "round",
	"lround", "llround", "rint", "lrint", "llrint", "nearbyint", "trunc",
	"fmod", "remainder", "remquo", "fmin", "fmax", "fdim", "fma", "copysign",
	"nextafter", "frexp", "ldexp", "scalbn", "scalbln", "modf", "nan", "isnan",
	"isinf", "isfinite", "signbit",
};

/* Names a candidate must not define: the harness and its libraries call them. */
static const struct rule forbidden_definitions[] = {
	{ "cuda*", R_INTERPOSE }, { "__cuda*", R_INTERPOSE }, { "cublas*", R_INTERPOSE },
	{ "cudnn*", R_INTERPOSE }, { "nvrtc*", R_INTERPOSE },
	{ "clock_gettime", R_INTERPOSE }, { "__clock_gettime*", R_INTERPOSE },
	{ "clock_getres", R_INTERPOSE }, { "gettimeofday", R_INTERPOSE },
	{ "time", R_INTERPOSE }, { "clock", R_INTERPOSE }, { "timespec_get", R_INTERPOSE },
	{ "nanosleep", R_INTERPOSE },
	{ "dlopen", R_INTERPOSE }, { "dlmopen", R_INTERPOSE }, { "dlsym", R_INTERPOSE },
	{ "dlvsym", R_INTERPOSE }, { "dlclose", R_INTERPOSE }, { "dlerror", R_INTERPOSE },
	{ "pthread_*", R_INTERPOSE },
	{ "fork", R_INTERPOSE }, { "exit", R_INTERPOSE }, { "_exit", R_INTERPOSE },
	{ "abort", R_INTERPOSE }, { "sigaction", R_INTERPOSE }, { "signal", R_INTERPOSE },
	{ "waitpid", R_INTERPOSE }, { "poll", R_INTERPOSE },
	{ "read", R_INTERPOSE }, { "write", R_INTERPOSE },
};

static bool is_math(const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < CUA_ARRAY_LEN(math_names); i++) {
		size_t m = strlen(math_names[i]);
		if (strncmp(name, math_names[i], m) != 0)
			continue;
		if (n == m || (n == m + 1 && (name[m] == 'f' || name[m] == 'l')))
			return true;
	}
	return false;
}

/* cu + upper-case letter: the driver API (cuLaunchKernel, cuGetProcAddress). */
static bool is_driver_api(const char *name)
{
	return name[0] == 'c' && name[1] == 'u' && name[2] >= 'A' && name[2] <= 'Z';
}

/* "cudaFoo_ptsz" / "cudaFoo_ptds" (per-thread default stream variants) are
 * checked as "cudaFoo". Writes the base name into buf. */
static const char *strip_stream_suffix(const char *name, char *buf, size_t len)
{
	size_t n = strlen(name);

	if (n > 5 && n < len && (!strcmp(name + n - 5, "_ptsz") ||
	                         !strcmp(name + n - 5, "_ptds"))) {
		memcpy(buf, name, n - 5);
		buf[n - 5] = '\0';
		return buf;
	}
	return name;
}

static const char *check_import(const char *name,
                                const struct cua_symcheck_policy *policy)
{
	char base[256];
	const char *reason;
	bool cublas_ok = policy && policy->allow_cublas;
	bool cudnn_ok = policy && policy->allow_cudnn;

	name = strip_stream_suffix(name, base, sizeof base);
	/* glibc 2.38+ renames strtol, sscanf and friends to __isoc23_* under C23 /
	 * C++ defaults (older ones to __isoc99_*): each spelling is judged as the
	 * plain name, so a kernel accepted on one machine is accepted on another. */
	if (!strncmp(name, "__isoc23_", 9) || !strncmp(name, "__isoc99_", 9))
		name += 9;
	if ((reason = find_rule(forbidden_imports, CUA_ARRAY_LEN(forbidden_imports), name)))
		return reason;
	if (is_driver_api(name))
		return R_DRIVER;
	if (!strncmp(name, "cublas", 6))
		return cublas_ok ? NULL : R_CUBLAS;
	if (!strncmp(name, "cudnn", 5))
		return cudnn_ok ? NULL : R_CUDNN;
	for (size_t i = 0; i < CUA_ARRAY_LEN(allowed_imports); i++)
		if (match(allowed_imports[i].pattern, name))
			return NULL;
	if (is_math(name))
		return NULL;
	/* std::__throw_* helpers: _ZSt<len>__throw_... */
	if (!strncmp(name, "_ZSt", 4)) {
		const char *p = name + 4;
		while (*p >= '0' && *p <= '9')
			p++;
		if (p > name + 4 && !strncmp(p, "__throw_", 8))
			return NULL;
	}
	return R_UNKNOWN;
}

static const char *check_definition(const char *name)
{
	const char *reason;

	if (!strcmp(name, "cua_solve") || !strcmp(name, "cua_oracle"))
		return NULL;
	if ((reason = find_rule(forbidden_definitions,
	                        CUA_ARRAY_LEN(forbidden_definitions), name)))
		return reason;
	if (is_driver_api(name))
		return R_INTERPOSE;
	return NULL;
}

const char *cua_symcheck_symbol(const char *name, bool defined,
                                const struct cua_symcheck_policy *policy)
{
	char plain[256];
	const char *at;

	if (!name || !*name)
		return NULL;
	/* "memcpy@GLIBC_2.14" or "foo@@VER": check the bare name. */
	at = strchr(name, '@');
	if (at && at != name) {
		size_t n = (size_t)(at - name);
		if (n >= sizeof plain)
			n = sizeof plain - 1;
		memcpy(plain, name, n);
		plain[n] = '\0';
		name = plain;
	}
	return defined ? check_definition(name) : check_import(name, policy);
}

/* What to change, for the violations whose usual cause is known. */
static const struct rule advice[] = {
	{ "exit", "return non-zero from cua_solve to report a failure; if your code does "
	          "not call exit, an exported host function does (nvcc's stub of a "
	          "non-static __device__ function calls it): make that function static" },
	{ "_exit", "return non-zero from cua_solve to report a failure" },
	{ "atexit", "keep state in statics without exit handlers" },
	{ "dlopen", "NVTX is compiled out (-DNVTX_DISABLE); if you include <nvtx3/...> or "
	            "nvToolsExt.h yourself, remove it; libraries are linked by the harness "
	            "when the task allows them" },
	{ "dlsym", "call library functions directly; the harness links the libraries the "
	           "task allows" },
	{ "getenv", "read no environment: every setting a kernel needs is in its prompt" },
	{ "pthread_create", "no host threads: put concurrent work on `stream`" },
	{ "_ZNSt6thread*", "no host threads: put concurrent work on `stream`" },
	{ "fopen", "read no files: every input arrives as a tensor" },
	{ "open", "read no files: every input arrives as a tensor" },
	{ "cudaStreamSetAttribute", "access-policy windows (persisting L2) change the cache "
	                            "for whoever runs next: leave them out" },
	{ "cudaDeviceSetLimit", "device limits (printf FIFO, stack, L2 persisting size) stay "
	                        "as the harness sets them" },
	{ "cudaLaunchHostFunc", "no host callbacks: enqueue only device work on `stream`" },
	{ "cudaDeviceReset", "never reset the device: free what you allocated instead" },
	{ "cudaSetDeviceFlags", "leave the device's flags as they are" },
	{ "cublas*", "this task allows no library calls: write the kernel yourself" },
	{ "cudnn*", "this task allows no library calls: write the kernel yourself" },
};

const char *cua_symcheck_advice(const char *symbol)
{
	char plain[128];
	size_t n = strcspn(symbol, "@");
	if (n >= sizeof plain)
		n = sizeof plain - 1;
	memcpy(plain, symbol, n);
	plain[n] = '\0';
	return find_rule(advice, CUA_ARRAY_LEN(advice), plain);
}

/* ---- ELF reading -------------------------------------------------------------- */

struct image {
	const unsigned char *p;
	size_t size;
};

/* True when [off, off + len) lies inside the file. */
static bool in_file(const struct image *im, uint64_t off, uint64_t len)
{
	return off <= im->size && len <= im->size - off;
}

/* Where the symbols are: file offsets of the table and its strings. */
struct dyn_table {
	uint64_t sym_off, sym_count, sym_ent;
	uint64_t str_off, str_size;
};

static enum cua_status tables_from_sections(const struct image *im,
                                            const Elf64_Ehdr *eh,
                                            struct dyn_table *t, bool *found,
                                            const char *path, char *err,
                                            size_t errlen)
{
	*found = false;
	if (eh->e_shnum == 0 || eh->e_shoff == 0)
		return CUA_OK;
	if (eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    !in_file(im, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr))) {
		cua_errf(err, errlen, "%s: section header table lies outside the file", path);
		return CUA_E_PARSE;
	}
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		Elf64_Shdr sh, st;
		memcpy(&sh, im->p + eh->e_shoff + (uint64_t)i * sizeof sh, sizeof sh);
		if (sh.sh_type != SHT_DYNSYM)
			continue;
		if (sh.sh_link == 0 || sh.sh_link >= eh->e_shnum) {
			cua_errf(err, errlen, "%s: .dynsym links to no string table", path);
			return CUA_E_PARSE;
		}
		memcpy(&st, im->p + eh->e_shoff + (uint64_t)sh.sh_link * sizeof st, sizeof st);
		uint64_t ent = sh.sh_entsize ? sh.sh_entsize : sizeof(Elf64_Sym);
		if (ent < sizeof(Elf64_Sym) || !in_file(im, sh.sh_offset, sh.sh_size) ||
		    st.sh_type != SHT_STRTAB || !in_file(im, st.sh_offset, st.sh_size)) {
			cua_errf(err, errlen, "%s: .dynsym or .dynstr lies outside the file", path);
			return CUA_E_PARSE;
		}
		*t = (struct dyn_table){
			.sym_off = sh.sh_offset, .sym_count = sh.sh_size / ent, .sym_ent = ent,
			.str_off = st.sh_offset, .str_size = st.sh_size,
		};
		*found = true;
		return CUA_OK;
	}
	return CUA_OK;
}

/* Translates a virtual address to a file offset through the PT_LOAD segments. */
static bool vaddr_to_off(const struct image *im, const Elf64_Ehdr *eh,
                         uint64_t vaddr, uint64_t len, uint64_t *off)
{
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr ph;
		memcpy(&ph, im->p + eh->e_phoff + (uint64_t)i * sizeof ph, sizeof ph);
		if (ph.p_type != PT_LOAD || vaddr < ph.p_vaddr)
			continue;
		uint64_t d = vaddr - ph.p_vaddr;
		if (d > ph.p_filesz || len > ph.p_filesz - d)
			continue;
		if (!in_file(im, ph.p_offset, ph.p_filesz))
			return false;
		*off = ph.p_offset + d;
		return true;
	}
	return false;
}

static bool read_u32(const struct image *im, uint64_t off, uint32_t *v)
{
	if (!in_file(im, off, 4))
		return false;
	memcpy(v, im->p + off, 4);
	return true;
}

/* Symbol count from DT_GNU_HASH: one past the highest symbol in any chain. */
static bool gnu_hash_count(const struct image *im, uint64_t off, uint64_t *count)
{
	uint32_t hdr[4];

	if (!in_file(im, off, sizeof hdr))
		return false;
	memcpy(hdr, im->p + off, sizeof hdr);
	uint32_t nbuckets = hdr[0], symoffset = hdr[1], bloom = hdr[2];
	uint64_t buckets = off + 16 + (uint64_t)bloom * 8;
	uint64_t chains = buckets + (uint64_t)nbuckets * 4;
	if (!in_file(im, buckets, (uint64_t)nbuckets * 4))
		return false;
	uint32_t max = 0;
	for (uint32_t b = 0; b < nbuckets; b++) {
		uint32_t v;
		memcpy(&v, im->p + buckets + (uint64_t)b * 4, 4);
		if (v > max)
			max = v;
	}
	if (max == 0 || max < symoffset) {
		*count = symoffset;
		return true;
	}
	for (uint64_t i = max; ; i++) {
		uint32_t h;
		if (!read_u32(im, chains + (i - symoffset) * 4, &h))
			return false;
		if (h & 1) {
			*count = i + 1;
			return true;
		}
	}
}

static enum cua_status tables_from_dynamic(const struct image *im,
                                           const Elf64_Ehdr *eh,
                                           struct dyn_table *t, const char *path,
                                           char *err, size_t errlen)
{
	uint64_t symtab = 0, strtab = 0, strsz = 0, syment = sizeof(Elf64_Sym);
	uint64_t hash = 0, gnu_hash = 0;
	bool have_dyn = false;

	if (eh->e_phnum == 0 || eh->e_phentsize != sizeof(Elf64_Phdr) ||
	    !in_file(im, eh->e_phoff, (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr))) {
		cua_errf(err, errlen, "%s: no section or program headers to find symbols", path);
		return CUA_E_PARSE;
	}
	for (unsigned i = 0; i < eh->e_phnum && !have_dyn; i++) {
		Elf64_Phdr ph;
		memcpy(&ph, im->p + eh->e_phoff + (uint64_t)i * sizeof ph, sizeof ph);
		if (ph.p_type != PT_DYNAMIC)
			continue;
		if (!in_file(im, ph.p_offset, ph.p_filesz)) {
			cua_errf(err, errlen, "%s: PT_DYNAMIC lies outside the file", path);
			return CUA_E_PARSE;
		}
		have_dyn = true;
		for (uint64_t k = 0; k + sizeof(Elf64_Dyn) <= ph.p_filesz; k += sizeof(Elf64_Dyn)) {
			Elf64_Dyn d;
			memcpy(&d, im->p + ph.p_offset + k, sizeof d);
			if (d.d_tag == DT_NULL)
				break;
			switch (d.d_tag) {
			case DT_SYMTAB: symtab = d.d_un.d_ptr; break;
			case DT_STRTAB: strtab = d.d_un.d_ptr; break;
			case DT_STRSZ: strsz = d.d_un.d_val; break;
			case DT_SYMENT: syment = d.d_un.d_val; break;
			case DT_HASH: hash = d.d_un.d_ptr; break;
			case DT_GNU_HASH: gnu_hash = d.d_un.d_ptr; break;
			}
		}
	}
	if (!have_dyn || !symtab || !strtab || syment < sizeof(Elf64_Sym)) {
		cua_errf(err, errlen, "%s: no dynamic symbol table", path);
		return CUA_E_PARSE;
	}
	if (!vaddr_to_off(im, eh, strtab, strsz, &t->str_off) ||
	    !vaddr_to_off(im, eh, symtab, 0, &t->sym_off)) {
		cua_errf(err, errlen, "%s: dynamic symbol table lies outside the file", path);
		return CUA_E_PARSE;
	}
	t->str_size = strsz;
	t->sym_ent = syment;

	uint64_t count = 0, off;
	bool counted = false;
	if (hash && vaddr_to_off(im, eh, hash, 8, &off)) {
		uint32_t nchain;
		counted = read_u32(im, off + 4, &nchain);
		count = nchain;
	}
	if (!counted && gnu_hash && vaddr_to_off(im, eh, gnu_hash, 16, &off))
		counted = gnu_hash_count(im, off, &count);
	if (!counted && strtab > symtab) {
		/* Linkers place .dynstr right after .dynsym. */
		count = (strtab - symtab) / syment;
		counted = true;
	}
	if (!counted || count > (im->size - t->sym_off) / syment) {
		cua_errf(err, errlen, "%s: cannot size the dynamic symbol table", path);
		return CUA_E_PARSE;
	}
	t->sym_count = count;
	return CUA_OK;
}

static void add_violation(struct cua_symcheck_result *res, const char *name,
                          const char *reason)
{
	if (res->n < CUA_SYMCHECK_MAX) {
		struct cua_violation *v = &res->v[res->n];
		snprintf(v->symbol, sizeof v->symbol, "%s", name);
		if (reason == R_INTERPOSE) /* name the symbol: the reason stands alone */
			snprintf(v->reason, sizeof v->reason,
			         "defining %.80s would interpose on the harness", name);
		else
			snprintf(v->reason, sizeof v->reason, "%s", reason);
	}
	res->n++;
}

static enum cua_status check_image(const struct image *im,
                                   const struct cua_symcheck_policy *policy,
                                   struct cua_symcheck_result *res,
                                   const char *path, char *err, size_t errlen)
{
	Elf64_Ehdr eh;
	struct dyn_table t;
	bool found = false;
	enum cua_status st;

	if (im->size < EI_NIDENT || memcmp(im->p, ELFMAG, SELFMAG) != 0) {
		cua_errf(err, errlen, "%s: not an ELF file", path);
		return CUA_E_PARSE;
	}
	if (im->p[EI_CLASS] != ELFCLASS64 || im->p[EI_DATA] != ELFDATA2LSB) {
		cua_errf(err, errlen, "%s: not a 64-bit little-endian ELF file", path);
		return CUA_E_PARSE;
	}
	if (im->size < sizeof eh) {
		cua_errf(err, errlen, "%s: truncated ELF header", path);
		return CUA_E_PARSE;
	}
	memcpy(&eh, im->p, sizeof eh);
	if (eh.e_type != ET_DYN) {
		cua_errf(err, errlen, "%s: not a shared object (ELF type %u)", path,
		         (unsigned)eh.e_type);
		return CUA_E_PARSE;
	}
	st = tables_from_sections(im, &eh, &t, &found, path, err, errlen);
	if (st == CUA_OK && !found)
		st = tables_from_dynamic(im, &eh, &t, path, err, errlen);
	if (st != CUA_OK)
		return st;
	if (!in_file(im, t.sym_off, t.sym_count * t.sym_ent) ||
	    !in_file(im, t.str_off, t.str_size)) {
		cua_errf(err, errlen, "%s: dynamic symbol table lies outside the file", path);
		return CUA_E_PARSE;
	}

	const char *strs = (const char *)im->p + t.str_off;
	for (uint64_t i = 1; i < t.sym_count; i++) {
		Elf64_Sym s;
		memcpy(&s, im->p + t.sym_off + i * t.sym_ent, sizeof s);
		unsigned type = ELF64_ST_TYPE(s.st_info);
		unsigned bind = ELF64_ST_BIND(s.st_info);
		if (type == STT_SECTION || type == STT_FILE)
			continue;
		if (s.st_name >= t.str_size ||
		    !memchr(strs + s.st_name, '\0', t.str_size - s.st_name)) {
			cua_errf(err, errlen, "%s: symbol %llu has a name outside .dynstr",
			         path, (unsigned long long)i);
			return CUA_E_PARSE;
		}
		const char *name = strs + s.st_name;
		if (!*name)
			continue;
		bool defined = s.st_shndx != SHN_UNDEF;
		if (defined && bind != STB_GLOBAL && bind != STB_WEAK && bind != STB_GNU_UNIQUE)
			continue;
		if (defined && !strcmp(name, "cua_solve") &&
		    (type == STT_FUNC || type == STT_GNU_IFUNC))
			res->has_entry = true;
		const char *reason = cua_symcheck_symbol(name, defined, policy);
		if (reason)
			add_violation(res, name, reason);
	}
	return CUA_OK;
}

enum cua_status cua_symcheck_file(const char *path,
                                  const struct cua_symcheck_policy *policy,
                                  struct cua_symcheck_result *res, char *err,
                                  size_t errlen)
{
	enum cua_status result = CUA_OK;
	struct image im = { NULL, 0 };
	void *map = MAP_FAILED;
	struct stat sb;
	int fd = -1;

	memset(res, 0, sizeof *res);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		cua_errf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		result = errno == ENOENT ? CUA_E_NOT_FOUND : CUA_E_IO;
		goto out;
	}
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		cua_errf(err, errlen, "%s: not a regular file", path);
		result = CUA_E_PARSE;
		goto out;
	}
	if ((uint64_t)sb.st_size < sizeof(Elf64_Ehdr)) {
		cua_errf(err, errlen, "%s: too short for an ELF file (%lld bytes)", path,
		         (long long)sb.st_size);
		result = CUA_E_PARSE;
		goto out;
	}
	map = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		cua_errf(err, errlen, "%s: cannot map: %s", path, strerror(errno));
		result = CUA_E_IO;
		goto out;
	}
	im.p = map;
	im.size = (size_t)sb.st_size;
	result = check_image(&im, policy, res, path, err, errlen);

out:
	if (map != MAP_FAILED)
		munmap(map, im.size);
	if (fd >= 0)
		close(fd);
	if (result != CUA_OK)
		memset(res, 0, sizeof *res);
	return result;
}
