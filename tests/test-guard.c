/* test-guard.c — the runner's system-call guard (harness/guard.c): which
 * ranges it trusts, the filter it builds (run through a small classic-BPF
 * interpreter at range edges and across 4 GiB boundaries), and, installed in a
 * forked child, what it lets through and what it traps (tests/data/so/). */
#include <criterion/criterion.h>

#include <dlfcn.h>
#include <pthread.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guard.h"

#if defined(__x86_64__)
#define NATIVE_ARCH AUDIT_ARCH_X86_64
#else
#define NATIVE_ARCH AUDIT_ARCH_AARCH64
#endif

Test(guard, parse_maps_keeps_executable_ranges_sorted_and_merged)
{
	const char *maps =
	    "7f0000003000-7f0000004000 r-xp 00000000 08:01 12 /usr/lib/libc.so.6\n"
	    "7f0000000000-7f0000001000 r--p 00000000 08:01 12 /usr/lib/libc.so.6\n"
	    "7f0000001000-7f0000003000 r-xp 00001000 08:01 12 /usr/lib/libc.so.6\n"
	    "7f0000005000-7f0000006000 rw-p 00000000 00:00 0\n"
	    "555500000000-555500002000 r-xp 00000000 08:01 7 /usr/bin/cuarena\n"
	    "7f0000002800-7f0000003800 r-xp 00000000 00:00 0\n"
	    "ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0 [vsyscall]\n"
	    "not a maps line\n"
	    "7ffd00000000-7ffd00002000 r-xp 00000000 00:00 0 [vdso]";
	struct cua_guard_range r[8];
	int n = cua_guard_parse_maps(maps, r, 8);
	cr_assert_eq(n, 4);
	cr_expect_eq(r[0].lo, 0x555500000000ull);
	cr_expect_eq(r[0].hi, 0x555500002000ull);
	cr_expect_eq(r[1].lo, 0x7f0000001000ull);   /* three pieces, touching/overlapping */
	cr_expect_eq(r[1].hi, 0x7f0000004000ull);
	cr_expect_eq(r[2].lo, 0x7ffd00000000ull);
	cr_expect_eq(r[3].lo, 0xffffffffff600000ull);
	cr_expect_eq(cua_guard_parse_maps(maps, r, 3), -1, "more ranges than room is an error");
}

/* ---- the filter, run by a classic-BPF interpreter ------------------------- */

static uint32_t run_bpf(const struct sock_filter *p, int len, uint32_t arch, uint64_t ip)
{
	struct seccomp_data d;
	memset(&d, 0, sizeof(d));
	d.nr = 39;
	d.arch = arch;
	d.instruction_pointer = ip;
	uint32_t a = 0;
	for (int pc = 0; pc < len; pc++) {
		const struct sock_filter *f = &p[pc];
		switch (f->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			cr_assert(f->k + 4 <= sizeof(d), "load past seccomp_data at %d", pc);
			memcpy(&a, (const char *)&d + f->k, 4);
			break;
		case BPF_JMP | BPF_JEQ | BPF_K:
			pc += a == f->k ? f->jt : f->jf;
			break;
		case BPF_JMP | BPF_JGE | BPF_K:
			pc += a >= f->k ? f->jt : f->jf;
			break;
		case BPF_RET | BPF_K:
			return f->k;
		default:
			cr_assert_fail("unexpected BPF instruction %#x at %d", f->code, pc);
		}
		cr_assert(pc + 1 <= len, "jump past the end at %d", pc);
	}
	cr_assert_fail("the filter fell off its end");
	return 0;
}

