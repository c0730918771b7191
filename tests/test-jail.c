/* test-jail.c — the kernel's process (harness/judge/jail.c): who it runs as, what it
 * sees and inherits, and which system calls its filter refuses. The namespace
 * tests need root (CI and the GPU machine run as root) and skip otherwise. */
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <sched.h>
#include <stdlib.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "judge/jail.h"

TestSuite(jail);

/* Runs `script` under /bin/sh in the jail; returns its output (static). */
static const char *jailed_sh(const char *script, struct cua_jail_info *info, int *status)
{
	static char out[8192];
	char path[] = "/tmp/cuarena-jail-XXXXXX";
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	unlink(path);
	int sv[2];
	cr_assert_eq(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	int stray = open("/dev/null", O_RDONLY);   /* a descriptor of ours, not inherited */
	const char *argv[] = { "sh", "-c", script, NULL };
	const char *env[] = { "PATH=/usr/bin:/bin", NULL };
	struct cua_jail_opts o;
	memset(&o, 0, sizeof(o));
	o.exe = "/bin/sh";
	o.argv = argv;
	o.env = env;
	o.dir = "/";
	o.sock_fd = sv[1];
	o.out_fd = fd;
	o.nofile = 256;
	pid_t pid;
	char err[256];
	cr_assert_eq(cua_jail_spawn(&o, &pid, info, err, sizeof(err)), CUA_OK, "%s", err);
	cr_assert_eq(waitpid(pid, status, 0), pid);
	close(stray);
	close(sv[0]);
	close(sv[1]);
	ssize_t n = pread(fd, out, sizeof(out) - 1, 0);
	out[n > 0 ? n : 0] = '\0';
	close(fd);
	return out;
}

Test(jail, runs_as_nobody_alone_in_its_pid_namespace_without_a_network)
{
	if (geteuid() != 0)
		cr_skip_test("needs root (CI and the GPU machine run as root)");
	struct cua_jail_info info;
	int st;
	const char *out = jailed_sh(
	    "echo uid=$(id -u) pid=$$; echo procs=$(ls /proc | grep -c '^[0-9]');"
	    "grep -E '^(NoNewPrivs|CapEff)' /proc/self/status;"
	    "echo ifaces=$(tail -n +3 /proc/net/dev | wc -l)", &info, &st);
	cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s", out);
	cr_expect(info.pid_ns && info.net_ns && info.user_dropped, "isolation %d %d %d",
	          info.pid_ns, info.net_ns, info.user_dropped);
	cr_expect_not_null(strstr(out, "uid=65534 pid=1"), "%s", out);
	/* sh, ls, grep (and the subshells): nothing of the machine's */
	int procs = -1;
	const char *p = strstr(out, "procs=");
	cr_assert_not_null(p, "%s", out);
	sscanf(p, "procs=%d", &procs);
	cr_expect(procs >= 1 && procs <= 6, "%d processes visible:\n%s", procs, out);
	cr_expect_not_null(strstr(out, "NoNewPrivs:\t1"), "%s", out);
	cr_expect_not_null(strstr(out, "CapEff:\t0000000000000000"), "%s", out);
	cr_expect_not_null(strstr(out, "ifaces=1"), "only lo: %s", out);
}

Test(jail, inherits_only_stdio_and_the_socket)
{
	struct cua_jail_info info;
	int st;
	const char *out = jailed_sh("ls /proc/self/fd | sort -n | tr '\\n' ' '", &info, &st);
	/* 0-2, 3 (the socket) and the descriptor ls uses to read the directory */
	cr_expect(!strncmp(out, "0 1 2 3 ", 8), "%s", out);
	int n = 0;
	for (const char *c = out; *c; c++)
		n += *c == ' ';
	cr_expect_leq(n, 5, "descriptors: %s", out);
}

Test(jail, the_child_cannot_become_root_again)
{
	if (geteuid() != 0)
		cr_skip_test("needs root");
	struct cua_jail_info info;
	int st;
	const char *out = jailed_sh("su -c true root 2>&1; echo rc=$?; id -u", &info, &st);
	cr_expect_null(strstr(out, "rc=0"), "%s", out);
	cr_expect_not_null(strstr(out, "65534"), "%s", out);
}

Test(jail, a_missing_program_is_reported_not_run)
{
	const char *argv[] = { "nope", NULL };
	const char *env[] = { NULL };
	struct cua_jail_opts o;
	memset(&o, 0, sizeof(o));
	o.exe = "/nonexistent/cuarena-cand";
	o.argv = argv;
	o.env = env;
	o.sock_fd = 0;
	o.out_fd = -1;
	pid_t pid;
	char err[256] = "";
	cr_expect_eq(cua_jail_spawn(&o, &pid, NULL, err, sizeof(err)), CUA_E_SYSTEM);
	cr_expect_not_null(strstr(err, "execve"), "%s", err);
}

/* ---- the filter ------------------------------------------------------------------ */

static void *thread_fn(void *a)
{
	return a;
}

enum act { NOTHING, THREAD, FORK, RAW_FORK, EXEC, SOCKET, OPEN_WRITE, OPEN_READ, PTRACE,
           KILL_OTHER, MMAP_EXEC, VM_READ, CLONE3, OPEN_DIR, OPEN_TMPFILE, OPEN_RDWR,
           OPEN_RDWR_TRUNC, OPEN_APPEND, HANDLED_FORK, HANDLED_SOCKET };

static void ignore_sigsys(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	(void)uc;   /* returns: the refused call would "fail quietly" */
}

/* What a kernel tried in held-out wave 2: its own SIGSYS handler, installed
 * after the filter, so that refused calls return instead of ending it. */
static void install_own_sigsys_handler(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = ignore_sigsys;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSYS, &sa, NULL);
	sigset_t sys;
	sigemptyset(&sys);
	sigaddset(&sys, SIGSYS);
	sigprocmask(SIG_UNBLOCK, &sys, NULL);
}

