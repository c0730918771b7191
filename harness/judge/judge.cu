/* judge.cu — judges one compiled kernel (.so) on one task. The judge never runs
 * the kernel's code: it starts the candidate's process (build/cuarena-cand,
 * cand/main.cu) in a jail (jail.h), shares device buffers with it (vmm.cuh),
 * commands it over a socket (wire.h), and owns everything else: seeds, inputs,
 * poison and guard bands, the fp64 oracle, the comparison, the L2 flush, the
 * clock and the verdict.
 *
 * Built into build/cuarena by the Makefile (nvcc, sm_90a); run only as
 *   cuarena __judge --task DIR --so K.so --oracle REF.so --fd N --seeds A,B,C
 *                   [--checker LIB.so] [--time] [--max-time-s X] [--subject NAME]
 *                   [--trusted] [--timeout S]
 * by the parent (eval.c), with the report channel's key in $CUARENA_CHANNEL_KEY
 * (channel.h), read and wiped at once; or, as the parent's long-lived judge of
 * one GPU (judges.c), as `cuarena __judge --serve --fd N`, taking those same
 * options and the key job after job on its stdin (runner.h). Each job draws its
 * own secret, 256 bits from the OS, and derives from it a key per secret case,
 * timed sample and re-check (rng.h): the parent never has it. Order of work,
 * per DESIGN.md §4:
 *   0. the candidate's process starts (in parallel with our CUDA start-up); the
 *      timed shape's buffers are shared with it and the fixed cost of one timed
 *      sample is calibrated with an empty kernel, before any of the kernel's code
 *      is in that process; then it loads the kernel under its system-call filter.
 *   1. every check shape, then the timed shape: for each public seed and a secret
 *      key of the shape's own: generate inputs, poison outputs and guard bands,
 *      command a call, wait for it, verify guards and inputs, then regenerate
 *      the inputs in private memory, compute the fp64 oracle from them (in memory
 *      the candidate cannot map), compare, and judge the precision by accuracy
 *      (accuracy.h: the oracle again on inputs rounded to the precision the
 *      task forbids; on every check-shape case and the timed shape's secret one).
 *   2. timing at the timed shape: per sample, fresh inputs from a key of its own are
 *      made in private memory, the expected output computed there by a trusted
 *      kernel (the checker), outputs poisoned, the inputs published into the shared
 *      buffers under a watchdog that sees any GPU work of the candidate before the
 *      clock starts, L2 flushed; the sample is the judge's clock from "run" until
 *      its own comparison has found the outputs complete and right, minus the
 *      calibrated fixed cost. The candidate's own times are a claim, cross-checked.
 *   3. a re-check at the timed shape with a fresh seed.
 *
 * Longer than docs/CODE-STYLE.md's ~900 lines on purpose: it is one child program, read
 * top to bottom in sections (channel, kernels, buffers, cases, timing, jobs,
 * selftest), as llm.c's train_gpt2.cu is; splitting it would scatter the judge's
 * state (its one job, its persistent buffers) across files that each need all of it.
 */
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <stddef.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "cuarena.h"
extern "C" {
#include "judge/channel.h"
#include "common.h"
#include "judge/stats.h"
#include "catalogue/task.h"
#include "judge/verdict.h"
#include "judge/device.h"
#include "judge/runner.h"
}
#include "rng.h"
#include "judge/gen.cuh"
#include "judge/accuracy.cuh"
#include "judge/compare.h"
#include "judge/vmm.cuh"
extern "C" {
#include "judge/jail.h"
#include "sandbox.h"
#include "judge/wire.h"
}
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

typedef int (*solve_fn)(const struct cua_tensor *, int, struct cua_tensor *, int,
                        cudaStream_t);

static const size_t GUARD_BYTES = 64 * 1024;
#define MAX_SETS 6   /* input sets rotated while timing */

/* ---- report channel ------------------------------------------------------- */

static int report_fd = -1;
static struct cua_channel_key g_key;   /* from the parent; lines are sealed with it */
static bool g_have_key;
static uint64_t g_seq;                 /* lines written so far */

static void emit(cJSON *obj)
{
	char *s = cJSON_PrintUnformatted(obj);
	cJSON_Delete(obj);
	if (!s)
		return;
	size_t left = 0;
	char *line = g_have_key ? cua_channel_seal(&g_key, g_seq++, s, strlen(s), &left) : NULL;
	free(s);
	const char *p = line;
	while (p && report_fd >= 0 && left > 0) {
		ssize_t w = write(report_fd, p, left);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		p += w;
		left -= (size_t)w;
	}
	free(line);
}

/* The channel key comes in the environment: read it, then wipe it where it
 * lies (the strings /proc/self/environ shows) before any candidate code runs. */
static void take_channel_key(void)
{
	char *v = getenv(CUA_CHANNEL_KEY_ENV);
	g_have_key = v && cua_channel_key_parse(v, &g_key);
	if (v)
		memset(v, 0, strlen(v));
	unsetenv(CUA_CHANNEL_KEY_ENV);
}

static void emit_phase(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "event", "phase");
	cJSON_AddStringToObject(o, "what", buf);
	emit(o);
}

static void cand_stop(void);

/* Where a judgement's seconds go ("cuda 0.14 alloc 0.31 …", seconds since the
 * judge started), sent with the result: the fixed cost of the process split
 * is what throughput depends on. */
static char g_profile[320];
static double g_t0;
static void mark(const char *what)
{
	size_t n = strlen(g_profile);
	if (n + 24 < sizeof(g_profile))
		snprintf(g_profile + n, sizeof(g_profile) - n, "%s%s %.3f", n ? " " : "", what,
		         cua_now() - g_t0);
}

/* Emits the final result line and ends the process: the context dies with it,
 * and the candidate's process (killed first, its output copied to our stderr). */
static void finish(enum cua_verdict v, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));
/* Serving (`__judge --serve`): one job after another in this process, each
 * ended by finish(), which returns here for the next (judge_serve). */
static bool g_serving;
static jmp_buf g_next_job;
static bool job_reset(enum cua_verdict v);
static bool g_quiet;   /* making the spare: a failure ends it, nothing is said */
static void spare_failed(void) __attribute__((noreturn));
static bool g_kernel_loaded;   /* the kernel's code is in its process */
/* Free device memory just before the kernel was loaded, and what the judge
 * allocated itself since: a kernel's scratch is freed before cua_solve returns
 * (the ABI), so memory missing beyond that is the kernel's process's. */
static size_t g_free_at_load, g_post_load_bytes;

static void finish(enum cua_verdict v, const char *fmt, ...)
{
	if (g_quiet)
		spare_failed();
	char buf[CUA_MSG_LEN];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* Our own CUDA calls fail for one reason the kernel controls: it took the
	 * device's memory (every buffer of ours exists before it loads, but the
	 * oracle and the checker may need scratch). That is the kernel's verdict. */
	size_t free_b = 0, total_b = 0;
	double grown = 0;   /* GiB the kernel's process took since it was loaded, and kept */
	if (v == CUA_VERDICT_HARNESS_ERROR && g_kernel_loaded &&
	    cudaMemGetInfo(&free_b, &total_b) == cudaSuccess)
		grown = ((double)g_free_at_load - (double)free_b - (double)g_post_load_bytes) /
		        1073741824.0;
	if (v == CUA_VERDICT_HARNESS_ERROR && g_kernel_loaded && free_b &&
	    (free_b < ((size_t)2 << 30) || grown > 1.0)) {
		char tmp[CUA_MSG_LEN];
		snprintf(tmp, sizeof(tmp), "the kernel's process holds the device's memory "
		         "(%.2f of %.0f GiB free, %.1f GiB more than before it was loaded) and the "
		         "judge could not work: %.*s", free_b / 1073741824.0,
		         total_b / 1073741824.0, grown > 0 ? grown : 0, (int)sizeof(tmp) / 2, buf);
		memcpy(buf, tmp, sizeof(buf));
		v = CUA_VERDICT_RUNTIME_ERROR;
	}
	cudaGetLastError();
	mark("end");
	cand_stop();
	mark("stopped");
	/* A judge that stays for the next job gives back all this one held first,
	 * and says whether it can (the parent starts a fresh one if not). */
	bool last = g_serving && !job_reset(v);
	cJSON *pr = cJSON_CreateObject();
	cJSON_AddStringToObject(pr, "event", "profile");
	cJSON_AddStringToObject(pr, "what", g_profile);
	emit(pr);
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "event", "result");
	cJSON_AddStringToObject(o, "verdict", cua_verdict_name(v));
	cJSON_AddStringToObject(o, "message", buf);
	if (g_serving)
		cJSON_AddBoolToObject(o, "last", last);
	emit(o);
	fflush(stdout);
	fflush(stderr);
	if (g_serving && !last)
		longjmp(g_next_job, 1);
	_exit(0);
}

/* A CUDA call of the harness itself failed outside the candidate's call. */
#define HARNESS_TRY(call)                                                          \
	do {                                                                           \
		cudaError_t e_ = (call);                                                   \
		if (e_ != cudaSuccess)                                                     \
			finish(CUA_VERDICT_HARNESS_ERROR, "%s failed: %s (%s)", #call,         \
			       cudaGetErrorString(e_), cudaGetErrorName(e_));                  \
	} while (0)

/* ---- the job ------------------------------------------------------------------ */

struct job {
	const char *task_dir, *so, *oracle_so, *subject;
	uint64_t seeds[8];
	int n_seeds;
	struct cua_rng_key master; /* this job's secret: 256 bits from the OS, drawn by the
	                            * judge itself, split into a key per case and sample */
	bool time;
	double max_time_s;
	int min_samples;
	bool degeneracy;          /* --degeneracy: prove the task is not degenerate */
	bool trusted;             /* --trusted: the harness's own kernel (no filter) */
	const char *checker_so;   /* --checker: trusted kernel giving timed samples' answers */
	const char *so_sha256, *oracle_sha256, *checker_sha256; /* their builds' digests */
	double timeout_s;         /* --timeout: the whole judgement (the parent kills later) */
	const char *dump_dir;     /* --dump DIR: write inputs and oracle outputs */
};

/* The inputs of one correctness case: the key they are generated from, and
 * what the case is. */
struct case_key {
	struct cua_rng_key key;
	uint64_t seed;      /* its public seed; 0 for a key derived from the job's secret */
	bool secret, recheck;
	bool precision;     /* the precision rule is judged on it (check_precision) */
};

/* The job's own secret, from the OS: the parent never has it, the kernel's
 * process never sees it, and no input reveals it (rng.h). */