Test(guard, filter_allows_exactly_the_ranges)
{
	const struct cua_guard_range r[] = {
		{ 0x1000, 0x2000 },
		{ 0xfffff000ull, 0x100001000ull },             /* crosses 4 GiB */
		{ 0x7fff00000000ull, 0x7fff00001000ull },
		{ 0x7ffeffffe000ull, 0x7fff00000000ull },     /* ends on a 4 GiB boundary */
		{ 0x200000000ull, 0x500000010ull },           /* spans whole 4 GiB blocks */
		{ 0xffffffff00000010ull, 0xffffffffffffffffull },
	};
	int n = (int)(sizeof(r) / sizeof(r[0]));
	int len = cua_guard_program_len(r, n);
	cr_assert_gt(len, 0);
	struct sock_filter *p = calloc((size_t)len, sizeof(*p));
	cr_assert_eq(cua_guard_program(r, n, p, len), len);
	cr_expect_eq(cua_guard_program(r, n, p, len - 1), -1, "a short buffer is refused");

	const struct { uint64_t ip; bool ok; } cases[] = {
		{ 0xfff, false }, { 0x1000, true }, { 0x1fff, true }, { 0x2000, false },
		{ 0xffffefff, false }, { 0xfffff000, true }, { 0xffffffff, true },
		{ 0x100000000ull, true }, { 0x100000fffull, true }, { 0x100001000ull, false },
		{ 0x1ffffffffull, false }, { 0x0fff00000000ull, false },
		{ 0x7ffeffffdfffull, false }, { 0x7ffeffffe000ull, true },
		{ 0x7ffeffffffffull, true }, { 0x7fff00000000ull, true },
		{ 0x7fff00000fffull, true }, { 0x7fff00001000ull, false },
		{ 0x1ffffffffull, false }, { 0x200000000ull, true }, { 0x3ffffffffull, true },
		{ 0x400000000ull, true }, { 0x50000000full, true }, { 0x500000010ull, false },
		{ 0xffffffff0000000full, false }, { 0xffffffff00000010ull, true },
		{ 0xfffffffffffffffeull, true },
		{ 0x00001000ull | (0x7fffull << 32), false },  /* right low word, wrong high */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t ret = run_bpf(p, len, NATIVE_ARCH, cases[i].ip);
		cr_expect_eq(ret, cases[i].ok ? SECCOMP_RET_ALLOW : SECCOMP_RET_TRAP,
		             "ip %#llx: got %#x", (unsigned long long)cases[i].ip, ret);
	}
	cr_expect_eq(run_bpf(p, len, AUDIT_ARCH_I386, 0x1000), SECCOMP_RET_KILL_PROCESS,
	             "another system-call ABI ends the process");
	free(p);
}

Test(guard, filter_too_long_is_refused)
{
	enum { N = 1000 };
	static struct cua_guard_range r[N];
	for (int i = 0; i < N; i++) {
		r[i].lo = 0x10000ull * (uint64_t)(2 * i + 1);
		r[i].hi = r[i].lo + 0x1000;
	}
	cr_expect_eq(cua_guard_program_len(r, N), -1);
}

/* ---- installed, in a forked child ----------------------------------------- */

static int trap_fd = -1;

static void on_trap(long nr, uintptr_t ip)
{
	char line[96];
	int n = snprintf(line, sizeof(line), "trap %ld %#llx\n", nr, (unsigned long long)ip);
	(void)!write(trap_fd, line, (size_t)n);
	_exit(3);
}

static const char *fixture(const char *name)
{
	static char path[4096];
	const char *build = getenv("CUARENA_BUILD");
	snprintf(path, sizeof path, "%s/tests/so/%s.so", build && *build ? build : "build",
	         name);
	cr_assert(access(path, R_OK) == 0, "fixture %s is not built (make test)", path);
	return path;
}

enum mode { LIBC_ONLY, RAW, JIT, CTOR, OLD_THREAD };

/* OLD_THREAD: a thread started before the guard (as the CUDA driver's are)
 * makes the raw call once the guard is in: the filter covers every thread. */
static int go_pipe[2];
static long (*old_thread_raw)(void);

static void *old_thread(void *arg)
{
	(void)arg;
	char c;
	if (read(go_pipe[0], &c, 1) == 1)
		dprintf(trap_fd, "thread returned %ld\n", old_thread_raw());
	return NULL;
}