/* Forks, installs the filter in the child, does `a`; returns the wait status. */
static int filtered(enum act a)
{
	fflush(NULL);
	pid_t pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		int devnull = open("/dev/null", O_WRONLY);
		dup2(devnull, 2);   /* the handler's message */
		char err[256];
		if (cua_jail_filter_install(err, sizeof(err)) != CUA_OK)
			_exit(100);
		pthread_t t;
		struct iovec l = { err, 8 }, r = { err, 8 };
		switch (a) {
		case NOTHING: break;
		case THREAD:
			if (pthread_create(&t, NULL, thread_fn, NULL) || pthread_join(t, NULL))
				_exit(101);
			break;
		case FORK: fork(); break;
		case RAW_FORK: syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0); break;
		case HANDLED_FORK:
			install_own_sigsys_handler();
			syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
			break;
		case HANDLED_SOCKET:
			install_own_sigsys_handler();
			socket(AF_INET, SOCK_STREAM, 0);
			break;
		case EXEC: execl("/bin/true", "true", (char *)NULL); break;
		case SOCKET: socket(AF_INET, SOCK_STREAM, 0); break;
		case OPEN_WRITE: open("/tmp/cuarena-jail-w", O_WRONLY | O_CREAT, 0600); break;
		case OPEN_READ:
			if (open("/proc/self/status", O_RDONLY) < 0)
				_exit(102);
			break;
		case OPEN_DIR:
			if (open("/proc", O_RDONLY | O_DIRECTORY) < 0)
				_exit(105);
			break;
		case OPEN_TMPFILE: open("/tmp", O_TMPFILE | O_RDWR, 0600); break;
		case OPEN_RDWR:
			if (open("/dev/null", O_RDWR) < 0)
				_exit(106);
			break;
		case OPEN_RDWR_TRUNC: open("/dev/null", O_RDWR | O_TRUNC); break;
		case OPEN_APPEND: open("/dev/null", O_WRONLY | O_APPEND); break;
		case PTRACE: ptrace(PTRACE_TRACEME, 0, 0, 0); break;
		case KILL_OTHER: kill(1, 0); break;
		case MMAP_EXEC:
			if (mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) == MAP_FAILED)
				_exit(103);
			break;
		case VM_READ: syscall(SYS_process_vm_readv, getppid(), &l, 1, &r, 1, 0); break;
		case CLONE3:
			/* refused with ENOSYS (its flags are out of the filter's sight), so
			 * that glibc falls back to clone */
			if (syscall(SYS_clone3, NULL, 0) != -1 || errno != ENOSYS)
				_exit(104);
			break;
		}
		_exit(0);
	}
	int st;
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	return st;
}

static bool killed_by_sigsys(int st)
{
	return WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS;
}