static bool draw_master(struct job *job)
{
	size_t got = 0;
	while (got < sizeof(job->master)) {
		ssize_t r = getrandom((char *)&job->master + got, sizeof(job->master) - got, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		got += (size_t)r;
	}
	return true;
}

static struct case_key public_case(uint64_t seed, bool precision)
{
	struct case_key c;
	memset(&c, 0, sizeof(c));
	cua_rng_public(seed, &c.key);
	c.seed = seed;
	c.precision = precision;
	return c;
}

static struct case_key secret_case(const struct job *job, uint32_t purpose, uint64_t index)
{
	struct case_key c;
	memset(&c, 0, sizeof(c));
	cua_rng_derive(&job->master, purpose, index, &c.key);
	c.secret = purpose != CUA_RNG_RECHECK;
	c.recheck = purpose == CUA_RNG_RECHECK;
	return c;
}

/* A path built under one of ours (common.h's rule: a CUA_PATH_BUF, never cut):
 * one that would not fit is the harness's error, named. */
static void judge_pathf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void judge_pathf(char *buf, size_t len, const char *fmt, ...)
{
	char err[CUA_ERR_LEN];
	va_list ap;
	va_start(ap, fmt);
	enum cua_status r = cua_vpathf(buf, len, err, sizeof(err), fmt, ap);
	va_end(ap);
	if (r != CUA_OK)
		finish(CUA_VERDICT_HARNESS_ERROR, "%s", err);
}

/* ---- the candidate's process ---------------------------------------------------- */

/* The one process that runs the kernel's code. Everything it says is a claim. */
static struct cand_proc {
	pid_t pid;               /* -1: none */
	int sock;
	int out_fd;              /* its stdout+stderr (a file in dir) */
	char dir[CUA_PATH_BUF];  /* cand/ in our private temp dir */
	struct cua_jail_info info;
	uint32_t seq;
	uint32_t slots_used;     /* bit per slot */
	double deadline;         /* cua_now() by which every answer must have come */
	bool dead;
} C = { -1, -1, -1, "", {}, 0, 0, 0, false };
static const struct cand_proc CAND_NONE = { -1, -1, -1, "", {}, 0, 0, 0, false };
/* A serving judge starts the next job's process after each job, while the
 * parent is busy with the answer: it comes up (CUDA and all) off the clock of
 * the next evaluation. It has no kernel and no buffer until that job. */
static struct cand_proc g_spare = CAND_NONE;
static char g_spare_dir[CUA_PATH_BUF];
#define SPARE_TIMEOUT_S 600

static void copy_out_tail(void)
{
	if (C.out_fd < 0)
		return;
	char path[CUA_PATH_BUF], *buf = NULL;
	size_t len = 0;
	judge_pathf(path, sizeof(path), "%s/output", C.dir);
	if (cua_read_file(path, 64u << 20, &buf, &len, NULL, 0) == CUA_OK && len) {
		size_t from = len > 32768 ? len - 32768 : 0;
		fprintf(stderr, "--- the candidate's process wrote%s:\n", from ? " (tail)" : "");
		fwrite(buf + from, 1, len - from, stderr);
		if (buf[len - 1] != '\n')
			fputc('\n', stderr);
	}
	free(buf);
	close(C.out_fd);
	C.out_fd = -1;
}

static void cand_stop(void)
{
	if (C.pid > 0) {
		kill(C.pid, SIGKILL);   /* pid 1 of its namespace: everything in it dies */
		int st;
		while (waitpid(C.pid, &st, 0) < 0 && errno == EINTR)
			;
		C.pid = -1;
	}
	if (C.sock >= 0)
		close(C.sock);
	C.sock = -1;
	copy_out_tail();
}

/* The candidate's process is gone or broke the protocol: the verdict comes from
 * how it ended. Does not return. */
static void cand_died(const char *during) __attribute__((noreturn));
static void cand_died(const char *during)
{
	int st = 0;
	pid_t r = -1;
	if (C.pid > 0) {
		/* it closed the socket: give it a moment to finish dying */
		for (int i = 0; i < 200 && (r = waitpid(C.pid, &st, WNOHANG)) == 0; i++)
			usleep(5000);
		if (r == 0) {
			kill(C.pid, SIGKILL);
			while ((r = waitpid(C.pid, &st, 0)) < 0 && errno == EINTR)
				;
			st = 0;
			r = -2;   /* alive but not talking */
		}
		C.pid = -1;
	}
	if (r > 0 && WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS)
		finish(CUA_VERDICT_SANDBOX_VIOLATION, "the kernel's process was killed by its "
		       "system-call filter during %s: it made a call the sandbox refuses "
		       "(processes, exec, sockets, files opened to write, signals to other "
		       "processes, namespaces, ptrace, ...)", during);
	if (r > 0 && WIFSIGNALED(st))
		finish(CUA_VERDICT_CRASH, "the kernel's process died of %s during %s",
		       cua_signal_desc(WTERMSIG(st)), during);
	if (r > 0 && WIFEXITED(st))
		finish(CUA_VERDICT_CRASH, "the kernel's process exited (status %d) during %s",
		       WEXITSTATUS(st), during);
	finish(CUA_VERDICT_CRASH, "the kernel's process stopped answering the judge during %s",
	       during);
}

static void cand_send(struct cua_wire_msg *m, const int *fds, int n, const char *during)
{
	m->magic = CUA_WIRE_MAGIC;
	m->seq = C.seq++;
	if (cua_wire_send(C.sock, m, fds, n) < 0)
		cand_died(during);
}

/* Waits for the next answer (busy-polled when spin). Verdicts: timeout at the
 * deadline, the death's at a closed socket, crash at garbage. */
static void cand_recv(struct cua_wire_msg *m, bool spin, const char *during)
{
	bool bad = false;
	int r = cua_wire_recv(C.sock, m, NULL, 0, NULL, spin ? C.deadline : 0, C.deadline, &bad);
	if (r < 0 && errno == ETIMEDOUT)
		finish(CUA_VERDICT_TIMEOUT, "the kernel gave no answer by the deadline; killed "
		       "during %s", during);
	if (r == 0 && bad)
		finish(CUA_VERDICT_SANDBOX_VIOLATION, "the kernel's process sent the judge a "
		       "record its harness never writes, during %s (a forged report?)", during);
	if (r <= 0)
		cand_died(during);
	/* Before the kernel is loaded its process runs our code alone: a failure
	 * then is ours. After, what it says only ever counts against the kernel
	 * (a forged "harness" failure must not shift the blame). */
	if (m->op == CUA_WIRE_FAIL && !g_kernel_loaded)
		finish(CUA_VERDICT_HARNESS_ERROR, "the kernel's process failed before the kernel "
		       "was loaded: %.400s (%s)", m->text, during);
	if (m->op == CUA_WIRE_FAIL)
		finish(strstr(m->text, "does not load") || strstr(m->text, "cua_solve")
		           ? CUA_VERDICT_LOAD_ERROR : CUA_VERDICT_RUNTIME_ERROR,
		       "%.400s (%s)", m->text, during);
}

/* Copies a compiled object to `to` (mode `mode`) and checks that the bytes
 * copied are the ones built: the digest compile.c recorded, passed by the
 * parent. What is loaded is that copy, so nothing can change it in between. */
static void stage_verified(const char *from, const char *to, const char *want, mode_t mode)
{
	char err[CUA_ERR_LEN], got[65], *buf = NULL;
	size_t len = 0;
	/* the build refuses to write or cache an object over CUA_OBJECT_MAX, so one
	 * here is not the kernel's doing */
	if (cua_read_file(from, CUA_OBJECT_MAX, &buf, &len, err, sizeof(err)) != CUA_OK)
		finish(CUA_VERDICT_HARNESS_ERROR, "%s", err);
	if (want && want[0]) {
		cua_sha256_hex(buf, len, got);
		if (strcmp(got, want))
			finish(CUA_VERDICT_HARNESS_ERROR, "%s changed since it was built (its "
			       "digest is %.12s…, the build's %.12s…): not loaded", from, got, want);
	}
	if (cua_write_file(to, buf, len, err, sizeof(err)) != CUA_OK || chmod(to, mode) < 0)
		finish(CUA_VERDICT_HARNESS_ERROR, "cannot stage %s: %s", to, err);
	free(buf);
}

static void stage_file(const char *from, const char *name, mode_t mode, const char *want)
{
	char path[CUA_PATH_BUF];
	judge_pathf(path, sizeof(path), "%s/%s", C.dir, name);
	stage_verified(from, path, want, mode);
}

/* Starts the candidate's process: before our own CUDA start-up (a fork after it
 * would copy a CUDA process), so both contexts come up in parallel. Its program
 * and the kernel are copied into a directory of ours it can read and not write;
 * it gets a home of its own, no descriptor of ours, no secret. */
static char g_home[CUA_PATH_LEN];    /* our private temp dir (the parent made it) */
static char g_jobdir[CUA_PATH_BUF];  /* this job's: g_home itself, or g_home/c-N when serving */

static void cand_spawn(double timeout_s)
{
	char self[CUA_PATH_LEN], prog[CUA_PATH_BUF], home[CUA_PATH_BUF], err[CUA_ERR_LEN];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		finish(CUA_VERDICT_HARNESS_ERROR, "cannot find the judge's own program");
	self[n] = '\0';
	char *slash = strrchr(self, '/');
	*slash = '\0';
	judge_pathf(prog, sizeof(prog), "%s/cuarena-cand", self);
	/* our temp dir is the parent's private one (0700): let the candidate's
	 * user through it, to cand/ alone */
	judge_pathf(C.dir, sizeof(C.dir), "%s/cand", g_jobdir);
	if (chmod(g_home, 0711) < 0 || chmod(g_jobdir, 0711) < 0 || mkdir(C.dir, 0755) < 0)
		finish(CUA_VERDICT_HARNESS_ERROR, "cannot make the candidate's directory: %s",
		       strerror(errno));
	stage_file(prog, "cuarena-cand", 0555, NULL);
	judge_pathf(home, sizeof(home), "%s/home", C.dir);
	bool root = geteuid() == 0;
	if (mkdir(home, 0700) < 0 || (root && chown(home, CUA_JAIL_UID, CUA_JAIL_GID) < 0))
		finish(CUA_VERDICT_HARNESS_ERROR, "cannot make the candidate's home: %s",
		       strerror(errno));
	char out[CUA_PATH_BUF];
	judge_pathf(out, sizeof(out), "%s/output", C.dir);
	C.out_fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
	int sv[2];
	if (C.out_fd < 0 || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		finish(CUA_VERDICT_HARNESS_ERROR, "cannot set up the candidate's process: %s",
		       strerror(errno));

	static char e_path[] = "PATH=/usr/local/bin:/usr/bin:/bin", e_lang[] = "LANG=C";
	/* the environment's strings live until the next spawn replaces them */
	static char *e_ld, *e_home, *e_tmp;
	static char e_vis[256];
	const char *env[8];
	int ne = 0;
	env[ne++] = e_path;
	env[ne++] = e_lang;
	const char *v = getenv("LD_LIBRARY_PATH");
	if (v) {
		free(e_ld);
		e_ld = cua_env_pair("LD_LIBRARY_PATH", v);
		env[ne++] = e_ld;
	}
	/* One device, the judge's (its device 0: the first it may see). A kernel
	 * that saw more could spread its work over GPUs, one of them perhaps
	 * judging somebody else; with one, re-selecting it is harmless (CUB does). */
	v = getenv("CUDA_VISIBLE_DEVICES");
	size_t first = v ? strcspn(v, ",") : 0;
	snprintf(e_vis, sizeof(e_vis), "CUDA_VISIBLE_DEVICES=%.*s", (int)(first ? first : 1),
	         first ? v : "0");
	env[ne++] = e_vis;
	free(e_home);
	free(e_tmp);
	e_home = cua_env_pair("HOME", home);
	e_tmp = cua_env_pair("TMPDIR", home);
	env[ne++] = e_home;
	env[ne++] = e_tmp;
	env[ne] = NULL;
	char exe[CUA_PATH_BUF];
	judge_pathf(exe, sizeof(exe), "%s/cuarena-cand", C.dir);
	const char *argv[] = { "cuarena-cand", NULL };
	struct cua_jail_opts jo;
	memset(&jo, 0, sizeof(jo));
	jo.exe = exe;
	jo.argv = argv;
	jo.env = env;
	jo.dir = home;
	jo.sock_fd = sv[1];
	jo.out_fd = C.out_fd;
	jo.cpu_s = (long)(timeout_s * 2) + 60;   /* it busy-polls while timed */
	jo.fsize_bytes = 64L << 20;
	jo.nofile = 1024;
	/* as root it confines itself at LOAD (cua_jail_confine): its CUDA start-up
	 * sees the whole file system, the kernel's code only its view */
	jo.late_drop = true;
	if (cua_jail_spawn(&jo, &C.pid, &C.info, err, sizeof(err)) != CUA_OK)
		finish(CUA_VERDICT_HARNESS_ERROR, "%s", err);
	close(sv[1]);
	C.sock = sv[0];
}

/* A directory of its own for the next process of a kernel (serving judge). */
static void new_jobdir(char *out, size_t len)
{
	static int n;
	judge_pathf(out, len, "%s/c-%d", g_home, n++);
	if (mkdir(out, 0711) < 0)
		finish(CUA_VERDICT_HARNESS_ERROR, "cannot make %s: %s", out, strerror(errno));
}

/* The job's process: the spare when there is one still alive (then its
 * directory is the job's), else a new one; then the kernel, staged for it. */
static void cand_start(const struct job *job)
{
	if (g_spare.pid > 0 && job->timeout_s <= SPARE_TIMEOUT_S &&
	    waitpid(g_spare.pid, NULL, WNOHANG) == 0) {
		C = g_spare;
		snprintf(g_jobdir, sizeof(g_jobdir), "%s", g_spare_dir);
	} else {
		if (g_spare.pid > 0) {
			kill(g_spare.pid, SIGKILL);
			while (waitpid(g_spare.pid, NULL, 0) < 0 && errno == EINTR)
				;
			close(g_spare.sock);
			close(g_spare.out_fd);
			cua_rmtree(g_spare_dir);
		}
		if (g_serving)
			new_jobdir(g_jobdir, sizeof(g_jobdir));
		cand_spawn(job->timeout_s);
	}
	g_spare = CAND_NONE;
	stage_file(job->so, "kernel.so", 0444, job->so_sha256);
}

/* Between jobs there is no job to answer: a spare that failed is dropped, and
 * the next job starts its own process. */
static void spare_failed(void)
{
	if (C.pid > 0) {
		kill(C.pid, SIGKILL);
		while (waitpid(C.pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	if (C.sock >= 0)
		close(C.sock);
	if (C.out_fd >= 0)
		close(C.out_fd);
	C = CAND_NONE;
	longjmp(g_next_job, 2);
}

/* Between two jobs of a serving judge: the next job's process, started now. */
static void spare_make(void)
{
	if (g_spare.pid > 0)
		return;
	new_jobdir(g_spare_dir, sizeof(g_spare_dir));
	snprintf(g_jobdir, sizeof(g_jobdir), "%s", g_spare_dir);
	cand_spawn(SPARE_TIMEOUT_S);
	g_spare = C;
	C = CAND_NONE;
}

static void cand_ready(const char *during)
{
	struct cua_wire_msg m;
	cand_recv(&m, false, during);
	if (m.op != CUA_WIRE_READY)
		finish(CUA_VERDICT_CRASH, "the kernel's process answered %u to %s", m.op, during);
}

/* The host memory a kernel's process may hold beyond what it held when its
 * kernel was loaded (besides RLIMIT_DATA in the process itself, which does not
 * see every kind of mapping): checked after every call. */
#define HOST_MEM_MAX ((long)16 << 30)
static long g_rss_at_load;

static long proc_rss(pid_t pid)
{
	return cua_jail_status_field(pid, "VmRSS:");
}

/* The answer to LOAD. A refusal is the kernel's load_error: whatever the
 * process says after dlopen began may be the kernel's own constructors talking.
 * And it must now run as the unprivileged user (it confined itself as root). */
static uid_t proc_uid(pid_t pid);
static void cand_loaded(void)
{
	struct cua_wire_msg m;
	cand_recv(&m, false, "load");
	if (m.op == CUA_WIRE_FAIL) {
		m.text[sizeof(m.text) - 1] = '\0';
		finish(CUA_VERDICT_LOAD_ERROR, "the kernel's process could not load it: %s", m.text);
	}
	if (m.op != CUA_WIRE_READY)
		finish(CUA_VERDICT_CRASH, "the kernel's process answered %u to load", m.op);
	if (geteuid() == 0 && C.info.user_dropped && proc_uid(C.pid) == 0)
		finish(CUA_VERDICT_SANDBOX_VIOLATION, "the kernel's process still runs as root after "
		       "loading the kernel");
	g_rss_at_load = proc_rss(C.pid);
}

/* The real uid of a process, from /proc (-1 when unknown). */
static uid_t proc_uid(pid_t pid)
{
	return (uid_t)cua_jail_status_field(pid, "Uid:");
}

/* After the kernel ran: its own account of errors. A claim that only hurts it. */
static void judge_done(const struct cua_wire_msg *d, const char *where)
{
	if (d->op != CUA_WIRE_DONE)
		finish(CUA_VERDICT_CRASH, "the kernel's process answered %u to a call (%s)", d->op,
		       where);
	if (d->cuda_err && d->where == 1)
		finish(CUA_VERDICT_LAUNCH_ERROR, "launch failed (%s): %.300s", where, d->text);
	if (d->cuda_err)
		finish(CUA_VERDICT_RUNTIME_ERROR, "CUDA error while the kernel ran (%s): %.300s",
		       where, d->text);
	if (d->rc != 0)
		finish(CUA_VERDICT_RUNTIME_ERROR, "cua_solve returned %d (%s)", d->rc, where);
	long rss = g_kernel_loaded && g_rss_at_load > 0 ? proc_rss(C.pid) : -1;
	if (rss > g_rss_at_load + HOST_MEM_MAX)
		finish(CUA_VERDICT_RUNTIME_ERROR, "the kernel's process holds %.1f GiB of host memory "
		       "after a call (%s), more than the %ld GiB it may take", rss / 1073741824.0,
		       where, HOST_MEM_MAX >> 30);
}

/* ---- device kernels -------------------------------------------------------- */

static const struct cua_task *g_task;

__global__ void fill32_kernel(uint32_t *p, int64_t n, uint32_t v)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		p[i] = v;
}

__global__ void count_not32_kernel(const uint32_t *p, int64_t n, uint32_t v,
                                   unsigned long long *bad)
{
	unsigned long long mine = 0;
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		mine += p[i] != v;
	if (mine)
		atomicAdd(bad, mine);
}

struct cmp_acc {
	unsigned long long n_bad, n_nan, n_unwritten;
	unsigned long long max_abs_bits, max_rel_bits; /* non-negative doubles order as ints */
	unsigned long long first_bad;
};

__device__ void acc_max(unsigned long long *slot, double v)
{
	if (v > 0 && v == v)
		atomicMax(slot, (unsigned long long)__double_as_longlong(v));
}

/* One thread's share of a comparison, kept in registers: global atomics on the
 * same few words for every element (as until 2026-11-29) serialise in L2. On
 * the H200 a 3.2 GB output's comparison took about a second that way; 023-
 * sigmoid spent 4.7 s checking and 6.2 s timing (nine comparisons at its timed
 * shape), where its kernels take milliseconds. */
struct cmp_local {
	unsigned long long n_bad, n_nan, n_unwritten, first_bad;
	double max_abs, max_rel;
};

__device__ __forceinline__ void local_err(cmp_local *l, double cv, double rv)
{
	l->max_abs = fmax(l->max_abs, fabs(cv - rv));   /* fmax drops a NaN operand */
	l->max_rel = fmax(l->max_rel, cua_rel_err(cv, rv));
}

/* Warp-reduces the threads' shares; lane 0 adds its warp's to acc. Every lane
 * of every warp must call it (no thread may leave the kernel early). */
__device__ void flush_local(cmp_local l, cmp_acc *acc)
{
	for (int o = 16; o > 0; o >>= 1) {
		l.n_bad += __shfl_down_sync(0xffffffffu, l.n_bad, o);
		l.n_nan += __shfl_down_sync(0xffffffffu, l.n_nan, o);
		l.n_unwritten += __shfl_down_sync(0xffffffffu, l.n_unwritten, o);
		unsigned long long f = __shfl_down_sync(0xffffffffu, l.first_bad, o);
		l.first_bad = f < l.first_bad ? f : l.first_bad;
		l.max_abs = fmax(l.max_abs, __shfl_down_sync(0xffffffffu, l.max_abs, o));
		l.max_rel = fmax(l.max_rel, __shfl_down_sync(0xffffffffu, l.max_rel, o));
	}
	if ((threadIdx.x & 31) != 0)
		return;
	if (l.n_bad)
		atomicAdd(&acc->n_bad, l.n_bad);
	if (l.n_nan)
		atomicAdd(&acc->n_nan, l.n_nan);
	if (l.n_unwritten)
		atomicAdd(&acc->n_unwritten, l.n_unwritten);
	if (l.first_bad != ULLONG_MAX)
		atomicMin(&acc->first_bad, l.first_bad);
	acc_max(&acc->max_abs_bits, l.max_abs);
	acc_max(&acc->max_rel_bits, l.max_rel);
}

/* Compares a candidate output (float or double) with the fp64 oracle. */
template <typename T, typename R = double>
__global__ void compare_float_kernel(const T *c, const R *r, int64_t n,
                                     double atol, double rtol, cmp_acc *acc)
{
	cmp_local l = {0, 0, 0, ULLONG_MAX, 0, 0};
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x) {
		double cv = (double)c[i], rv = (double)r[i];
		int k = sizeof(T) == 4 ? cua_judge_f32((float)c[i], rv, atol, rtol)
		                       : cua_judge_f64(cv, rv, atol, rtol);
		if (k == CUA_ELEM_OK) {
			if (cv == cv && rv == rv && !isinf(rv))
				local_err(&l, cv, rv);
			continue;
		}
		if (l.first_bad == ULLONG_MAX)   /* i only grows: the thread's first */
			l.first_bad = (unsigned long long)i;
		if (k == CUA_ELEM_UNWRITTEN)
			l.n_unwritten++;
		else if (k == CUA_ELEM_NAN)
			l.n_nan++;
		else {
			l.n_bad++;
			if (cv == cv && !isinf(cv) && !isinf(rv))
				local_err(&l, cv, rv);
		}
	}
	flush_local(l, acc);
}

/* Integer outputs must match exactly. */
template <typename T>
__global__ void compare_int_kernel(const T *c, const T *r, int64_t n, cmp_acc *acc)
{
	cmp_local l = {0, 0, 0, ULLONG_MAX, 0, 0};
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x) {
		if (c[i] == r[i])
			continue;
		if (l.first_bad == ULLONG_MAX)
			l.first_bad = (unsigned long long)i;
		l.n_bad++;
		l.max_abs = fmax(l.max_abs, fabs((double)c[i] - (double)r[i]));
	}
	flush_local(l, acc);
}

__device__ __forceinline__ uint64_t globaltimer(void)
{
	uint64_t t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}

__global__ void stamp_kernel(unsigned long long *w)
{
	w[0] = globaltimer();
}

/* Spins for spin_ns on the global timer and records its start, its end and the
 * longest gap between two reads. Our context shares the GPU with the
 * candidate's by time slices (~2 ms each, research/judge-probe §3): GPU work of
 * the candidate pending while this runs switches us out, and shows as a gap. */
__global__ void watchdog_kernel(unsigned long long *w, uint64_t spin_ns)
{
	uint64_t t0 = globaltimer(), last = t0, t = t0, gap = 0;
	do {
		t = globaltimer();
		if (t - last > gap)
			gap = t - last;
		last = t;
	} while (t - t0 < spin_ns);
	w[1] = t0;
	w[2] = t;
	w[3] = gap;
}

/* Measures this SM's clock: cycles counted over ~2 ms of the global timer. */
__global__ void clock_kernel(double *mhz)
{
	uint64_t t0, t1;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
	long long c0 = clock64();
	do {
		asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
	} while (t1 - t0 < 2000000ull);
	long long c1 = clock64();
	*mhz = (double)(c1 - c0) / (double)(t1 - t0) * 1e3;
}

static int grid_for(int64_t n)
{
	int64_t blocks = (n + 255) / 256;
	if (blocks > 132 * 32)
		blocks = 132 * 32;
	return blocks < 1 ? 1 : (int)blocks;
}

/* ---- device tensors with guard bands ----------------------------------------- */

struct dev_tensor {
	char *base;               /* allocation: guard | data | guard (to the end) */
	struct cua_tensor t;
	int64_t n;
	size_t bytes;             /* data bytes */
	size_t alloc;             /* bytes of the allocation */
	bool shared;              /* a VMM allocation the candidate maps */
	int fd;                   /* its exported descriptor until sent (-1 after) */
	const struct cua_init *init; /* inputs only */
	uint32_t index;           /* RNG stream id of an input */
};

static struct cua_vmm g_vmm;

/* Every tensor allocation of the job, so that a judge that serves the next job
 * frees all of this one's wherever finish() cut it short (job_reset). */
#define MAX_LIVE 4096
static struct live_alloc {
	char *base;
	size_t alloc;
	bool shared;
} g_live[MAX_LIVE];
static int g_nlive;

static void live_add(char *base, size_t alloc, bool shared)
{
	if (g_nlive == MAX_LIVE) {
		if (shared)
			cua_vmm_free(&g_vmm, (CUdeviceptr)(uintptr_t)base, alloc);
		else
			cudaFree(base);
		finish(CUA_VERDICT_HARNESS_ERROR, "more than %d device buffers", MAX_LIVE);
	}
	g_live[g_nlive++] = live_alloc{ base, alloc, shared };
}

static void live_del(const char *base)
{
	for (int i = 0; i < g_nlive; i++)
		if (g_live[i].base == base) {
			g_live[i] = g_live[--g_nlive];
			return;
		}
}

/* A tensor's data sits GUARD_BYTES into its allocation: 256-byte aligned (the
 * ABI's promise) since allocations are. A shared tensor's trailing guard runs
 * to the end of its allocation (VMM granularity, 2 MiB), so a write anywhere
 * past the data in what the candidate can map is seen. */
static void tensor_alloc(struct dev_tensor *d, enum cua_dtype dtype, int ndim,
                         const int64_t *shape, bool shared)
{
	memset(d, 0, sizeof(*d));
	d->fd = -1;
	d->t.dtype = dtype;
	d->t.ndim = ndim;
	d->n = 1;
	for (int i = 0; i < ndim; i++) {
		d->t.shape[i] = shape[i];
		d->n *= shape[i];
	}
	d->bytes = (size_t)d->n * cua_dtype_size(dtype);
	size_t padded = (d->bytes + 3) & ~(size_t)3;
	d->alloc = padded + 2 * GUARD_BYTES;
	if (g_kernel_loaded)
		g_post_load_bytes += d->alloc;
	if (shared) {
		d->shared = true;
		d->alloc = cua_vmm_round(&g_vmm, d->alloc);
		CUdeviceptr p = 0;
		CUresult r = cua_vmm_alloc(&g_vmm, d->alloc, &p, &d->fd);
		if (r != CUDA_SUCCESS)
			finish(CUA_VERDICT_HARNESS_ERROR, "cannot allocate %zu bytes of shared device "
			       "memory: CUresult %d", d->alloc, (int)r);
		d->base = (char *)(uintptr_t)p;
	} else
		HARNESS_TRY(cudaMalloc((void **)&d->base, d->alloc));
	live_add(d->base, d->alloc, d->shared);
	d->t.data = d->base + GUARD_BYTES;
}

static void tensor_free(struct dev_tensor *d)
{
	if (d->base) {
		live_del(d->base);
		if (d->shared)
			cua_vmm_free(&g_vmm, (CUdeviceptr)(uintptr_t)d->base, d->alloc);
		else
			cudaFree(d->base);
	}
	if (d->fd >= 0)
		close(d->fd);
	d->base = NULL;
	d->fd = -1;
}

static size_t total_words(const struct dev_tensor *d)
{
	return d->alloc / 4;
}

static int64_t data_words(const struct dev_tensor *d)
{
	return (int64_t)(((d->bytes + 3) & ~(size_t)3) / 4);
}

/* Poisons the guard bands, and the data too when `data` is true. */
static void poison(struct dev_tensor *d, bool data, cudaStream_t s)
{
	uint32_t *w = (uint32_t *)d->base;
	int64_t gw = GUARD_BYTES / 4, dw = data_words(d);
	int64_t tail = (int64_t)total_words(d) - gw - dw;
	if (data) {
		int64_t n = (int64_t)total_words(d);
		fill32_kernel<<<grid_for(n), 256, 0, s>>>(w, n, CUA_POISON32);
	} else {
		fill32_kernel<<<grid_for(gw), 256, 0, s>>>(w, gw, CUA_POISON32);
		fill32_kernel<<<grid_for(tail), 256, 0, s>>>(w + gw + dw, tail, CUA_POISON32);
	}
	HARNESS_TRY(cudaGetLastError());
}

static unsigned long long *d_counter;

static unsigned long long guard_damage(const struct dev_tensor *d, cudaStream_t s)
{
	uint32_t *w = (uint32_t *)d->base;
	int64_t gw = GUARD_BYTES / 4, dw = data_words(d);
	int64_t tail = (int64_t)total_words(d) - gw - dw;
	unsigned long long h = 0;
	HARNESS_TRY(cudaMemsetAsync(d_counter, 0, sizeof(*d_counter), s));
	count_not32_kernel<<<grid_for(gw), 256, 0, s>>>(w, gw, CUA_POISON32, d_counter);
	count_not32_kernel<<<grid_for(tail), 256, 0, s>>>(w + gw + dw, tail, CUA_POISON32,
	                                                  d_counter);
	HARNESS_TRY(cudaMemcpyAsync(&h, d_counter, sizeof(h), cudaMemcpyDeviceToHost, s));
	HARNESS_TRY(cudaStreamSynchronize(s));
	return h;
}

#define DISPATCH_TYPES(dtype, ...)                                            \
	switch (dtype) {                                                           \
	case CUA_F32: { typedef float T; __VA_ARGS__; } break;                            \
	case CUA_F64: { typedef double T; __VA_ARGS__; } break;                           \
	case CUA_I32: { typedef int32_t T; __VA_ARGS__; } break;                          \
	case CUA_I64: { typedef int64_t T; __VA_ARGS__; } break;                          \
	case CUA_U8: { typedef uint8_t T; __VA_ARGS__; } break;                           \
	default:                                                                   \
		finish(CUA_VERDICT_HARNESS_ERROR, "dtype %s is not supported yet",    \
		       cua_dtype_name(dtype));                                         \
	}

/* Input d's segments (gen.cuh): one for a plain input; for a layered input
 * each parameter's, and a constant-zero one for each gap between them, so that
 * the table covers the whole tensor. Uploaded on stream s for one kernel (a
 * serving judge's next job may be another task: a few KiB per call); *nblocks
 * is the tensor's block count. The caller frees the table (cudaFreeAsync)
 * right after the launch. */
static gen_seg *segment_table(const struct dev_tensor *d, unsigned wpe, int *nseg,
                              int64_t *nblocks, cudaStream_t s)
{
	const struct cua_tensor_spec *spec = &g_task->inputs[d->index];
	const unsigned per = CUA_RNG_BLOCK_WORDS / wpe;
	int cap = 2 * spec->n_segments + 2, n = 0;
	gen_seg *h = (gen_seg *)cua_xmalloc((size_t)cap * sizeof(gen_seg)), *dev = NULL;
	int64_t at = 0, blocks = 0;
	auto add = [&](int64_t off, int64_t numel, int dist, double a, double b, uint32_t st) {
		if (numel <= 0)
			return;
		h[n++] = gen_seg{off, numel, blocks, a, b, dist, st};
		blocks += (numel + per - 1) / per;
	};
	if (!spec->n_segments)
		add(0, d->n, (int)d->init->dist, d->init->a, d->init->b, d->index);
	for (int k = 0; k < spec->n_segments; k++) {
		const struct cua_segment *g = &spec->segments[k];
		add(at, g->offset - at, CUA_RNG_CONST, 0, 0, 0);   /* the padding before it */
		add(g->offset, g->numel, (int)g->init.dist, g->init.a, g->init.b, g->stream);
		at = g->offset + g->numel;
	}
	if (spec->n_segments)
		add(at, d->n - at, CUA_RNG_CONST, 0, 0, 0);
	size_t bytes = (size_t)(n ? n : 1) * sizeof(gen_seg);
	cudaError_t e = cudaMallocAsync((void **)&dev, bytes, s);
	/* from pageable memory: staged before the call returns, so h may go */
	if (e == cudaSuccess)
		e = cudaMemcpyAsync(dev, h, bytes, cudaMemcpyHostToDevice, s);
	free(h);
	HARNESS_TRY(e);
	*nseg = n;
	*nblocks = blocks;
	return dev;
}

/* Words per element: two for the 8-byte dtypes (53-bit uniforms, wide integer
 * ranges), else one (rng.h). */
static unsigned words_per(enum cua_dtype dt)
{
	return cua_dtype_size(dt) == 8 ? 2 : 1;
}

static int gen_grid(int64_t nblocks)
{
	int64_t g = (nblocks + 32 * GEN_WARPS - 1) / (32 * GEN_WARPS);
	if (g > 132 * 16)
		g = 132 * 16;
	return g < 1 ? 1 : (int)g;
}

/* Writes d as key generates it (verify false), or counts into *bad the
 * elements that differ from that (verify true), writing what it generates into
 * copy (a tensor of d's shape) as well when copy is not NULL. */
static void gen_run(const struct dev_tensor *d, const struct cua_rng_key *key, bool verify,
                    unsigned long long *bad, cudaStream_t s,
                    const struct dev_tensor *copy = NULL)
{
	unsigned wpe = words_per(d->t.dtype);
	int nseg = 0;
	int64_t nblocks = 0;
	gen_seg *tab = segment_table(d, wpe, &nseg, &nblocks, s);
	if (nseg) {
		const int grid = gen_grid(nblocks), threads = 32 * GEN_WARPS;
		if (verify) {
			DISPATCH_TYPES(d->t.dtype, gen_kernel<T, true><<<grid, threads, 0, s>>>(
			                   (T *)d->t.data, tab, nseg, nblocks, wpe, *key, bad,
			                   copy ? (T *)copy->t.data : (T *)NULL));
		} else {
			DISPATCH_TYPES(d->t.dtype, gen_kernel<T, false><<<grid, threads, 0, s>>>(
			                   (T *)d->t.data, tab, nseg, nblocks, wpe, *key, bad));
		}
		HARNESS_TRY(cudaGetLastError());
	}
	HARNESS_TRY(cudaFreeAsync(tab, s));
}

static void generate(struct dev_tensor *d, const struct cua_rng_key *key, cudaStream_t s)
{
	gen_run(d, key, false, NULL, s);
}

/* Elements of d that differ from what key generates; with copy, the generated
 * tensor is written there in the same pass. */
static unsigned long long mutated(const struct dev_tensor *d, const struct cua_rng_key *key,
                                  cudaStream_t s, const struct dev_tensor *copy = NULL)
{
	unsigned long long h = 0;
	HARNESS_TRY(cudaMemsetAsync(d_counter, 0, sizeof(*d_counter), s));
	gen_run(d, key, true, d_counter, s, copy);
	HARNESS_TRY(cudaMemcpyAsync(&h, d_counter, sizeof(h), cudaMemcpyDeviceToHost, s));
	HARNESS_TRY(cudaStreamSynchronize(s));
	return h;
}

/* A task that states more device memory than is free is refused before any of
 * it runs, rather than failing mid-run (memory_mb in task.json). */
static void check_memory(const struct cua_task *t)
{
	size_t free_b = 0, total_b = 0;
	if (t->memory_mb <= 0)
		return;
	HARNESS_TRY(cudaMemGetInfo(&free_b, &total_b));
	if ((uint64_t)t->memory_mb << 20 > free_b)
		finish(CUA_VERDICT_HARNESS_ERROR, "%s needs %lld MiB of device memory (memory_mb) "
		       "but the device has %zu MiB free of %zu MiB: refused, not started", t->id,
		       (long long)t->memory_mb, free_b >> 20, total_b >> 20);
}

/* ---- the job ---------------------------------------------------------------- */


struct shape_bufs {
	int shape;
	int slot;                 /* the candidate's name for these buffers; -1 none */
	struct dev_tensor in[CUA_MAX_TENSORS], out[CUA_MAX_TENSORS], ref[CUA_MAX_TENSORS];
	/* private to the judge: the case's inputs regenerated from its key (the
	 * oracle reads these, never the shared ones the kernel's process could
	 * still be writing), and the checker's outputs for the precision rule.
	 * Their own buffers at a check shape; the timing's stage and expect
	 * buffers at the timed shape. NULL where the set has no oracle. */
	struct dev_tensor own_priv[CUA_MAX_TENSORS], own_chk[CUA_MAX_TENSORS];
	struct dev_tensor *priv, *chk;
};

static solve_fn g_oracle, g_checker;
static cmp_acc *d_acc;

/* Hands b's inputs and outputs to the candidate's process (one descriptor each);
 * they are its slot b->slot from then on. */
static void cand_map(struct shape_bufs *b)
{
	const struct cua_task *t = g_task;
	int slot = -1;
	for (int i = 0; i < CUA_WIRE_MAX_SLOTS; i++)
		if (!(C.slots_used & (1u << i))) {
			slot = i;
			break;
		}
	if (slot < 0 || t->n_inputs + t->n_outputs > CUA_WIRE_MAX_T)
		finish(CUA_VERDICT_HARNESS_ERROR, "too many shared buffer sets");
	static struct cua_wire_msg m;
	memset(&m, 0, sizeof(m));
	m.op = CUA_WIRE_MAP;
	m.slot = (uint32_t)slot;
	m.n_in = (uint32_t)t->n_inputs;
	m.n_out = (uint32_t)t->n_outputs;
	int fds[CUA_WIRE_MAX_T], k = 0;
	for (int i = 0; i < t->n_inputs + t->n_outputs; i++) {
		struct dev_tensor *d = i < t->n_inputs ? &b->in[i] : &b->out[i - t->n_inputs];
		m.t[k].size = d->alloc;
		m.t[k].offset = (uint64_t)((char *)d->t.data - d->base);
		m.t[k].dtype = d->t.dtype;
		m.t[k].ndim = d->t.ndim;
		for (int q = 0; q < d->t.ndim; q++)
			m.t[k].shape[q] = d->t.shape[q];
		fds[k++] = d->fd;
	}
	cand_send(&m, fds, k, "sharing buffers");
	for (int i = 0; i < t->n_inputs + t->n_outputs; i++) {
		struct dev_tensor *d = i < t->n_inputs ? &b->in[i] : &b->out[i - t->n_inputs];
		close(d->fd);
		d->fd = -1;
	}
	cand_ready("sharing buffers");
	C.slots_used |= 1u << slot;
	b->slot = slot;
}

static void cand_unmap(struct shape_bufs *b)
{
	if (b->slot < 0 || C.pid <= 0)
		return;
	static struct cua_wire_msg m;
	memset(&m, 0, sizeof(m));
	m.op = CUA_WIRE_UNMAP;
	m.slot = (uint32_t)b->slot;
	cand_send(&m, NULL, 0, "releasing buffers");
	cand_ready("releasing buffers");
	C.slots_used &= ~(1u << b->slot);
	b->slot = -1;
}

/* Allocates a shape set's tensors: inputs and outputs shared with the candidate
 * (when there is one), the oracle's results private. */
static void shape_alloc(struct shape_bufs *b, int shape, bool with_ref = true,
                        bool own_private = true)
{
	const struct cua_task *t = g_task;
	char err[CUA_ERR_LEN];
	int64_t dims[CUA_MAX_DIMS];
	bool shared = C.pid > 0;

	memset(b, 0, sizeof(*b));
	b->shape = shape;
	b->slot = -1;
	for (int i = 0; i < CUA_MAX_TENSORS; i++)
		b->in[i].fd = b->out[i].fd = b->ref[i].fd = b->own_priv[i].fd = b->own_chk[i].fd = -1;
	if (with_ref && own_private) {
		b->priv = b->own_priv;
		b->chk = b->own_chk;
	}
	for (int i = 0; i < t->n_inputs; i++) {
		if (cua_task_tensor_shape(t, shape, &t->inputs[i], dims, err, sizeof(err)))
			finish(CUA_VERDICT_HARNESS_ERROR, "%s", err);
		tensor_alloc(&b->in[i], t->inputs[i].dtype, t->inputs[i].ndim, dims, shared);
		b->in[i].init = &t->inputs[i].init;
		b->in[i].index = (uint32_t)i;
		if (b->priv == b->own_priv) {
			tensor_alloc(&b->own_priv[i], t->inputs[i].dtype, t->inputs[i].ndim, dims, false);
			b->own_priv[i].init = &t->inputs[i].init;
			b->own_priv[i].index = (uint32_t)i;
		}
	}
	for (int i = 0; i < t->n_outputs; i++) {
		const struct cua_tensor_spec *o = &t->outputs[i];
		if (cua_task_tensor_shape(t, shape, o, dims, err, sizeof(err)))
			finish(CUA_VERDICT_HARNESS_ERROR, "%s", err);
		tensor_alloc(&b->out[i], o->dtype, o->ndim, dims, shared);
		bool fl = o->dtype == CUA_F32 || o->dtype == CUA_F64;
		if (with_ref)
			tensor_alloc(&b->ref[i], fl ? CUA_F64 : o->dtype, o->ndim, dims, false);
		if (b->chk == b->own_chk)
			tensor_alloc(&b->own_chk[i], o->dtype, o->ndim, dims, false);
	}
	if (shared)
		cand_map(b);
}

static void shape_free(struct shape_bufs *b)
{
	cand_unmap(b);
	for (int i = 0; i < CUA_MAX_TENSORS; i++) {
		tensor_free(&b->in[i]);
		tensor_free(&b->out[i]);
		tensor_free(&b->ref[i]);
		tensor_free(&b->own_priv[i]);
		tensor_free(&b->own_chk[i]);
	}
}

static void index_string(const struct cua_tensor *t, int64_t flat, char *buf,
                         size_t len)
{
	int64_t idx[CUA_MAX_DIMS];
	for (int i = t->ndim - 1; i >= 0; i--) {
		idx[i] = flat % t->shape[i];
		flat /= t->shape[i];
	}
	size_t off = (size_t)snprintf(buf, len, "[");
	for (int i = 0; i < t->ndim && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%lld", i ? ", " : "",
		                        (long long)idx[i]);
	if (off < len)
		snprintf(buf + off, len - off, "]");
}

static double host_value(const void *dev, enum cua_dtype dt, int64_t i)
{
	union { float f; double d; int32_t i32; int64_t i64; uint8_t u8; } v;
	size_t es = cua_dtype_size(dt);
	memset(&v, 0, sizeof(v));
	if (cudaMemcpy(&v, (const char *)dev + (size_t)i * es, es,
	               cudaMemcpyDeviceToHost) != cudaSuccess)
		return NAN;
	switch (dt) {
	case CUA_F32: return v.f;
	case CUA_F64: return v.d;
	case CUA_I32: return v.i32;
	case CUA_I64: return (double)v.i64;
	case CUA_U8: return v.u8;
	default: return NAN;
	}
}

/* Commands one untimed call of the kernel on b and waits for it (the judge's
 * device work is idle meanwhile: nothing of ours runs while the kernel does). */
static void cand_call(struct shape_bufs *b, const char *where)
{
	static struct cua_wire_msg m;
	memset(&m, 0, sizeof(m));
	m.op = CUA_WIRE_RUN;
	m.slot = (uint32_t)b->slot;
	cand_send(&m, NULL, 0, where);
	cand_recv(&m, false, where);
	judge_done(&m, where);
}

struct cua_verdict_box {
	enum cua_verdict v;
	char msg[CUA_MSG_LEN];
};

/* Guard bands around every tensor intact. */
static void judge_guards(struct shape_bufs *b, const char *where, cudaStream_t s)
{
	const struct cua_task *t = g_task;
	for (int i = 0; i < t->n_outputs; i++) {
		unsigned long long g = guard_damage(&b->out[i], s);
		if (g)
			finish(CUA_VERDICT_OUT_OF_BOUNDS,
			       "%llu words of the guard bands around output '%s' were written "
			       "(%s)", g, t->outputs[i].name, where);
	}
	for (int i = 0; i < t->n_inputs; i++) {
		unsigned long long g = guard_damage(&b->in[i], s);
		if (g)
			finish(CUA_VERDICT_OUT_OF_BOUNDS,
			       "%llu words of the guard bands around input '%s' were written "
			       "(%s)", g, t->inputs[i].name, where);
	}
}

/* Guard bands around every tensor intact, inputs as generated from key; the
 * judge's private copy of them (b->priv) regenerated in the same pass. */
static void judge_guards_inputs(struct shape_bufs *b, const struct cua_rng_key *key,
                                const char *where, cudaStream_t s)
{
	const struct cua_task *t = g_task;
	judge_guards(b, where, s);
	for (int i = 0; i < t->n_inputs; i++) {
		unsigned long long m = mutated(&b->in[i], key, s, &b->priv[i]);
		if (m)
			finish(CUA_VERDICT_INPUT_MUTATED,
			       "%llu elements of input '%s' changed during the call (%s)", m,
			       t->inputs[i].name, where);
	}
}

static bool judge_case(struct shape_bufs *b, const struct case_key *c, const char *where,
                       cudaStream_t s, struct cua_verdict_box *box);

/* One correctness case. Returns true when it passed; emits a case event; the
 * first failure of the run is kept in box. */
static bool run_case(struct shape_bufs *b, const struct case_key *c, cudaStream_t s,
                     struct cua_verdict_box *box)
{
	const struct cua_task *t = g_task;
	const char *shape = t->shapes[b->shape].name;
	char where[128];
	snprintf(where, sizeof(where), "shape %s, %s", shape,
	         c->secret ? "secret seed" : c->recheck ? "re-check seed" : "public seed");
	emit_phase("check %s seed %s", shape,
	           c->secret ? "secret" : c->recheck ? "recheck" : "public");

	for (int i = 0; i < t->n_inputs; i++) {
		generate(&b->in[i], &c->key, s);
		poison(&b->in[i], false, s);
	}
	for (int i = 0; i < t->n_outputs; i++)
		poison(&b->out[i], true, s);
	HARNESS_TRY(cudaDeviceSynchronize());

	cand_call(b, where);
	return judge_case(b, c, where, s, box);
}

/* The oracle of the task on these inputs, into memory the candidate's process
 * cannot map. */
static void oracle_into(struct dev_tensor *in_t, struct dev_tensor *ref_t, const char *where,
                        cudaStream_t s)
{
	const struct cua_task *t = g_task;
	struct cua_tensor in[CUA_MAX_TENSORS], ref[CUA_MAX_TENSORS];
	for (int i = 0; i < t->n_inputs; i++)
		in[i] = in_t[i].t;
	for (int i = 0; i < t->n_outputs; i++)
		ref[i] = ref_t[i].t;
	int rc = g_oracle(in, t->n_inputs, ref, t->n_outputs, s);
	cudaError_t e = cudaDeviceSynchronize();
	if (rc != 0 || e != cudaSuccess)
		finish(CUA_VERDICT_HARNESS_ERROR, "the oracle failed (%s): rc %d, %s", where, rc,
		       cudaGetErrorString(e));
}

/* The mantissa bits of the precision a task forbids, or 0 where the rule does
 * not apply: a strict task forbids TF32's (and fp16's) 10, a tf32-allowed one
 * bf16's 7; a half-allowed task has none below it. */
static int forbidden_bits(const struct cua_task *t)
{
	switch (t->precision) {
	case CUA_PREC_FP32_STRICT: return 10;
	case CUA_PREC_TF32_ALLOWED: return 7;
	default: return 0;
	}
}

/* Precision by accuracy (accuracy.h) on the outputs of the call just judged:
 * b->ref holds the oracle on b->priv. Runs the checker on the same inputs,
 * pass A, the inputs rounded, the oracle again, pass B. The case record gets
 * the worst output's figures; a failure goes into box. */
static void check_precision(struct shape_bufs *b, int bits, const char *where,
                            struct cua_case *k, cudaStream_t s, struct cua_verdict_box *box)
{
	const struct cua_task *t = g_task;
	struct prec_acc sums[CUA_MAX_TENSORS];
	bool fl[CUA_MAX_TENSORS];
	prec_acc *d_p = (prec_acc *)d_acc;   /* cmp_acc's words hold a prec_acc */
	static_assert(sizeof(prec_acc) <= sizeof(cmp_acc), "prec_acc fits in d_acc's slot");

	{
		struct cua_tensor in[CUA_MAX_TENSORS], ck[CUA_MAX_TENSORS];
		for (int i = 0; i < t->n_inputs; i++)
			in[i] = b->priv[i].t;
		for (int i = 0; i < t->n_outputs; i++)
			ck[i] = b->chk[i].t;
		int rc = g_checker(in, t->n_inputs, ck, t->n_outputs, s);
		cudaError_t e = cudaStreamSynchronize(s);
		if (rc != 0 || e != cudaSuccess)
			finish(CUA_VERDICT_HARNESS_ERROR, "the checker kernel failed (%s): rc %d, %s",
			       where, rc, cudaGetErrorString(e));
	}
	for (int i = 0; i < t->n_outputs; i++) {
		struct dev_tensor *o = &b->out[i];
		fl[i] = o->t.dtype == CUA_F32 || o->t.dtype == CUA_F64;
		memset(&sums[i], 0, sizeof(sums[i]));
		if (!fl[i])
			continue;
		HARNESS_TRY(cudaMemsetAsync(d_p, 0, sizeof(prec_acc), s));
		if (o->t.dtype == CUA_F32)
			prec_pass_a<float><<<grid_for(o->n), 256, 0, s>>>(
			    (const float *)o->t.data, (const double *)b->ref[i].t.data,
			    (float *)b->chk[i].t.data, o->n, d_p);
		else
			prec_pass_a<double><<<grid_for(o->n), 256, 0, s>>>(
			    (const double *)o->t.data, (const double *)b->ref[i].t.data,
			    (double *)b->chk[i].t.data, o->n, d_p);
		HARNESS_TRY(cudaGetLastError());
		HARNESS_TRY(cudaMemcpyAsync(&sums[i], d_p, sizeof(prec_acc), cudaMemcpyDeviceToHost, s));
		HARNESS_TRY(cudaStreamSynchronize(s));
	}
	for (int i = 0; i < t->n_inputs; i++) {
		struct dev_tensor *x = &b->priv[i];
		if (x->t.dtype == CUA_F32)
			round_kernel<float><<<grid_for(x->n), 256, 0, s>>>((float *)x->t.data, x->n, bits);
		else if (x->t.dtype == CUA_F64)
			round_kernel<double><<<grid_for(x->n), 256, 0, s>>>((double *)x->t.data, x->n,
			                                                   bits);
		HARNESS_TRY(cudaGetLastError());
	}
	oracle_into(b->priv, b->ref, where, s);
	double worst = -1;
	for (int i = 0; i < t->n_outputs; i++) {
		struct dev_tensor *o = &b->out[i];
		if (!fl[i])
			continue;
		struct prec_acc h = sums[i];
		h.dd = h.ed = h.n = 0;
		HARNESS_TRY(cudaMemsetAsync(d_p, 0, sizeof(prec_acc), s));
		if (o->t.dtype == CUA_F32)
			prec_pass_b<float><<<grid_for(o->n), 256, 0, s>>>(
			    (const float *)o->t.data, (const float *)b->chk[i].t.data,
			    (const double *)b->ref[i].t.data, o->n, d_p);
		else
			prec_pass_b<double><<<grid_for(o->n), 256, 0, s>>>(
			    (const double *)o->t.data, (const double *)b->chk[i].t.data,
			    (const double *)b->ref[i].t.data, o->n, d_p);
		HARNESS_TRY(cudaGetLastError());
		struct prec_acc hb;
		HARNESS_TRY(cudaMemcpyAsync(&hb, d_p, sizeof(hb), cudaMemcpyDeviceToHost, s));
		HARNESS_TRY(cudaStreamSynchronize(s));
		struct cua_accuracy_sums ps = { h.ee, h.kk, hb.dd, hb.ed, hb.n };
		struct cua_accuracy_result r;
		cua_accuracy_decide(&ps, &r);
		if (!r.judged)
			continue;
		bool fail = r.corr_fail || r.mag_fail;
		/* the record keeps the failing output, else the one nearest to failing */
		double score = fail ? 1e300 : fmax(fabs(r.rho), r.exposed ? r.err_ratio : 0);
		if (score > worst) {
			worst = score;
			k->accuracy.judged = true;
			snprintf(k->accuracy.vs, sizeof(k->accuracy.vs), "%s", bits == 10 ? "tf32" : "bf16");
			snprintf(k->accuracy.output, sizeof(k->accuracy.output), "%s", t->outputs[i].name);
			k->accuracy.rho = r.rho;
			k->accuracy.rho_sd = r.rho_sd;
			k->accuracy.explained = r.explained;
			k->accuracy.err_ratio = r.err_ratio;
			k->accuracy.chk_ratio = r.chk_ratio;
			k->accuracy.exposed = r.exposed;
			k->accuracy.ok = !fail;
		}
		if (!fail || box->v != CUA_VERDICT_OK)
			continue;
		const char *low = bits == 10 ? "TF32 (or fp16)" : "bf16";
		box->v = CUA_VERDICT_WRONG_OUTPUT;
		if (r.corr_fail)
			snprintf(box->msg, sizeof(box->msg),
			         "output '%s' (%s) is less accurate than %s arithmetic: its error is "
			         "the error that rounding the inputs to %s gives (correlation %.3f ± "
			         "%.3f, %.0f %% of its error explained; correct fp32 code shows |ρ| "
			         "≤ %.2f) — reduced-precision arithmetic on any path (tensor cores, "
			         "half conversions, code loaded at run time) fails a %s task",
			         t->outputs[i].name, where,
			         bits == 10 ? "fp32" : "TF32", low, r.rho, r.rho_sd,
			         100 * r.explained, CUA_ACCURACY_RHO_MAX,
			         cua_precision_name(t->precision));
		else
			snprintf(box->msg, sizeof(box->msg),
			         "output '%s' (%s) is less accurate than %s arithmetic: its RMS error "
			         "is %.3g times what rounding the inputs to %s costs (at most %.2f "
			         "here, where the task's trusted fp32 kernel is %.0f times more "
			         "accurate than that rounding) — reduced precision (rounded inputs "
			         "or half-precision intermediates) fails a %s task",
			         t->outputs[i].name, where, bits == 10 ? "fp32" : "TF32", r.err_ratio,
			         low, CUA_ACCURACY_ERR_MAX, r.chk_ratio > 0 ? 1 / r.chk_ratio : INFINITY,
			         cua_precision_name(t->precision));
	}
}

/* Judges the call that just ran on b (inputs generated from c's key): guard
 * bands, inputs unchanged, then the oracle on the judge's own copy of the
 * inputs, the comparison, and (c->precision) the precision rule. Emits a case
 * event; the first failure of the run is kept in box. */
static bool judge_case(struct shape_bufs *b, const struct case_key *c, const char *where,
                       cudaStream_t s, struct cua_verdict_box *box)
{
	const struct cua_task *t = g_task;
	const char *shape = t->shapes[b->shape].name;

	/* Inputs unchanged, and regenerated into private memory in the same pass:
	 * the oracle reads those, so what the kernel's process does to the shared
	 * ones after its call changes nothing here. */
	judge_guards_inputs(b, &c->key, where, s);
	oracle_into(b->priv, b->ref, where, s);

	bool all_ok = true;
	struct cua_case k;
	memset(&k, 0, sizeof(k));
	snprintf(k.shape, sizeof(k.shape), "%s", shape);
	k.secret = c->secret;
	k.seed = c->secret ? 0 : c->seed;
	k.recheck = c->recheck;
	k.first_bad = -1;
	unsigned long long tot_n = 0, tot_bad = 0, tot_nan = 0, tot_unw = 0;
	double max_abs = 0, max_rel = 0;
	for (int i = 0; i < t->n_outputs; i++) {
		struct dev_tensor *o = &b->out[i], *r = &b->ref[i];
		cmp_acc h;
		memset(&h, 0, sizeof(h));
		h.first_bad = ULLONG_MAX;
		HARNESS_TRY(cudaMemcpyAsync(d_acc, &h, sizeof(h), cudaMemcpyHostToDevice, s));
		switch (o->t.dtype) {
		case CUA_F32:
			compare_float_kernel<float><<<grid_for(o->n), 256, 0, s>>>(
			    (const float *)o->t.data, (const double *)r->t.data, o->n, t->atol,
			    t->rtol, d_acc);
			break;
		case CUA_F64:
			compare_float_kernel<double><<<grid_for(o->n), 256, 0, s>>>(
			    (const double *)o->t.data, (const double *)r->t.data, o->n, t->atol,
			    t->rtol, d_acc);
			break;
		default:
			DISPATCH_TYPES(o->t.dtype,
			               compare_int_kernel<T><<<grid_for(o->n), 256, 0, s>>>(
			                   (const T *)o->t.data, (const T *)r->t.data, o->n,
			                   d_acc));
		}
		HARNESS_TRY(cudaGetLastError());
		HARNESS_TRY(cudaMemcpyAsync(&h, d_acc, sizeof(h), cudaMemcpyDeviceToHost, s));
		HARNESS_TRY(cudaStreamSynchronize(s));
		double ma, mr;
		memcpy(&ma, &h.max_abs_bits, sizeof(ma));
		memcpy(&mr, &h.max_rel_bits, sizeof(mr));
		tot_n += (unsigned long long)o->n;
		tot_bad += h.n_bad;
		tot_nan += h.n_nan;
		tot_unw += h.n_unwritten;
		max_abs = fmax(max_abs, ma);
		max_rel = fmax(max_rel, mr);
		bool ok = h.n_bad == 0 && h.n_nan == 0 && h.n_unwritten == 0;
		if (!ok && all_ok) {
			char at[96];
			int64_t fb = (int64_t)h.first_bad;
			index_string(&o->t, fb, at, sizeof(at));
			snprintf(k.output, sizeof(k.output), "%s", t->outputs[i].name);
			k.first_bad = fb;
			snprintf(k.first_bad_at, sizeof(k.first_bad_at), "%s", at);
			double got = host_value(o->t.data, o->t.dtype, fb);
			double want = host_value(r->t.data, r->t.dtype, fb);
			k.got = got;     /* NaN and inf are written as null */
			k.want = want;
			const char *what = h.n_unwritten == (unsigned long long)o->n
			                       ? "wrote nothing to"
			                       : h.n_unwritten ? "left elements unwritten in"
			                       : h.n_nan       ? "produced NaN in"
			                                       : "got wrong values in";
			if (box->v == CUA_VERDICT_OK) {
				box->v = (h.n_nan && !h.n_bad && !h.n_unwritten)
				             ? CUA_VERDICT_NAN_OUTPUT
				             : CUA_VERDICT_WRONG_OUTPUT;
				snprintf(box->msg, sizeof(box->msg),
				         "%s output '%s' (%s): %llu wrong, %llu NaN, %llu unwritten "
				         "of %lld; first at %s: got %.9g, want %.9g "
				         "(atol %g, rtol %g)",
				         what, t->outputs[i].name, where, h.n_bad, h.n_nan,
				         h.n_unwritten, (long long)o->n, at, got, want, t->atol,
				         t->rtol);
			}
			all_ok = false;
		}
	}
	/* Precision by accuracy: only for a kernel whose values passed (a wrong one
	 * has its verdict already). */
	int bits = forbidden_bits(t);
	if (all_ok && c->precision && bits && b->chk) {
		enum cua_verdict before = box->v;
		check_precision(b, bits, where, &k, s, box);
		if (before == CUA_VERDICT_OK && box->v != CUA_VERDICT_OK)
			all_ok = false;
	}
	/* Scrub the oracle's result before the candidate can run again. */
	for (int i = 0; i < t->n_outputs; i++)
		poison(&b->ref[i], true, s);
	HARNESS_TRY(cudaDeviceSynchronize());
	k.ok = all_ok;
	k.n_elems = tot_n;
	k.n_bad = tot_bad;
	k.n_nan = tot_nan;
	k.n_unwritten = tot_unw;
	k.max_abs = max_abs;
	k.max_rel = max_rel;
	cJSON *ev = cJSON_CreateObject();
	cJSON_AddStringToObject(ev, "event", "case");
	cua_case_to_json(ev, &k);      /* the one codec of a case (verdict.h) */
	emit(ev);
	return all_ok;
}

static double measure_sm_mhz(cudaStream_t s)
{
	double *d, h = 0;
	HARNESS_TRY(cudaMalloc((void **)&d, sizeof(double)));
	clock_kernel<<<1, 1, 0, s>>>(d);
	HARNESS_TRY(cudaGetLastError());
	HARNESS_TRY(cudaMemcpyAsync(&h, d, sizeof(h), cudaMemcpyDeviceToHost, s));
	HARNESS_TRY(cudaStreamSynchronize(s));
	cudaFree(d);
	return h;
}

static double median_of(double *v, int n)
{
	struct cua_stats st;
	cua_stats_compute(v, n, &st);
	return st.median;
}

/* ---- timing ------------------------------------------------------------------------ */

/* What the timed shape's samples need, set up before the kernel is loaded (the
 * calibration runs then) and kept for the checks at that shape and the timing. */
static struct {
	bool on;
	int n_sets;
	struct shape_bufs sets[MAX_SETS];     /* shared; sets[0] has the oracle buffers */
	struct dev_tensor stage[CUA_MAX_TENSORS]; /* private: a sample's fresh inputs */
	struct dev_tensor expect[CUA_MAX_TENSORS]; /* private: the checker's outputs */
	void *flush;
	size_t flush_bytes;
	unsigned long long *wd;                /* device: stamp, watchdog start/end/gap */
	unsigned long long *wd_host;           /* pinned copy */
	cmp_acc *accs, *accs_host;             /* one per output */
	double overhead_ms, claim_overhead_ms; /* calibrated, empty kernel */
	double pre_ref_ms;                     /* calibrated publish+flush+watchdog time */
} TM;

/* The judge's watchdog before every timed sample: longer than a time slice. */
static const uint64_t WATCHDOG_NS = 2500000;
/* A gap in it this long means our context was switched out (slices are ~2 ms). */
static const double GAP_LIMIT_MS = 0.2;

struct sample {
	double raw_ms;            /* judge: "run" sent → its comparison complete */
	double event_ms, host_ms; /* the candidate's claims */
	double pre_ms, gap_ms;    /* watchdog */
	bool ok;
	cmp_acc acc[CUA_MAX_TENSORS];
};

static void timing_alloc(const struct job *job, size_t l2_bytes, cudaStream_t s)
{
	const struct cua_task *t = g_task;
	int timed = cua_task_timed_shape(t);
	char err[CUA_ERR_LEN];
	int64_t dims[CUA_MAX_DIMS];
	size_t per_set = 0, extra = 0;

	/* Several input sets, each with its own output: rotating them spreads the
	 * median over several physical placements of the buffers (on the H200 one
	 * placement of ReLU's buffers ran 5 % slower than another, run to run). As
	 * many as fit in half the free memory, after the private buffers. */
	for (int i = 0; i < t->n_inputs; i++) {
		if (cua_task_tensor_shape(t, timed, &t->inputs[i], dims, err, sizeof(err)))
			finish(CUA_VERDICT_HARNESS_ERROR, "%s", err);
		tensor_alloc(&TM.stage[i], t->inputs[i].dtype, t->inputs[i].ndim, dims, false);
		TM.stage[i].init = &t->inputs[i].init;
		TM.stage[i].index = (uint32_t)i;
		per_set += TM.stage[i].bytes;
	}
	for (int i = 0; i < t->n_outputs; i++) {
		const struct cua_tensor_spec *o = &t->outputs[i];
		if (cua_task_tensor_shape(t, timed, o, dims, err, sizeof(err)))
			finish(CUA_VERDICT_HARNESS_ERROR, "%s", err);
		tensor_alloc(&TM.expect[i], o->dtype, o->ndim, dims, false);
		per_set += TM.expect[i].bytes;
		extra += 2 * TM.expect[i].bytes;   /* set 0's fp64 oracle buffer */
	}
	size_t free_b = 0, total_b = 0;
	HARNESS_TRY(cudaMemGetInfo(&free_b, &total_b));
	for (TM.n_sets = MAX_SETS; TM.n_sets > 1; TM.n_sets--)
		if ((double)per_set * TM.n_sets + (double)extra < 0.5 * (double)free_b)
			break;
	/* Set 0 now (the calibration and the checks at the timed shape use it); the
	 * others once the kernel has passed its checks (timing_alloc_rest): most
	 * kernels an agent writes fail them, and ReLU's sets are 6.4 GB each. */
	shape_alloc(&TM.sets[0], timed, true, false);
	TM.sets[0].priv = TM.stage;
	TM.sets[0].chk = TM.expect;
	for (int i = 0; i < t->n_inputs; i++)
		poison(&TM.sets[0].in[i], false, s);
	TM.flush_bytes = 2 * l2_bytes;
	if (TM.flush_bytes < (size_t)256 << 20)
		TM.flush_bytes = (size_t)256 << 20;
	/* the same for every job of a serving judge: made once, kept (job_reset) */
	if (!TM.flush) {
		HARNESS_TRY(cudaMalloc(&TM.flush, TM.flush_bytes));
		HARNESS_TRY(cudaMalloc((void **)&TM.wd, 4 * sizeof(unsigned long long)));
		HARNESS_TRY(cudaMallocHost((void **)&TM.wd_host, 4 * sizeof(unsigned long long)));
		HARNESS_TRY(cudaMalloc((void **)&TM.accs, CUA_MAX_TENSORS * sizeof(cmp_acc)));
		HARNESS_TRY(cudaMallocHost((void **)&TM.accs_host,
		                           CUA_MAX_TENSORS * sizeof(cmp_acc)));
	}
	HARNESS_TRY(cudaDeviceSynchronize());
	TM.on = true;
	(void)job;
}

static void timing_alloc_rest(cudaStream_t s)
{
	const struct cua_task *t = g_task;
	int timed = cua_task_timed_shape(t);
	for (int k = 1; k < TM.n_sets; k++) {
		shape_alloc(&TM.sets[k], timed, false);
		TM.sets[k].priv = TM.stage;   /* a spot check's case (run_timing) */
		TM.sets[k].chk = TM.expect;
		for (int i = 0; i < t->n_inputs; i++)
			poison(&TM.sets[k].in[i], false, s);
	}
	HARNESS_TRY(cudaDeviceSynchronize());
}

/* The in-window check: every output against the checker's, within three times
 * the task's tolerance (both are within it of the exact answer, so their
 * distance is within twice it, up to second-order terms; the third is margin: a
 * false rejection costs as much as a missed exploit, and an incomplete or
 * garbage output misses by far more). Complete, or the sample fails.
 * Data-independent cost: every element is read. */
#define WINDOW_TOL 3
static void window_compare(struct shape_bufs *b, cudaStream_t s)
{
	const struct cua_task *t = g_task;
	for (int i = 0; i < t->n_outputs; i++) {
		TM.accs_host[i] = cmp_acc{0, 0, 0, 0, 0, ULLONG_MAX};
		struct dev_tensor *o = &b->out[i], *x = &TM.expect[i];
		switch (o->t.dtype) {
		case CUA_F32:
			compare_float_kernel<float, float><<<grid_for(o->n), 256, 0, s>>>(
			    (const float *)o->t.data, (const float *)x->t.data, o->n, WINDOW_TOL * t->atol,
			    WINDOW_TOL * t->rtol, TM.accs + i);
			break;
		case CUA_F64:
			compare_float_kernel<double, double><<<grid_for(o->n), 256, 0, s>>>(
			    (const double *)o->t.data, (const double *)x->t.data, o->n, WINDOW_TOL * t->atol,
			    WINDOW_TOL * t->rtol, TM.accs + i);
			break;
		default:
			DISPATCH_TYPES(o->t.dtype,
			               compare_int_kernel<T><<<grid_for(o->n), 256, 0, s>>>(
			                   (const T *)o->t.data, (const T *)x->t.data, o->n,
			                   TM.accs + i));
		}
	}
	(void)cudaGetLastError();
}

/* One timed sample on set b (or, with calib, the empty kernel: the outputs are
 * then given the right answer beforehand, so the check costs what it costs when
 * a kernel passes). See the file's head comment for the order of work. */
static void run_sample(struct shape_bufs *b, const struct cua_rng_key *key, bool calib,
                       cudaStream_t s, struct sample *o, bool same_inputs = false)
{
	const struct cua_task *t = g_task;
	struct cua_tensor in[CUA_MAX_TENSORS], ex[CUA_MAX_TENSORS];

	/* (calibration after its first sample keeps the staged inputs and their
	 * answer: no kernel code is loaded yet, and what the window costs does not
	 * depend on them; a slow checker, 70 ms for some naive references, would
	 * otherwise run eight times for nothing) */
	if (!same_inputs) {
		for (int i = 0; i < t->n_inputs; i++) {
			generate(&TM.stage[i], key, s);
			in[i] = TM.stage[i].t;
		}
		for (int i = 0; i < t->n_outputs; i++)
			ex[i] = TM.expect[i].t;
		int rc = g_checker(in, t->n_inputs, ex, t->n_outputs, s);
		cudaError_t e = cudaStreamSynchronize(s);
		if (rc != 0 || e != cudaSuccess)
			finish(CUA_VERDICT_HARNESS_ERROR, "the checker kernel failed: rc %d, %s", rc,
			       cudaGetErrorString(e));
	}
	for (int i = 0; i < t->n_outputs; i++) {
		poison(&b->out[i], true, s);
		if (calib)
			HARNESS_TRY(cudaMemcpyAsync(b->out[i].t.data, TM.expect[i].t.data,
			                            b->out[i].bytes, cudaMemcpyDeviceToDevice, s));
	}
	/* From the stamp on, the inputs are where the candidate can see them. */
	stamp_kernel<<<1, 1, 0, s>>>(TM.wd);
	for (int i = 0; i < t->n_inputs; i++)
		HARNESS_TRY(cudaMemcpyAsync(b->in[i].t.data, TM.stage[i].t.data, b->in[i].bytes,
		                            cudaMemcpyDeviceToDevice, s));
	/* Lines a kernel made persisting (an access-policy window set through launch
	 * attributes, a set-aside reached through the driver) would survive the
	 * flush: demote every persisting line of the L2 to normal first. */
	(void)cudaCtxResetPersistingL2Cache();
	(void)cudaGetLastError();
	HARNESS_TRY(cudaMemsetAsync(TM.flush, (int)(key->w[0] & 0xff), TM.flush_bytes, s));
	watchdog_kernel<<<1, 1, 0, s>>>(TM.wd, WATCHDOG_NS);
	HARNESS_TRY(cudaGetLastError());
	HARNESS_TRY(cudaMemcpyAsync(TM.wd_host, TM.wd, 4 * sizeof(unsigned long long),
	                            cudaMemcpyDeviceToHost, s));
	static struct cua_wire_msg m;
	memset(&m, 0, sizeof(m));
	m.op = CUA_WIRE_WAKE;
	cand_send(&m, NULL, 0, "timing");
	HARNESS_TRY(cudaStreamSynchronize(s));

	/* The window: the judge's clock, the candidate's answer, the judge's check. */
	memset(&m, 0, sizeof(m));
	m.op = calib ? CUA_WIRE_EMPTY : CUA_WIRE_RUN;
	m.slot = (uint32_t)b->slot;
	HARNESS_TRY(cudaMemcpyAsync(TM.accs, TM.accs_host, t->n_outputs * sizeof(cmp_acc),
	                            cudaMemcpyHostToDevice, s));
	HARNESS_TRY(cudaStreamSynchronize(s));
	double t0 = cua_now();
	cand_send(&m, NULL, 0, "timing");
	cand_recv(&m, true, "timing");
	for (int i = 0; i < t->n_outputs; i++)
		TM.accs_host[i] = cmp_acc{0, 0, 0, 0, 0, ULLONG_MAX};
	window_compare(b, s);
	cudaError_t ce = cudaMemcpyAsync(TM.accs_host, TM.accs, t->n_outputs * sizeof(cmp_acc),
	                                 cudaMemcpyDeviceToHost, s);
	if (ce == cudaSuccess)
		ce = cudaStreamSynchronize(s);
	double t1 = cua_now();
	HARNESS_TRY(ce);
	judge_done(&m, calib ? "calibration" : "timing");

	o->raw_ms = (t1 - t0) * 1e3;
	o->event_ms = m.event_ms;
	o->host_ms = m.host_ms;
	o->pre_ms = (double)(TM.wd_host[2] - TM.wd_host[0]) / 1e6;
	o->gap_ms = (double)TM.wd_host[3] / 1e6;
	o->ok = true;
	for (int i = 0; i < t->n_outputs; i++) {
		o->acc[i] = TM.accs_host[i];
		if (o->acc[i].n_bad || o->acc[i].n_nan || o->acc[i].n_unwritten)
			o->ok = false;
	}
}

/* The fixed cost of a sample, from the empty kernel, before the candidate's
 * code is in its process: what the judge's clock sees around any kernel (the
 * socket, two context switches, the comparison). */
static void timing_calibrate(const struct job *job, cudaStream_t s)
{
	enum { WARM = 1, N = 7 };   /* its spread is microseconds (IQR 0.01 ms on ReLU) */
	double raw[N], host[N], pre[N];
	emit_phase("calibration");
	for (int k = 0; k < WARM + N; k++) {
		struct sample o;
		struct case_key c = secret_case(job, CUA_RNG_CALIB, (uint64_t)k);
		run_sample(&TM.sets[0], &c.key, true, s, &o, k > 0);
		if (!o.ok)
			finish(CUA_VERDICT_HARNESS_ERROR, "calibration: the judge's own check "
			       "failed on the right answer");
		if (k >= WARM) {
			raw[k - WARM] = o.raw_ms;
			host[k - WARM] = o.host_ms;
			pre[k - WARM] = o.pre_ms;
		}
	}
	TM.overhead_ms = median_of(raw, N);
	TM.claim_overhead_ms = median_of(host, N);
	TM.pre_ref_ms = median_of(pre, N);
}

static void sample_failed(const struct sample *o, int n, struct cua_verdict_box *box)
{
	const struct cua_task *t = g_task;
	for (int i = 0; i < t->n_outputs; i++) {
		const cmp_acc *h = &o->acc[i];
		if (!h->n_bad && !h->n_nan && !h->n_unwritten)
			continue;
		finish(CUA_VERDICT_WRONG_OUTPUT,
		       "timed call %d: output '%s' was not complete and right when the judge "
		       "checked it after the kernel's answer: %llu wrong, %llu NaN, %llu still "
		       "poison (compared with a trusted kernel's output within three times "
		       "the tolerance)", n + 1, t->outputs[i].name, h->n_bad, h->n_nan,
		       h->n_unwritten);
	}
	(void)box;
}

/* Times the kernel at the timed shape; emits a timing event. */
static void run_timing(const struct job *job, cudaStream_t s, struct cua_verdict_box *box)
{
	const struct cua_task *t = g_task;
	emit_phase("timing");

	/* Warm-up: module load, library handles, autotuning stay out of the numbers. */
	double t_warm = cua_now();
	for (int w = 0; w < 3 || (w < 20 && cua_now() - t_warm < 0.05); w++) {
		struct sample o;
		struct case_key c = secret_case(job, CUA_RNG_WARM, (uint64_t)w);
		run_sample(&TM.sets[w % TM.n_sets], &c.key, false, s, &o);
		if (!o.ok)
			sample_failed(&o, w, box);
	}

	struct cua_stop_rule rule;
	cua_stop_rule_init(&rule);
	rule.max_time_s = job->max_time_s;
	if (job->min_samples > 0)
		rule.min_samples = job->min_samples;
	if (rule.min_samples < 3 * TM.n_sets)
		rule.min_samples = 3 * TM.n_sets;   /* every set timed several times */
	double *jv = (double *)calloc((size_t)rule.max_samples, sizeof(double));
	double *ev = (double *)calloc((size_t)rule.max_samples, sizeof(double));
	double *hv = (double *)calloc((size_t)rule.max_samples, sizeof(double));
	CUA_ASSERT(jv && ev && hv);
	double mhz0 = measure_sm_mhz(s);
	double spent = 0, pre_max = 0, gap_max = 0;
	int n = 0, spot_checks = 0;
	struct case_key choice = secret_case(job, CUA_RNG_CHOICE, 0);
	const int spot_at = (int)(choice.key.w[0] % (uint32_t)rule.min_samples);
	while (!cua_stop_now(&rule, jv, n, spent)) {
		struct shape_bufs *b = &TM.sets[n % TM.n_sets];
		/* Fresh inputs from a key of the sample's own for every sample, outputs
		 * poisoned: nothing a kernel cached (by pointer or by content) is ever
		 * right again, and no sample's inputs say anything of another's. */
		struct case_key c = secret_case(job, CUA_RNG_SAMPLE, (uint64_t)n);
		c.precision = true;   /* the spot check judges precision too */
		struct sample o;
		run_sample(b, &c.key, false, s, &o);
		if (!o.ok)
			sample_failed(&o, n, box);
		if (o.gap_ms > GAP_LIMIT_MS || o.pre_ms > TM.pre_ref_ms + 1.0)
			finish(CUA_VERDICT_TIMING_ANOMALY,
			       "timed call %d: GPU work of the kernel's process ran before the "
			       "judge's clock started (the judge was switched out for %.3f ms while "
			       "it published the inputs; %.3f ms for what takes %.3f ms)", n + 1,
			       o.gap_ms, o.pre_ms, TM.pre_ref_ms);
		pre_max = fmax(pre_max, o.pre_ms);
		gap_max = fmax(gap_max, o.gap_ms);
		jv[n] = o.raw_ms - TM.overhead_ms;
		ev[n] = o.event_ms;
		hv[n] = o.host_ms - TM.claim_overhead_ms;
		spent += o.raw_ms / 1e3;
		/* After the clock: guard bands; on one call chosen by the secret among
		 * those every evaluation times, the inputs and the fp64 oracle at the
		 * task's own tolerance as well. (Every other sample's inputs are not
		 * re-read: its expected answer came from the private copy, so changing
		 * the shared one gains nothing there, and every check case and this spot
		 * check still verify the inputs bit for bit.) */
		char where[96];
		snprintf(where, sizeof(where), "timed call %d", n + 1);
		if (n == spot_at) {
			struct shape_bufs view = *b;
			for (int i = 0; i < t->n_outputs; i++)
				view.ref[i] = TM.sets[0].ref[i];
			snprintf(where, sizeof(where), "timed call %d, checked at random", n + 1);
			if (!judge_case(&view, &c, where, s, box))
				finish(box->v, "%s", box->msg);
			spot_checks++;
		} else
			judge_guards(b, where, s);
		n++;
	}
	double mhz1 = measure_sm_mhz(s);

	struct cua_timing tm;
	memset(&tm, 0, sizeof(tm));
	tm.done = true;
	cua_stats_compute(jv, n, &tm.judge_ms);
	cua_stats_compute(ev, n, &tm.event_ms);
	cua_stats_compute(hv, n, &tm.host_ms);
	tm.overhead_ms = TM.overhead_ms;
	tm.claim_overhead_ms = TM.claim_overhead_ms;
	tm.pre_ms = TM.pre_ref_ms;
	tm.pre_max_ms = pre_max;
	tm.gap_max_ms = gap_max;
	tm.sm_mhz_before = mhz0;
	tm.sm_mhz_after = mhz1;
	tm.input_sets = TM.n_sets;
	/* Per-set medians: sample k used set k % n_sets. */
	for (int k = 0; k < TM.n_sets && k < (int)CUA_ARRAY_LEN(tm.set_median_ms); k++) {
		double v[1000];
		int m = 0;
		for (int i = k; i < n && m < 1000; i += TM.n_sets)
			v[m++] = jv[i];
		tm.set_median_ms[k] = m ? median_of(v, m) : 0;
	}
	tm.flush_bytes = (double)TM.flush_bytes;
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "event", "timing");
	cua_timing_to_json(o, &tm);    /* the one codec of a timing (verdict.h) */
	cJSON_AddNumberToObject(o, "spot_checks", spot_checks);
	emit(o);

	/* The candidate's process says how long it took; the judge measured. The
	 * claim decides nothing, so only a gross lie is an anomaly: on the H200 an
	 * honest warp-shuffle softmax claimed 2.50 ms where the judge measured 2.16
	 * (its own CUDA events said 2.48), so a 10 % rule rejected correct work; a
	 * process whose timers are hooked claimed 0.08 ms of 2.16. */
	double claim = tm.host_ms.median, judged = tm.judge_ms.median;
	if (claim < 0.5 * judged - 0.05 || claim > 2 * judged + 0.5)
		finish(CUA_VERDICT_TIMING_ANOMALY,
		       "the kernel's process claimed %.4f ms per call, the judge measured %.4f ms",
		       claim, judged);
	free(jv);
	free(ev);
	free(hv);
}

static bool parse_u64(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || end == s || *end)
		return false;
	*out = v;
	return true;
}

