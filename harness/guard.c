/* guard.c — seccomp filter on the instruction pointer (see guard.h). */
#include "guard.h"

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#define GUARD_SUPPORTED 1
#if defined(__x86_64__)
#define GUARD_ARCH AUDIT_ARCH_X86_64
#else
#define GUARD_ARCH AUDIT_ARCH_AARCH64
#endif
#else
#define GUARD_SUPPORTED 0
#endif

#define MAX_RANGES 1024
#define MAX_INSNS 4096   /* BPF_MAXINSNS */

static int cmp_range(const void *a, const void *b)
{
	const struct cua_guard_range *x = a, *y = b;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

int cua_guard_parse_maps(const char *maps, struct cua_guard_range *out, int max)
{
	int n = 0;
	for (const char *p = maps; p && *p;) {
		const char *nl = strchr(p, '\n');
		unsigned long long lo, hi;
		char perms[8];
		if (sscanf(p, "%llx-%llx %7s", &lo, &hi, perms) == 3 && strlen(perms) >= 3 &&
		    perms[2] == 'x' && hi > lo) {
			if (n == max)
				return -1;
			out[n].lo = lo;
			out[n].hi = hi;
			n++;
		}
		p = nl ? nl + 1 : NULL;
	}
	qsort(out, (size_t)n, sizeof(*out), cmp_range);
	int m = 0;
	for (int i = 0; i < n; i++) {
		if (m > 0 && out[i].lo <= out[m - 1].hi) {
			if (out[i].hi > out[m - 1].hi)
				out[m - 1].hi = out[i].hi;
		} else
			out[m++] = out[i];
	}
	return m;
}

#if GUARD_SUPPORTED

/* The filter compares 32-bit words, so each range is cut at 4 GiB boundaries:
 * a piece has one high word and a low-word interval [a, b), b == 0 meaning up
 * to the end of that 4 GiB (no upper comparison). */
struct piece {
	uint32_t high, a, b;
	bool open_end;
};

static int pieces(const struct cua_guard_range *r, int n, struct piece *out, int cap)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		for (uint64_t lo = r[i].lo; lo < r[i].hi;) {
			uint32_t high = (uint32_t)(lo >> 32);
			bool last = high == 0xffffffffu;   /* no block after this one */
			uint64_t block_end = last ? 0 : ((uint64_t)high + 1) << 32;
			bool open_end = last || r[i].hi >= block_end;
			if (k == cap)
				return -1;
			out[k].high = high;
			out[k].a = (uint32_t)lo;
			out[k].b = open_end ? 0 : (uint32_t)r[i].hi;
			out[k].open_end = open_end;
			k++;
			if (!open_end || last)
				break;
			lo = block_end;
		}
	return k;
}

#define STMT(code, k) ((struct sock_filter)BPF_STMT((code), (k)))
#define JUMP(code, k, jt, jf) ((struct sock_filter)BPF_JUMP((code), (k), (jt), (jf)))

static const uint32_t IP_LO = offsetof(struct seccomp_data, instruction_pointer);
static const uint32_t IP_HI = offsetof(struct seccomp_data, instruction_pointer) + 4;