static bool clean_exit(int st)
{
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

Test(jail, the_filter_lets_a_cuda_program_s_ordinary_calls_through)
{
	int st;
	cr_expect(clean_exit(st = filtered(NOTHING)), "status %#x", st);
	cr_expect(clean_exit(st = filtered(THREAD)), "threads are allowed: %#x", st);
	cr_expect(clean_exit(st = filtered(OPEN_READ)), "read-only opens: %#x", st);
	/* O_DIRECTORY is part of glibc's O_TMPFILE: a mask built from that refused
	 * every opendir (seen on the H200, 2026-12-01) */
	cr_expect(clean_exit(st = filtered(OPEN_DIR)), "directories: %#x", st);
	/* CUDA opens its device nodes read-write after the filter is in (cudaMallocAsync's
	 * pool, a reset: seen on the H200, 2026-12-01) */
	cr_expect(clean_exit(st = filtered(OPEN_RDWR)), "an existing file read-write: %#x", st);
	cr_expect(clean_exit(st = filtered(MMAP_EXEC)), "executable memory (the driver's "
	          "module loader needs it): %#x", st);
	cr_expect(clean_exit(st = filtered(CLONE3)), "clone3 answers ENOSYS: %#x", st);
}

Test(jail, the_filter_ends_a_process_that_forks_execs_or_reaches_out)
{
	static const struct { enum act a; const char *what; } refused[] = {
		{ FORK, "fork through libc" }, { RAW_FORK, "a raw clone of a process" },
		{ EXEC, "execve" }, { SOCKET, "socket" }, { OPEN_WRITE, "open for writing" },
		{ PTRACE, "ptrace" }, { KILL_OTHER, "kill" }, { VM_READ, "process_vm_readv" },
		{ OPEN_TMPFILE, "an unnamed file for writing" },
		{ OPEN_RDWR_TRUNC, "truncating" }, { OPEN_APPEND, "appending" },
		{ HANDLED_FORK, "a fork under the process's own SIGSYS handler" },
		{ HANDLED_SOCKET, "a socket under the process's own SIGSYS handler" },
	};
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		int st = filtered(refused[i].a);
		cr_expect(killed_by_sigsys(st), "%s: status %#x", refused[i].what, st);
	}
}

Test(jail, the_filter_names_the_calls_it_knows)
{
	cr_expect_str_eq(cua_jail_syscall_name(SYS_clone), "clone");
	cr_expect_str_eq(cua_jail_syscall_name(SYS_ioctl), "ioctl");
	cr_expect_null(cua_jail_syscall_name(100000));
	const void *prog;
	cr_expect_gt(cua_jail_filter_program(&prog), 100);
	cr_expect_lt(cua_jail_filter_program(&prog), 4096);
}

/* ---- confining oneself (the kernel's process at LOAD) ----------------------------- */

/* In a forked child of its own mount namespace, as root: confine to a view with
 * `object`, then report what can be reached, as exit-code bits. */
enum { C_UID = 1, C_OBJECT = 2, C_NO_PASSWD = 4, C_NO_TOOLKIT = 8, C_TMP = 16,
       C_DEVNULL = 32, C_NO_CUBLAS = 64, C_OOM = 128 };