static void usage_exit(const char *msg)
{
	fprintf(stderr, "cuarena __judge: %s\n", msg);
	finish(CUA_VERDICT_HARNESS_ERROR, "runner usage: %s", msg);
}

static void parse_job(int argc, char **argv, struct job *job)
{
	memset(job, 0, sizeof(*job));
	job->max_time_s = 3.0;
	job->timeout_s = 180;
	job->subject = "candidate";
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--time")) {
			job->time = true;
			continue;
		}
		if (!strcmp(a, "--degeneracy")) {
			job->degeneracy = true;
			continue;
		}
		if (!strcmp(a, "--trusted")) {
			job->trusted = true;
			continue;
		}
		if (!v)
			usage_exit("option without a value");
		i++;
		/* the options that name a string, in one sorted table */
		static const struct { const char *name; size_t at; } strs[] = {
			{ "--checker", offsetof(struct job, checker_so) },
			{ "--checker-sha256", offsetof(struct job, checker_sha256) },
			{ "--dump", offsetof(struct job, dump_dir) },
			{ "--oracle", offsetof(struct job, oracle_so) },
			{ "--oracle-sha256", offsetof(struct job, oracle_sha256) },
			{ "--so", offsetof(struct job, so) },
			{ "--so-sha256", offsetof(struct job, so_sha256) },
			{ "--subject", offsetof(struct job, subject) },
			{ "--task", offsetof(struct job, task_dir) },
		};
		bool taken = false;
		for (size_t k = 0; k < sizeof(strs) / sizeof(strs[0]) && !taken; k++)
			if (!strcmp(a, strs[k].name)) {
				*(const char **)((char *)job + strs[k].at) = v;
				taken = true;
			}
		if (taken)
			continue;
		if (!strcmp(a, "--fd"))
			report_fd = atoi(v);
		else if (!strcmp(a, "--timeout"))
			job->timeout_s = atof(v);
		else if (!strcmp(a, "--max-time-s"))
			job->max_time_s = atof(v);
		else if (!strcmp(a, "--min-samples"))
			job->min_samples = atoi(v);
		else if (!strcmp(a, "--seeds")) {
			char buf[256];
			snprintf(buf, sizeof(buf), "%s", v);
			for (char *tok = strtok(buf, ","); tok && job->n_seeds < 8;
			     tok = strtok(NULL, ","))
				if (!parse_u64(tok, &job->seeds[job->n_seeds++]))
					usage_exit("bad --seeds");
		} else {
			char msg[128];
			snprintf(msg, sizeof(msg), "unknown option %.60s", a);
			usage_exit(msg);
		}
	}
	if (!job->task_dir || !job->oracle_so || job->n_seeds < 1 ||
	    (!job->so && !job->degeneracy && !job->dump_dir))
		usage_exit("--task, --so, --oracle and --seeds are required");
}