/* Runs `mode` in a child under the guard; returns its report and exit status. */
static int guarded_child(enum mode mode, char *report, size_t cap)
{
	const char *so = fixture(mode == CTOR ? "raw-syscall-ctor" : "raw-syscall");
	int pfd[2];
	cr_assert_eq(pipe(pfd), 0);
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		close(pfd[0]);
		trap_fd = pfd[1];
		pthread_t th;
		if (mode == OLD_THREAD &&
		    (pipe(go_pipe) != 0 || pthread_create(&th, NULL, old_thread, NULL) != 0))
			_exit(2);
		char err[CUA_ERR_LEN];
		if (cua_guard_install(on_trap, err, sizeof(err)) != CUA_OK) {
			dprintf(trap_fd, "install failed: %s\n", err);
			_exit(2);
		}
		dprintf(trap_fd, "installed pid %ld\n", (long)getpid());
		void *h = dlopen(so, RTLD_NOW | RTLD_LOCAL);
		if (!h) {
			dprintf(trap_fd, "dlopen failed\n");
			_exit(2);
		}
		long (*libc_getpid)(void) = (long (*)(void))dlsym(h, "fixture_libc_getpid");
		long (*raw)(void) = (long (*)(void))dlsym(h, "fixture_raw_getpid");
		long (*jit)(void) = (long (*)(void))dlsym(h, "fixture_jit_getpid");
		dprintf(trap_fd, "libc %ld\n", libc_getpid());
		if (mode == RAW) {
			dprintf(trap_fd, "raw at %#llx\n", (unsigned long long)(uintptr_t)raw);
			dprintf(trap_fd, "raw returned %ld\n", raw());
		} else if (mode == JIT)
			dprintf(trap_fd, "jit returned %ld\n", jit());
		else if (mode == OLD_THREAD) {
			old_thread_raw = raw;
			(void)!write(go_pipe[1], "g", 1);
			pthread_join(th, NULL);
		}
		_exit(0);
	}
	close(pfd[1]);
	size_t got = 0;
	ssize_t r;
	while (got + 1 < cap && (r = read(pfd[0], report + got, cap - 1 - got)) > 0)
		got += (size_t)r;
	report[got] = '\0';
	close(pfd[0]);
	int status = 0;
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	return status;
}

Test(guard, libc_and_preloaded_code_still_make_system_calls)
{
	char rep[1024];
	int status = guarded_child(LIBC_ONLY, rep, sizeof(rep));
	long pid = 0, libc = 0;
	cr_assert(sscanf(rep, "installed pid %ld\nlibc %ld", &pid, &libc) == 2, "report: %s",
	          rep);
	cr_expect_eq(libc, pid, "getpid through libc from the loaded object works");
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "report: %s", rep);
}

Test(guard, raw_syscall_from_loaded_code_is_trapped_with_its_address)
{
	char rep[1024];
	int status = guarded_child(RAW, rep, sizeof(rep));
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 3, "report: %s", rep);
	cr_expect_null(strstr(rep, "raw returned"), "the call went through: %s", rep);
	const char *at = strstr(rep, "raw at "), *tr = strstr(rep, "trap ");
	cr_assert(at && tr, "report: %s", rep);
	unsigned long long fn = strtoull(at + 7, NULL, 16), ip = 0;
	long nr = -1;
	cr_assert_eq(sscanf(tr, "trap %ld %llx", &nr, &ip), 2);
	cr_expect_eq(nr, SYS_getpid);
	cr_expect(ip >= fn && ip < fn + 256, "trapped at %#llx, function at %#llx", ip, fn);
}

/* Runs `mode` under the guard: its getpid(2) must be trapped, and the report
 * must not hold `went_through` (what the child says when the call returned). */
static void expect_getpid_trapped(enum mode mode, const char *went_through)
{
	char rep[1024], want[32];
	int status = guarded_child(mode, rep, sizeof(rep));
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 3, "report: %s", rep);
	cr_expect_null(strstr(rep, went_through), "the call went through: %s", rep);
	snprintf(want, sizeof(want), "trap %d ", SYS_getpid);
	cr_expect_not_null(strstr(rep, want), "report: %s", rep);
}

Test(guard, code_written_into_mapped_memory_is_trapped)
{
	expect_getpid_trapped(JIT, "jit returned");
}

Test(guard, constructor_run_by_dlopen_is_trapped)
{
	expect_getpid_trapped(CTOR, "libc ");   /* dlopen never returned */
}

/* The CUDA driver's threads exist before the runner installs the guard. */
Test(guard, threads_started_before_the_guard_are_guarded_too)
{
	expect_getpid_trapped(OLD_THREAD, "thread returned");
}