static int confined_child(const char *object, int *rc_confine)
{
	fflush(NULL);
	int pfd[2];
	cr_assert_eq(pipe(pfd), 0);
	pid_t pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		close(pfd[0]);
		int bits = 0, rc = -1;
		if (unshare(CLONE_NEWNS) == 0) {
			/* (no data ceiling here: the next test has it, and a sanitizer's
			 * allocator would trip on it in dlopen) */
			struct cua_jail_confine c = { object, true, 256, 0 };
			char err[256];
			rc = cua_jail_confine(&c, err, sizeof(err)) == CUA_OK ? 0 : 1;
			if (rc)
				(void)!write(2, err, strlen(err));
		}
		(void)!write(pfd[1], &rc, sizeof(rc));
		if (rc == 0) {
			bits |= getuid() == CUA_JAIL_UID && geteuid() == CUA_JAIL_UID ? C_UID : 0;
			bits |= access(CUA_JAIL_OBJECT, R_OK) == 0 ? C_OBJECT : 0;
			bits |= access("/etc/passwd", F_OK) != 0 ? C_NO_PASSWD : 0;
			bits |= access("/usr/local/cuda", F_OK) != 0 ? C_NO_TOOLKIT : 0;
			int t = open("/tmp/x", O_WRONLY | O_CREAT, 0600);
			bits |= t >= 0 ? C_TMP : 0;
			bits |= access("/dev/null", W_OK) == 0 ? C_DEVNULL : 0;
			/* the road of held-out wave 2: dlopen found in libc, a library from the
			 * toolkit's folder (one this test program does not link: dlopen would
			 * hand back a copy already loaded) */
			bits |= open("/usr/local/cuda/lib64/libcublas.so.13", O_RDONLY) < 0 &&
			                dlopen("/usr/local/cuda/lib64/libcurand.so.10", RTLD_NOW) == NULL &&
			                dlopen("libcurand.so.10", RTLD_NOW) == NULL
			            ? C_NO_CUBLAS : 0;
			char buf[16] = "";
			int o = open("/proc/self/oom_score_adj", O_RDONLY);
			if (o >= 0 && read(o, buf, sizeof(buf) - 1) > 0 && atoi(buf) == 1000)
				bits |= C_OOM;
		}
		_exit(bits);
	}
	close(pfd[1]);
	*rc_confine = -2;
	(void)!read(pfd[0], rc_confine, sizeof(*rc_confine));
	close(pfd[0]);
	int st;
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

Test(jail, a_confined_process_sees_its_object_the_device_nodes_and_a_tmp_alone)
{
	if (geteuid() != 0)
		cr_skip_test("needs root (the judge confines the kernel's process as root)");
	char obj[] = "/tmp/cuarena-obj-XXXXXX";
	int fd = mkstemp(obj);
	cr_assert(fd >= 0);
	(void)!write(fd, "\x7f" "ELF", 4);
	close(fd);
	chmod(obj, 0444);   /* as the judge stages it */
	/* the library is reachable before: the test would mean nothing otherwise */
	bool cublas_here = access("/usr/local/cuda/lib64/libcublas.so.13", R_OK) == 0 &&
	                   access("/usr/local/cuda/lib64/libcurand.so.10", R_OK) == 0;
	int rc = -2, bits = confined_child(obj, &rc);
	unlink(obj);
	if (rc == -1)
		cr_skip_test("no mount namespace here");
	cr_assert_eq(rc, 0, "cua_jail_confine failed");
	cr_expect(bits & C_UID, "runs as uid %d", CUA_JAIL_UID);
	cr_expect(bits & C_OBJECT, "the object is at %s", CUA_JAIL_OBJECT);
	cr_expect(bits & C_NO_PASSWD, "/etc/passwd is gone");
	cr_expect(bits & C_NO_TOOLKIT, "the toolkit's folder is gone");
	cr_expect(bits & C_TMP, "a private /tmp is writable");
	cr_expect(bits & C_DEVNULL, "/dev/null is there");
	if (cublas_here)
		cr_expect(bits & C_NO_CUBLAS, "the toolkit's libraries cannot be opened any more");
	cr_expect(bits & C_OOM, "the OOM killer takes it first");
}

Test(jail, a_confined_process_has_a_ceiling_on_its_host_memory)
{
	if (geteuid() != 0)
		cr_skip_test("needs root");
	fflush(NULL);
	pid_t pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		struct cua_jail_confine c = { "/dev/null", false, 0, 256ull << 20 };   /* RLIMIT_DATA */
		char err[256];
		if (cua_jail_confine(&c, err, sizeof(err)) != CUA_OK)
			_exit(2);
		/* 1 GiB of private writable memory over a 256 MiB headroom: mmap itself,
		 * not malloc, whose failure a sanitizer's allocator reports as fatal */
		void *big = mmap(NULL, (size_t)1 << 30, PROT_READ | PROT_WRITE,
		                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		_exit(big == MAP_FAILED ? 0 : 1);
	}
	int st;
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %#x", st);
}

Test(jail, a_process_s_status_fields_are_read_in_bytes_and_numbers)
{
	long rss = cua_jail_status_field(0, "VmRSS:");
	cr_expect_gt(rss, 1 << 20, "VmRSS in bytes: %ld", rss);
	cr_expect_eq(cua_jail_status_field(getpid(), "Uid:"), (long)getuid());
	cr_expect_eq(cua_jail_status_field(0, "NoSuchField:"), -1);
	cr_expect_eq(cua_jail_status_field(999999999, "Uid:"), -1, "no such process");
}