static void emit_device(const cudaDeviceProp *p)
{
	int drv = 0, rt = 0;
	cudaDriverGetVersion(&drv);
	cudaRuntimeGetVersion(&rt);
	struct cua_device d;
	memset(&d, 0, sizeof(d));
	d.known = true;
	snprintf(d.name, sizeof(d.name), "%.127s", p->name);
	d.cc_major = p->major;
	d.cc_minor = p->minor;
	d.sms = p->multiProcessorCount;
	d.l2_bytes = p->l2CacheSize;
	d.mem_bytes = (double)p->totalGlobalMem;
	d.driver = drv;
	d.runtime = rt;
	/* peak clocks, as `__probe` reports them: part of a stored baseline's key */
	int dev = 0, clk = 0, mclk = 0;
	cudaGetDevice(&dev);
	if (cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, dev) == cudaSuccess)
		d.sm_clock_peak_mhz = clk / 1000.0;
	if (cudaDeviceGetAttribute(&mclk, cudaDevAttrMemoryClockRate, dev) == cudaSuccess)
		d.mem_clock_peak_mhz = mclk / 1000.0;
	cudaGetLastError();
	/* The kernel module's version ("580.159.04"); the CUDA calls only give the
	 * CUDA version the driver supports. */
	cua_driver_version(d.driver_version, sizeof(d.driver_version));
	cJSON *o = cua_device_to_json(&d);   /* the one codec of a device (device.h) */
	cJSON_AddStringToObject(o, "event", "device");
	emit(o);
}