static int build(const struct cua_guard_range *r, int n, struct sock_filter *prog, int cap)
{
	static struct piece pc[MAX_INSNS];
	int np = pieces(r, n, pc, MAX_INSNS);
	if (np < 0)
		return -1;
	int len = 3 + 1;
	for (int i = 0; i < np; i++)
		len += pc[i].open_end ? 5 : 6;
	if (len > MAX_INSNS)
		return -1;
	if (!prog)
		return len;
	if (cap < len)
		return -1;
	int k = 0;
	/* A system call through another ABI (i386 int 0x80 on x86-64) would see
	 * other numbers: nothing here uses one, so it ends the process. */
	prog[k++] = STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	prog[k++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, GUARD_ARCH, 1, 0);
	prog[k++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
	for (int i = 0; i < np; i++) {
		/* high word equal, low word >= a, (low word < b), then allow; any
		 * failed test skips to the next piece (jump offsets count from the
		 * instruction after the jump). */
		int size = pc[i].open_end ? 5 : 6;
		prog[k++] = STMT(BPF_LD | BPF_W | BPF_ABS, IP_HI);
		prog[k++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, pc[i].high, 0, (uint8_t)(size - 2));
		prog[k++] = STMT(BPF_LD | BPF_W | BPF_ABS, IP_LO);
		prog[k++] = JUMP(BPF_JMP | BPF_JGE | BPF_K, pc[i].a, 0, (uint8_t)(size - 4));
		if (!pc[i].open_end)
			prog[k++] = JUMP(BPF_JMP | BPF_JGE | BPF_K, pc[i].b, 1, 0);
		prog[k++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	}
	prog[k++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
	return k;
}

int cua_guard_program_len(const struct cua_guard_range *r, int n)
{
	return build(r, n, NULL, 0);
}

int cua_guard_program(const struct cua_guard_range *r, int n, void *prog, int cap)
{
	return build(r, n, prog, cap);
}

static void (*g_on_trap)(long, uintptr_t);

static void on_sigsys(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if (g_on_trap)
		g_on_trap((long)si->si_syscall, (uintptr_t)si->si_call_addr);
	_exit(125);
}

enum cua_status cua_guard_install(void (*on_trap)(long nr, uintptr_t ip), char *err,
                                  size_t errlen)
{
	char *maps = NULL;
	size_t len = 0;
	enum cua_status st = cua_read_file("/proc/self/maps", 64u << 20, &maps, &len, err,
	                                   errlen);
	if (st != CUA_OK)
		return st;
	static struct cua_guard_range r[MAX_RANGES];
	int n = cua_guard_parse_maps(maps, r, MAX_RANGES);
	free(maps);
	if (n <= 0) {
		cua_errf(err, errlen, "system-call guard: %s executable mappings in /proc/self/maps",
		         n < 0 ? "too many" : "no");
		return CUA_E_SYSTEM;
	}
	static struct sock_filter prog[MAX_INSNS];
	int plen = build(r, n, prog, MAX_INSNS);
	if (plen < 0) {
		cua_errf(err, errlen, "system-call guard: %d executable ranges make too long a "
		         "filter", n);
		return CUA_E_SYSTEM;
	}

	g_on_trap = on_trap;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	sigfillset(&sa.sa_mask);
	sigset_t sys;
	sigemptyset(&sys);
	sigaddset(&sys, SIGSYS);
	if (sigaction(SIGSYS, &sa, NULL) < 0 || sigprocmask(SIG_UNBLOCK, &sys, NULL) < 0) {
		cua_errf(err, errlen, "system-call guard: SIGSYS handler: %s", strerror(errno));
		return CUA_E_SYSTEM;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0) {
		cua_errf(err, errlen, "system-call guard: prctl: %s", strerror(errno));
		return CUA_E_SYSTEM;
	}
	struct sock_fprog fp = { .len = (unsigned short)plen, .filter = prog };
	long rc = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &fp);
	if (rc != 0) {
		if (rc > 0)
			cua_errf(err, errlen, "system-call guard: thread %ld could not take the "
			         "filter", rc);
		else
			cua_errf(err, errlen, "system-call guard: seccomp: %s", strerror(errno));
		return CUA_E_SYSTEM;
	}
	return CUA_OK;
}

#else

int cua_guard_program_len(const struct cua_guard_range *r, int n)
{
	return -1;
}

int cua_guard_program(const struct cua_guard_range *r, int n, void *prog, int cap)
{
	return -1;
}

enum cua_status cua_guard_install(void (*on_trap)(long nr, uintptr_t ip), char *err,
                                  size_t errlen)
{
	cua_errf(err, errlen, "system-call guard: not supported on this platform");
	return CUA_E_SYSTEM;
}

#endif