/* ---- selftest: the task itself ------------------------------------------------ */

/* Runs the oracle into b->ref with input i generated from the public seed
 * seeds[i] (no kernel runs here: the oracle reads b->in itself). */
static void oracle_with(struct shape_bufs *b, const uint64_t *seeds, cudaStream_t s)
{
	const struct cua_task *t = g_task;
	for (int i = 0; i < t->n_inputs; i++) {
		struct cua_rng_key k;
		cua_rng_public(seeds[i], &k);
		generate(&b->in[i], &k, s);
	}
	oracle_into(b->in, b->ref, "selftest", s);
}

/* Elements of `a` (f64 or integer, as the oracle writes) outside the task's
 * tolerance of `want`. */
static unsigned long long differing(const struct dev_tensor *a,
                                    const struct dev_tensor *want, cudaStream_t s)
{
	cmp_acc h;
	memset(&h, 0, sizeof(h));
	h.first_bad = ULLONG_MAX;
	HARNESS_TRY(cudaMemcpyAsync(d_acc, &h, sizeof(h), cudaMemcpyHostToDevice, s));
	if (a->t.dtype == CUA_F64)
		compare_float_kernel<double><<<grid_for(a->n), 256, 0, s>>>(
		    (const double *)a->t.data, (const double *)want->t.data, a->n,
		    g_task->atol, g_task->rtol, d_acc);
	else
		DISPATCH_TYPES(a->t.dtype,
		               compare_int_kernel<T><<<grid_for(a->n), 256, 0, s>>>(
		                   (const T *)a->t.data, (const T *)want->t.data, a->n,
		                   d_acc));
	HARNESS_TRY(cudaGetLastError());
	HARNESS_TRY(cudaMemcpyAsync(&h, d_acc, sizeof(h), cudaMemcpyDeviceToHost, s));
	HARNESS_TRY(cudaStreamSynchronize(s));
	return h.n_bad + h.n_nan + h.n_unwritten;
}

template <typename T>
__global__ void broadcast_kernel(T *p, int64_t n, const T *v)
{
	T x = *v;
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		p[i] = x;
}

static void emit_degeneracy(const char *shape, const char *check, const char *output,
                            unsigned long long differ, unsigned long long n, bool ok)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "event", "degeneracy");
	cJSON_AddStringToObject(o, "shape", shape);
	cJSON_AddStringToObject(o, "check", check);
	cJSON_AddStringToObject(o, "output", output);
	cJSON_AddNumberToObject(o, "differ", (double)differ);
	cJSON_AddNumberToObject(o, "n", (double)n);
	cJSON_AddBoolToObject(o, "ok", ok);
	emit(o);
}

/* Proves, from the oracle, that the task cannot be passed by a lazy kernel: at
 * every shape set, all-zero output fails, a constant output fails (outputs of
 * two or more elements), outputs differ across seeds, and regenerating any one
 * input changes the output. A check holds when at least one element of some
 * output leaves the tolerance. */
static void run_degeneracy(const struct job *job, cudaStream_t s)
{
	const struct cua_task *t = g_task;
	char failed[CUA_MSG_LEN] = "";
	uint64_t a = job->seeds[0], bseed = job->n_seeds > 1 ? job->seeds[1] : a + 1;

	for (int sh = 0; sh < t->n_shapes; sh++) {
		const char *shape = t->shapes[sh].name;
		struct shape_bufs base, other;
		uint64_t seeds[CUA_MAX_TENSORS];
		emit_phase("degeneracy %s", shape);
		shape_alloc(&base, sh, true, false);
		shape_alloc(&other, sh, true, false);
		for (int i = 0; i < t->n_inputs; i++)
			seeds[i] = a;
		oracle_with(&base, seeds, s);

		/* zero and constant: computed into other.ref from base.ref */
		for (int o = 0; o < t->n_outputs; o++) {
			struct dev_tensor *r = &base.ref[o], *x = &other.ref[o];
			unsigned long long d;
			HARNESS_TRY(cudaMemsetAsync(x->t.data, 0, x->bytes, s));
			d = differing(x, r, s);
			emit_degeneracy(shape, "zero", t->outputs[o].name, d, r->n, d > 0);
			if (!d && !failed[0])
				snprintf(failed, sizeof(failed), "output '%s' at shape %s is within "
				         "tolerance of all zeros", t->outputs[o].name, shape);
			if (r->n >= 2) {
				DISPATCH_TYPES(x->t.dtype,
				               broadcast_kernel<T><<<grid_for(x->n), 256, 0, s>>>(
				                   (T *)x->t.data, x->n, (const T *)r->t.data));
				HARNESS_TRY(cudaGetLastError());
				d = differing(x, r, s);
				emit_degeneracy(shape, "constant", t->outputs[o].name, d, r->n, d > 0);
				if (!d && !failed[0])
					snprintf(failed, sizeof(failed), "output '%s' at shape %s is "
					         "within tolerance of a constant", t->outputs[o].name,
					         shape);
			}
		}
		/* another seed for every input, then for each input alone */
		for (int v = -1; v < t->n_inputs; v++) {
			char check[64];
			for (int i = 0; i < t->n_inputs; i++)
				seeds[i] = (v < 0 || i == v) ? bseed : a;
			oracle_with(&other, seeds, s);
			if (v < 0)
				snprintf(check, sizeof(check), "seeds");
			else
				snprintf(check, sizeof(check), "input:%s", t->inputs[v].name);
			unsigned long long total = 0;
			for (int o = 0; o < t->n_outputs; o++)
				total += differing(&other.ref[o], &base.ref[o], s);
			emit_degeneracy(shape, check, "*", total, 0, total > 0);
			if (!total && !failed[0] && v < 0)
				snprintf(failed, sizeof(failed), "at shape %s the outputs do not "
				         "change with the seed", shape);
			else if (!total && !failed[0])
				snprintf(failed, sizeof(failed), "at shape %s the outputs do not "
				         "change when input '%s' is regenerated", shape,
				         t->inputs[v].name);
		}
		shape_free(&base);
		shape_free(&other);
	}
	if (failed[0])
		finish(CUA_VERDICT_WRONG_OUTPUT, "degenerate task: %s", failed);
}

/* Writes every check shape's inputs (public seed 1) and oracle outputs as raw
 * little-endian files plus a manifest, for tools/torch_check.py. */
static void run_dump(const struct job *job, cudaStream_t s)
{
	const struct cua_task *t = g_task;
	char path[CUA_PATH_BUF], err[CUA_ERR_LEN];
	cJSON *man = cJSON_CreateObject();
	cJSON_AddStringToObject(man, "task", t->id);
	cJSON_AddNumberToObject(man, "seed", (double)job->seeds[0]);
	cJSON *shapes = cJSON_AddArrayToObject(man, "shapes");
	if (cua_mkdirs(job->dump_dir, err, sizeof(err)) != CUA_OK)
		finish(CUA_VERDICT_HARNESS_ERROR, "%s", err);
	int timed = cua_task_timed_shape(t);
	for (int sh = 0; sh < t->n_shapes; sh++) {
		if (sh == timed)
			continue;
		struct shape_bufs b;
		uint64_t seeds[CUA_MAX_TENSORS];
		shape_alloc(&b, sh, true, false);
		for (int i = 0; i < t->n_inputs; i++)
			seeds[i] = job->seeds[0];
		oracle_with(&b, seeds, s);
		cJSON *js = cJSON_CreateObject();
		cJSON_AddStringToObject(js, "name", t->shapes[sh].name);
		cJSON *files = cJSON_AddArrayToObject(js, "tensors");
		for (int k = 0; k < t->n_inputs + t->n_outputs; k++) {
			bool is_in = k < t->n_inputs;
			struct dev_tensor *d = is_in ? &b.in[k] : &b.ref[k - t->n_inputs];
			const char *name = is_in ? t->inputs[k].name : t->outputs[k - t->n_inputs].name;
			void *h = malloc(d->bytes ? d->bytes : 1);
			CUA_ASSERT(h);
			HARNESS_TRY(cudaMemcpy(h, d->t.data, d->bytes, cudaMemcpyDeviceToHost));
			judge_pathf(path, sizeof(path), "%s/%s.%s.%s.bin", job->dump_dir,
			         t->shapes[sh].name, is_in ? "in" : "oracle", name);
			if (cua_write_file(path, h, d->bytes, err, sizeof(err)) != CUA_OK)
				finish(CUA_VERDICT_HARNESS_ERROR, "%s", err);
			free(h);
			cJSON *f = cJSON_CreateObject();
			cJSON_AddStringToObject(f, "name", name);
			cJSON_AddStringToObject(f, "role", is_in ? "input" : "oracle");
			cJSON_AddStringToObject(f, "dtype", cua_dtype_name(d->t.dtype));
			cJSON *shp = cJSON_AddArrayToObject(f, "shape");
			for (int q = 0; q < d->t.ndim; q++)
				cJSON_AddItemToArray(shp, cJSON_CreateNumber((double)d->t.shape[q]));
			snprintf(path, sizeof(path), "%s.%s.%s.bin", t->shapes[sh].name,
			         is_in ? "in" : "oracle", name);
			cJSON_AddStringToObject(f, "file", path);
			cJSON_AddItemToArray(files, f);
		}
		cJSON_AddItemToArray(shapes, js);
		shape_free(&b);
	}
	char *txt = cJSON_Print(man);
	judge_pathf(path, sizeof(path), "%s/manifest.json", job->dump_dir);
	if (cua_write_file(path, txt, strlen(txt), err, sizeof(err)) != CUA_OK)
		finish(CUA_VERDICT_HARNESS_ERROR, "%s", err);
	free(txt);
	cJSON_Delete(man);
}

/* ---- one job, and a judge that serves many ------------------------------------- */

static cudaDeviceProp g_prop;
static cudaStream_t g_stream;
static size_t g_free_at_start;   /* a serving judge's free memory after its start-up */
static int g_jobs;               /* jobs this process has judged */
static struct cua_task *g_task_owned;

/* CUDA, once per process: a serving judge keeps its context for every job. */
static void judge_cuda_up(void)
{
	static bool up;
	if (!up) {
		int ndev = 0;
		cudaError_t e = cudaGetDeviceCount(&ndev);
		if (e != cudaSuccess || ndev < 1)
			finish(CUA_VERDICT_HARNESS_ERROR, "no CUDA device: %s",
			       e != cudaSuccess ? cudaGetErrorString(e) : "none found");
		HARNESS_TRY(cudaSetDevice(0));
		HARNESS_TRY(cudaGetDeviceProperties(&g_prop, 0));
		if (!cua_vmm_init(&g_vmm))
			finish(CUA_VERDICT_HARNESS_ERROR, "the driver offers no shareable device "
			       "memory (cuMemCreate with POSIX descriptors)");
		HARNESS_TRY(cudaMalloc((void **)&d_counter, sizeof(*d_counter)));
		HARNESS_TRY(cudaMalloc((void **)&d_acc, sizeof(*d_acc)));
		HARNESS_TRY(cudaStreamCreate(&g_stream));
		size_t total_b = 0;
		HARNESS_TRY(cudaMemGetInfo(&g_free_at_start, &total_b));
		up = true;
	}
	emit_device(&g_prop);
	/* No persisting-L2 window may survive from anything before this job. */
	cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0);
	cudaCtxResetPersistingL2Cache();
	cudaGetLastError();
}

/* The oracle's and the checker's objects: our own copy, checked against its
 * build's digest, is what we load, under a name of its digest (a serving judge
 * keeps what it loaded: the same reference for the next kernel of a task is
 * not loaded twice, and a changed one is another file). */
#define MAX_LIBS 32
static struct {
	char sha[65];
	void *h;
} g_libs[MAX_LIBS];
static int g_nlibs, g_unnamed;

static void *load_lib(const char *from, const char *sha, const char *what)
{
	bool named = sha && strlen(sha) == 64;
	for (int i = 0; named && i < g_nlibs; i++)
		if (!strcmp(g_libs[i].sha, sha))
			return g_libs[i].h;
	char name[128];
	if (named)
		snprintf(name, sizeof(name), "./lib-%s.so", sha);
	else
		snprintf(name, sizeof(name), "./lib-unnamed-%d.so", g_unnamed++);
	stage_verified(from, name, sha, 0400);
	void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		finish(CUA_VERDICT_HARNESS_ERROR, "cannot load the %s: %s", what, dlerror());
	if (named && g_nlibs < MAX_LIBS) {
		snprintf(g_libs[g_nlibs].sha, sizeof(g_libs[0].sha), "%s", sha);
		g_libs[g_nlibs++].h = h;
	} else
		g_unnamed += MAX_LIBS;   /* one not kept: this judge ends after the job */
	return h;
}

/* After a serving judge's job (from finish(), the kernel's process already
 * stopped): frees everything the job held. Returns whether this process can
 * judge another kernel as if it were fresh: not after a failure of its own or a
 * sticky CUDA error, nor with memory missing, nor with too much loaded. */
static bool job_reset(enum cua_verdict v)
{
	bool fit = v != CUA_VERDICT_HARNESS_ERROR;
	for (int i = 0; i < g_nlive; i++) {
		if (g_live[i].shared)
			cua_vmm_free(&g_vmm, (CUdeviceptr)(uintptr_t)g_live[i].base, g_live[i].alloc);
		else
			cudaFree(g_live[i].base);
	}
	g_nlive = 0;
	if (cudaDeviceSynchronize() != cudaSuccess || cudaGetLastError() != cudaSuccess)
		fit = false;
	void *keep[5] = { TM.flush, TM.wd, TM.wd_host, TM.accs, TM.accs_host };
	memset(&TM, 0, sizeof(TM));
	TM.flush = keep[0];
	TM.wd = (unsigned long long *)keep[1];
	TM.wd_host = (unsigned long long *)keep[2];
	TM.accs = (cmp_acc *)keep[3];
	TM.accs_host = (cmp_acc *)keep[4];
	C = CAND_NONE;
	cua_task_free(g_task_owned);
	g_task_owned = NULL;
	g_task = NULL;
	g_oracle = g_checker = NULL;
	g_kernel_loaded = false;
	g_free_at_load = g_post_load_bytes = 0;
	if (g_jobdir[0] && strcmp(g_jobdir, g_home))
		cua_rmtree(g_jobdir);
	g_jobdir[0] = '\0';
	size_t free_b = 0, total_b = 0;
	if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess ||
	    free_b + ((size_t)2 << 30) < g_free_at_start)
		fit = false;   /* something kept 2 GiB: a fresh judge has it back */
	if (++g_jobs >= 1000 || g_unnamed >= MAX_LIBS)
		fit = false;
	return fit;
}

/* One judgement, to its finish() (which never returns). */
static void judge_job(struct job *job) __attribute__((noreturn));
static void judge_job(struct job *job)
{
	char err[CUA_ERR_LEN];
	struct cua_task *task = NULL;
	double started = g_t0;

	if (!draw_master(job))
		finish(CUA_VERDICT_HARNESS_ERROR, "getrandom: %s", strerror(errno));
	if (cua_task_load(job->task_dir, &task, err, sizeof(err)) != CUA_OK)
		finish(CUA_VERDICT_HARNESS_ERROR, "%s", err);
	g_task = g_task_owned = task;

	bool oracle_only = job->degeneracy || job->dump_dir;
	/* The candidate's process first: it brings up its CUDA while we do ours
	 * (when we have not yet: a serving judge has it from its first job). */
	if (!oracle_only)
		cand_start(job);
	C.deadline = started + (job->timeout_s > 10 ? job->timeout_s - 5 : job->timeout_s);
	mark("spawned");
	judge_cuda_up();
	check_memory(task);
	cudaDeviceProp prop = g_prop;
	mark("cuda");

	void *oh = load_lib(job->oracle_so, job->oracle_sha256, "oracle");
	if (!(g_oracle = (solve_fn)dlsym(oh, "cua_oracle")))
		finish(CUA_VERDICT_HARNESS_ERROR, "cannot load the oracle: %s", dlerror());
	/* The timed samples' answers: a trusted kernel (the task's fastest library
	 * baseline when the parent names one, else the reference itself). */
	void *ch = job->checker_so ? load_lib(job->checker_so, job->checker_sha256, "checker")
	                           : oh;
	if (!(g_checker = (solve_fn)dlsym(ch, "cua_solve")))
		finish(CUA_VERDICT_HARNESS_ERROR, "cannot load the checker: %s", dlerror());
	emit_phase("load");
	cudaStream_t s = g_stream;
	if (oracle_only) {
		if (job->dump_dir)
			run_dump(job, s);
		if (job->degeneracy)
			run_degeneracy(job, s);
		finish(CUA_VERDICT_OK, "%s", "");
	}

	cand_ready("start-up of the kernel's process");
	mark("kernel-process");
	char jail[160];
	cua_jail_describe(&C.info, jail, sizeof(jail));
	{
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "event", "jail");
		cJSON_AddStringToObject(o, "what", jail);
		cJSON_AddBoolToObject(o, "pid_ns", C.info.pid_ns);
		cJSON_AddBoolToObject(o, "net_ns", C.info.net_ns);
		cJSON_AddBoolToObject(o, "unprivileged", C.info.user_dropped);
		emit(o);
	}
	int timed = cua_task_timed_shape(task);
	if (job->time) {
		timing_alloc(job, (size_t)prop.l2CacheSize, s);
		mark("alloc");
		timing_calibrate(job, s);
		mark("calibrated");
	}

	/* Every buffer of the checks exists before the kernel does (shape_alloc
	 * after it could find the device's memory taken by it). */
	struct shape_bufs checks[CUA_MAX_SHAPES];
	for (int sh = 0; sh < task->n_shapes; sh++)
		if (sh != timed || !TM.on)
			shape_alloc(&checks[sh], sh);

	/* Now, and only now, the kernel's code enters its process. */
	{
		static struct cua_wire_msg m;
		memset(&m, 0, sizeof(m));
		m.op = CUA_WIRE_LOAD;
		m.flags = job->trusted ? CUA_WIRE_TRUSTED : 0;
		if (C.info.pid_ns && !C.info.user_ns && geteuid() == 0)
			m.flags |= CUA_WIRE_VIEW;
		for (int i = 0; i < task->n_libraries && !job->trusted; i++) {
			if (!strcmp(task->libraries[i], "cublas"))
				m.flags |= CUA_WIRE_LIB_CUBLAS;
			else if (!strcmp(task->libraries[i], "cudnn"))
				m.flags |= CUA_WIRE_LIB_CUDNN;
		}
		size_t total_b = 0;
		if (cudaMemGetInfo(&g_free_at_load, &total_b) != cudaSuccess)
			g_free_at_load = 0;
		/* relative to its working directory, cand/home */
		snprintf(m.text, sizeof(m.text), "../kernel.so");
		cand_send(&m, NULL, 0, "load");
		g_kernel_loaded = true;
		cand_loaded();
		mark("loaded");
	}

	struct cua_verdict_box box;
	box.v = CUA_VERDICT_OK;
	box.msg[0] = '\0';
	double t0 = cua_now();
	/* Check shapes first (small, odd), the timed shape last. A shape that fails
	 * ends the check once all its seeds are reported: the verdict is settled, and
	 * the rest (above all the fp64 oracle at the large timed shape) would only
	 * cost GPU time. On the H200 a kernel that writes nothing took 1.7 s of
	 * checking, most of it at the timed shape. */
	for (int pass = 0; pass < 2 && box.v == CUA_VERDICT_OK; pass++)
		for (int sh = 0; sh < task->n_shapes && box.v == CUA_VERDICT_OK; sh++) {
			if ((sh == timed) != (pass == 1))
				continue;
			/* at the timed shape, the timing's buffers (oracle included) */
			struct shape_bufs *bp = sh == timed && TM.on ? &TM.sets[0] : &checks[sh];
			/* Precision is judged on every case at a check shape, and at the
			 * timed shape on the secret case (and a timed sample's spot
			 * check): a kernel can recognise the public cases there, whose
			 * inputs anyone can compute, and its precision is what it does
			 * when it cannot. */
			for (int k = 0; k < job->n_seeds; k++) {
				struct case_key c = public_case(job->seeds[k], sh != timed);
				run_case(bp, &c, s, &box);
			}
			struct case_key c = secret_case(job, CUA_RNG_CHECK, (uint64_t)sh);
			c.precision = true;
			run_case(bp, &c, s, &box);
		}
	mark("checked");
	cJSON *ck = cJSON_CreateObject();
	cJSON_AddStringToObject(ck, "event", "checked");
	cJSON_AddNumberToObject(ck, "seconds", cua_now() - t0);
	emit(ck);
	if (box.v != CUA_VERDICT_OK)
		finish(box.v, "%s", box.msg);

	if (job->time) {
		double t1 = cua_now();
		timing_alloc_rest(s);
		mark("sets");
		run_timing(job, s, &box);
		mark("timed");
		/* A kernel that turns lazy after many calls fails here. */
		struct case_key c = secret_case(job, CUA_RNG_RECHECK, 0);
		run_case(&TM.sets[0], &c, s, &box);
		cJSON *tm = cJSON_CreateObject();
		cJSON_AddStringToObject(tm, "event", "timed");
		cJSON_AddNumberToObject(tm, "seconds", cua_now() - t1);
		emit(tm);
		if (box.v != CUA_VERDICT_OK)
			finish(box.v, "after timing: %s", box.msg);
	}
	finish(CUA_VERDICT_OK, "%s", "");
}

/* A job for a serving judge, on its stdin: a header (CUA_JOB_MAGIC, payload
 * length) and the payload, NUL-separated strings: "KEY=<64 hex>" (the report
 * channel's key for this job), "SECRETS=S,R", then the job's options as a
 * one-shot judge takes them on its command line. */
static bool read_full(int fd, void *buf, size_t len)
{
	char *p = (char *)buf;
	while (len > 0) {
		ssize_t r = read(fd, p, len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		p += r;
		len -= (size_t)r;
	}
	return true;
}

static int judge_serve(int argc, char **argv)
{
	static char payload[CUA_JOB_MAX];
	static char *jargv[64];
	static struct job job;

	for (int i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--fd"))
			report_fd = atoi(argv[i + 1]);
	if (report_fd < 3 || !getcwd(g_home, sizeof(g_home))) {
		fprintf(stderr, "cuarena __judge --serve: no report channel (--fd N)\n");
		_exit(2);
	}
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	g_serving = true;
	for (;;) {
		uint32_t hdr[2];
		if (!read_full(0, hdr, sizeof(hdr)))
			_exit(0);                       /* the parent is done with us */
		if (hdr[0] != CUA_JOB_MAGIC || hdr[1] >= sizeof(payload) ||
		    !read_full(0, payload, hdr[1])) {
			fprintf(stderr, "cuarena __judge --serve: a malformed job\n");
			_exit(2);
		}
		payload[hdr[1]] = '\0';
		int n = 0;
		jargv[n++] = (char *)"__judge";
		static const char *key;   /* static: setjmp below */
		key = NULL;
		for (char *p = payload; p < payload + hdr[1] && n < 63; p += strlen(p) + 1) {
			if (!strncmp(p, "KEY=", 4) && !key)
				key = p + 4;
			else
				jargv[n++] = p;
		}
		jargv[n] = NULL;
		g_have_key = key && cua_channel_key_parse(key, &g_key);
		if (key)
			memset((char *)key, 0, strlen(key));
		if (!g_have_key) {
			fprintf(stderr, "cuarena __judge --serve: a job without a channel key\n");
			_exit(2);
		}
		g_seq = 0;
		g_t0 = cua_now();
		g_profile[0] = '\0';
		if (setjmp(g_next_job) == 0) {
			parse_job(n, jargv, &job);
			g_jobdir[0] = '\0';
			mark("job");
			judge_job(&job);
		}
		memset(&job, 0, sizeof(job));
		g_quiet = true;
		if (setjmp(g_next_job) == 0)
			spare_make();
		g_quiet = false;
		g_jobdir[0] = '\0';
	}
}

extern "C" int cua_judge_main(int argc, char **argv)
{
	struct job job;
	g_t0 = cua_now();

	if (argc > 1 && !strcmp(argv[1], "--serve"))
		return judge_serve(argc, argv);
	take_channel_key();
	parse_job(argc, argv, &job);
	if (!g_have_key) {
		fprintf(stderr, "cuarena __judge: no report channel key in %s\n",
		        CUA_CHANNEL_KEY_ENV);
		_exit(2);
	}
	/* No process of the same user may read our memory (the job's secret key) or
	 * ptrace us. */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	if (!getcwd(g_home, sizeof(g_home)))
		finish(CUA_VERDICT_HARNESS_ERROR, "getcwd: %s", strerror(errno));
	snprintf(g_jobdir, sizeof(g_jobdir), "%s", g_home);
	judge_job(&job);
}
