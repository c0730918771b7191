/* cand-ctl.c — the kernel's process as the judge sees it (cand-ctl.h): its
 * start through jail.c, the judge's side of every exchange on the wire, and
 * the verdicts its failures earn. Host code only; linked into the judge. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "judge/cand-ctl.h"
#include "sandbox.h"   /* cua_signal_desc */

static const struct cua_cand CAND_NONE = { -1, -1, -1, "", { 0 }, 0, 0, 0, false };

/* The host memory a kernel's process may hold beyond what it held when its
 * kernel was loaded (besides RLIMIT_DATA in the process itself, which does not
 * see every kind of mapping): checked after every call. */
#define HOST_MEM_MAX ((long)16 << 30)

void cua_cand_ctl_init(struct cua_cand_ctl *c, struct cua_judge *judge)
{
	memset(c, 0, sizeof(*c));
	c->judge = judge;
	c->cur = CAND_NONE;
	c->spare = CAND_NONE;
}

static void copy_out_tail(struct cua_cand_ctl *c)
{
	if (c->cur.out_fd < 0)
		return;
	char path[CUA_PATH_BUF], *buf = NULL;
	size_t len = 0;
	cua_judge_pathf(c->judge, path, sizeof(path), "%s/output", c->cur.dir);
	if (cua_read_file(path, 64u << 20, &buf, &len, NULL, 0) == CUA_OK && len) {
		size_t from = len > 32768 ? len - 32768 : 0;
		fprintf(stderr, "--- the candidate's process wrote%s:\n", from ? " (tail)" : "");
		fwrite(buf + from, 1, len - from, stderr);
		if (buf[len - 1] != '\n')
			fputc('\n', stderr);
	}
	free(buf);
	close(c->cur.out_fd);
	c->cur.out_fd = -1;
}

void cua_cand_ctl_stop(struct cua_cand_ctl *c)
{
	if (c->cur.pid > 0) {
		kill(c->cur.pid, SIGKILL);   /* pid 1 of its namespace: everything in it dies */
		int st;
		while (waitpid(c->cur.pid, &st, 0) < 0 && errno == EINTR)
			;
		c->cur.pid = -1;
	}
	if (c->cur.sock >= 0)
		close(c->cur.sock);
	c->cur.sock = -1;
	copy_out_tail(c);
}

/* The candidate's process is gone or broke the protocol: the verdict comes from
 * how it ended. Does not return. */
static void cand_died(struct cua_cand_ctl *c, const char *during) __attribute__((noreturn));
static void cand_died(struct cua_cand_ctl *c, const char *during)
{
	int st = 0;
	pid_t r = -1;
	if (c->cur.pid > 0) {
		/* it closed the socket: give it a moment to finish dying */
		for (int i = 0; i < 200 && (r = waitpid(c->cur.pid, &st, WNOHANG)) == 0; i++)
			usleep(5000);
		if (r == 0) {
			kill(c->cur.pid, SIGKILL);
			while ((r = waitpid(c->cur.pid, &st, 0)) < 0 && errno == EINTR)
				;
			st = 0;
			r = -2;   /* alive but not talking */
		}
		c->cur.pid = -1;
	}
	if (r > 0 && WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS)
		cua_judge_finish(c->judge, CUA_VERDICT_SANDBOX_VIOLATION, "the kernel's process was "
		       "killed by its system-call filter during %s: it made a call the sandbox "
		       "refuses (processes, exec, sockets, files opened to write, signals to other "
		       "processes, namespaces, ptrace, ...)", during);
	if (r > 0 && WIFSIGNALED(st))
		cua_judge_finish(c->judge, CUA_VERDICT_CRASH, "the kernel's process died of %s "
		       "during %s", cua_signal_desc(WTERMSIG(st)), during);
	if (r > 0 && WIFEXITED(st))
		cua_judge_finish(c->judge, CUA_VERDICT_CRASH, "the kernel's process exited "
		       "(status %d) during %s", WEXITSTATUS(st), during);
	cua_judge_finish(c->judge, CUA_VERDICT_CRASH, "the kernel's process stopped answering "
	       "the judge during %s", during);
}

static void cand_send(struct cua_cand_ctl *c, struct cua_wire_msg *m, const int *fds, int n,
                      const char *during)
{
	m->magic = CUA_WIRE_MAGIC;
	m->seq = c->cur.seq++;
	if (cua_wire_send(c->cur.sock, m, fds, n) < 0)
		cand_died(c, during);
}

/* Waits for the next answer (busy-polled when spin). Verdicts: timeout at the
 * deadline, the death's at a closed socket, crash at garbage. */
static void cand_recv(struct cua_cand_ctl *c, struct cua_wire_msg *m, bool spin,
                      const char *during)
{
	bool bad = false;
	int r = cua_wire_recv(c->cur.sock, m, NULL, 0, NULL, spin ? c->cur.deadline : 0,
	                      c->cur.deadline, &bad);
	if (r < 0 && errno == ETIMEDOUT)
		cua_judge_finish(c->judge, CUA_VERDICT_TIMEOUT, "the kernel gave no answer by the "
		       "deadline; killed during %s", during);
	if (r == 0 && bad)
		cua_judge_finish(c->judge, CUA_VERDICT_SANDBOX_VIOLATION, "the kernel's process sent "
		       "the judge a record its harness never writes, during %s (a forged report?)",
		       during);
	if (r <= 0)
		cand_died(c, during);
	/* Before the kernel is loaded its process runs our code alone: a failure
	 * then is ours. After, what it says only ever counts against the kernel
	 * (a forged "harness" failure must not shift the blame). */
	if (m->op == CUA_WIRE_FAIL && !c->kernel_loaded)
		cua_judge_finish(c->judge, CUA_VERDICT_HARNESS_ERROR, "the kernel's process failed "
		       "before the kernel was loaded: %.400s (%s)", m->text, during);
	if (m->op == CUA_WIRE_FAIL)
		cua_judge_finish(c->judge,
		       strstr(m->text, "does not load") || strstr(m->text, "cua_solve")
		           ? CUA_VERDICT_LOAD_ERROR : CUA_VERDICT_RUNTIME_ERROR,
		       "%.400s (%s)", m->text, during);
}

void cua_cand_ctl_stage(struct cua_cand_ctl *c, const char *from, const char *to,
                        const char *want, mode_t mode)
{
	char err[CUA_ERR_LEN], got[65], *buf = NULL;
	size_t len = 0;
	/* the build refuses to write or cache an object over CUA_OBJECT_MAX, so one
	 * here is not the kernel's doing */
	if (cua_read_file(from, CUA_OBJECT_MAX, &buf, &len, err, sizeof(err)) != CUA_OK)
		cua_judge_finish(c->judge, CUA_VERDICT_HARNESS_ERROR, "%s", err);
	if (want && want[0]) {
		cua_sha256_hex(buf, len, got);
		if (strcmp(got, want))
			cua_judge_finish(c->judge, CUA_VERDICT_HARNESS_ERROR, "%s changed since it "
			       "was built (its digest is %.12s…, the build's %.12s…): not loaded",
			       from, got, want);
	}
	if (cua_write_file(to, buf, len, err, sizeof(err)) != CUA_OK || chmod(to, mode) < 0)
		cua_judge_finish(c->judge, CUA_VERDICT_HARNESS_ERROR, "cannot stage %s: %s", to, err);
	free(buf);
}

static void stage_file(struct cua_cand_ctl *c, const char *from, const char *name, mode_t mode,
                       const char *want)
{
	char path[CUA_PATH_BUF];
	cua_judge_pathf(c->judge, path, sizeof(path), "%s/%s", c->cur.dir, name);
	cua_cand_ctl_stage(c, from, path, want, mode);
}

/* Starts the candidate's process: before our own CUDA start-up (a fork after it
 * would copy a CUDA process), so both contexts come up in parallel. Its program
 * and the kernel are copied into a directory of ours it can read and not write;
 * it gets a home of its own, no descriptor of ours, no secret. */
static void cand_spawn(struct cua_cand_ctl *c, double timeout_s)
{
	char self[CUA_PATH_LEN], prog[CUA_PATH_BUF], home[CUA_PATH_BUF], err[CUA_ERR_LEN];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		cua_judge_finish(c->judge, CUA_VERDICT_HARNESS_ERROR, "cannot find the judge's own "
		       "program");
	self[n] = '\0';
	char *slash = strrchr(self, '/');
	*slash = '\0';
	cua_judge_pathf(c->judge, prog, sizeof(prog), "%s/cuarena-cand", self);
	/* our temp dir is the parent's private one (0700): let the candidate's
	 * user through it, to cand/ alone */
	cua_judge_pathf(c->judge, c->cur.dir, sizeof(c->cur.dir), "%s/cand", c->jobdir);
	if (chmod(c->home, 0711) < 0 || chmod(c->jobdir, 0711) < 0 || mkdir(c->cur.dir, 0755) < 0)
		cua_judge_finish(c->judge, CUA_VERDICT_HARNESS_ERROR, "cannot make the candidate's "
		       "directory: %s", strerror(errno));
	stage_file(c, prog, "cuarena-cand", 0555, NULL);
	cua_judge_pathf(c->judge, home, sizeof(home), "%s/home", c->cur.dir);
	bool root = geteuid() == 0;
	if (mkdir(home, 0700) < 0 || (root && chown(home, CUA_JAIL_UID, CUA_JAIL_GID) < 0))
		cua_judge_finish(c->judge, CUA_VERDICT_HARNESS_ERROR, "cannot make the candidate's "
		       "home: %s", strerror(errno));
	char out[CUA_PATH_BUF];
	cua_judge_pathf(c->judge, out, sizeof(out), "%s/output", c->cur.dir);
	c->cur.out_fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
	int sv[2];
	if (c->cur.out_fd < 0 || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		cua_judge_finish(c->judge, CUA_VERDICT_HARNESS_ERROR, "cannot set up the candidate's "
		       "process: %s", strerror(errno));

	static char e_path[] = "PATH=/usr/local/bin:/usr/bin:/bin", e_lang[] = "LANG=C";
	const char *env[8];
	int ne = 0;
	env[ne++] = e_path;
	env[ne++] = e_lang;
	const char *v = getenv("LD_LIBRARY_PATH");
	if (v) {
		free(c->env_ld);
		c->env_ld = cua_env_pair("LD_LIBRARY_PATH", v);
		env[ne++] = c->env_ld;
	}
	/* One device, the judge's (its device 0: the first it may see). A kernel
	 * that saw more could spread its work over GPUs, one of them perhaps
	 * judging somebody else; with one, re-selecting it is harmless (CUB does). */
	v = getenv("CUDA_VISIBLE_DEVICES");
	size_t first = v ? strcspn(v, ",") : 0;
	snprintf(c->env_vis, sizeof(c->env_vis), "CUDA_VISIBLE_DEVICES=%.*s",
	         (int)(first ? first : 1), first ? v : "0");
	env[ne++] = c->env_vis;
	free(c->env_home);
	free(c->env_tmp);
	c->env_home = cua_env_pair("HOME", home);
	c->env_tmp = cua_env_pair("TMPDIR", home);
	env[ne++] = c->env_home;
	env[ne++] = c->env_tmp;
	env[ne] = NULL;
	char exe[CUA_PATH_BUF];
	cua_judge_pathf(c->judge, exe, sizeof(exe), "%s/cuarena-cand", c->cur.dir);
	const char *argv[] = { "cuarena-cand", NULL };
	struct cua_jail_opts jo;
	memset(&jo, 0, sizeof(jo));
	jo.exe = exe;
	jo.argv = argv;
	jo.env = env;
	jo.dir = home;
	jo.sock_fd = sv[1];
	jo.out_fd = c->cur.out_fd;
	jo.cpu_s = (long)(timeout_s * 2) + 60;   /* it busy-polls while timed */
	jo.fsize_bytes = 64L << 20;
	jo.nofile = 1024;
	/* as root it confines itself at LOAD (cua_jail_confine): its CUDA start-up
	 * sees the whole file system, the kernel's code only its view */
	jo.late_drop = true;
	if (cua_jail_spawn(&jo, &c->cur.pid, &c->cur.info, err, sizeof(err)) != CUA_OK)
		cua_judge_finish(c->judge, CUA_VERDICT_HARNESS_ERROR, "%s", err);
	close(sv[1]);
	c->cur.sock = sv[0];
}

/* A directory of its own for the next process of a kernel (serving judge). */
static void new_jobdir(struct cua_cand_ctl *c, char *out, size_t len)
{
	cua_judge_pathf(c->judge, out, len, "%s/c-%d", c->home, c->ndirs++);
	if (mkdir(out, 0711) < 0)
		cua_judge_finish(c->judge, CUA_VERDICT_HARNESS_ERROR, "cannot make %s: %s", out,
		       strerror(errno));
}

void cua_cand_ctl_start(struct cua_cand_ctl *c, const char *so, const char *so_sha256,
                        double timeout_s, bool own_dir)
{
	if (c->spare.pid > 0 && timeout_s <= CUA_CAND_SPARE_TIMEOUT_S &&
	    waitpid(c->spare.pid, NULL, WNOHANG) == 0) {
		c->cur = c->spare;
		snprintf(c->jobdir, sizeof(c->jobdir), "%s", c->spare_dir);
	} else {
		if (c->spare.pid > 0) {
			kill(c->spare.pid, SIGKILL);
			while (waitpid(c->spare.pid, NULL, 0) < 0 && errno == EINTR)
				;
			close(c->spare.sock);
			close(c->spare.out_fd);
			cua_rmtree(c->spare_dir);
		}
		if (own_dir)
			new_jobdir(c, c->jobdir, sizeof(c->jobdir));
		cand_spawn(c, timeout_s);
	}
	c->spare = CAND_NONE;
	stage_file(c, so, "kernel.so", 0444, so_sha256);
}

/* Between jobs there is no job to answer: a spare that failed is dropped, and
 * the next job starts its own process. */
void cua_cand_ctl_drop(struct cua_cand_ctl *c)
{
	if (c->cur.pid > 0) {
		kill(c->cur.pid, SIGKILL);
		while (waitpid(c->cur.pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	if (c->cur.sock >= 0)
		close(c->cur.sock);
	if (c->cur.out_fd >= 0)
		close(c->cur.out_fd);
	c->cur = CAND_NONE;
}

void cua_cand_ctl_spare(struct cua_cand_ctl *c)
{
	if (c->spare.pid > 0)
		return;
	new_jobdir(c, c->spare_dir, sizeof(c->spare_dir));
	snprintf(c->jobdir, sizeof(c->jobdir), "%s", c->spare_dir);
	cand_spawn(c, CUA_CAND_SPARE_TIMEOUT_S);
	c->spare = c->cur;
	c->cur = CAND_NONE;
}

void cua_cand_ctl_end_job(struct cua_cand_ctl *c)
{
	c->cur = CAND_NONE;
	c->kernel_loaded = false;
	if (c->jobdir[0] && strcmp(c->jobdir, c->home))
		cua_rmtree(c->jobdir);
	c->jobdir[0] = '\0';
}

void cua_cand_ctl_ready(struct cua_cand_ctl *c, const char *during)
{
	struct cua_wire_msg m;
	cand_recv(c, &m, false, during);
	if (m.op != CUA_WIRE_READY)
		cua_judge_finish(c->judge, CUA_VERDICT_CRASH, "the kernel's process answered %u to %s",
		       m.op, during);
}

static long proc_rss(pid_t pid)
{
	return cua_jail_status_field(pid, "VmRSS:");
}

/* The real uid of a process, from /proc (-1 when unknown). */
static uid_t proc_uid(pid_t pid)
{
	return (uid_t)cua_jail_status_field(pid, "Uid:");
}

int cua_cand_ctl_map(struct cua_cand_ctl *c, int n_in, int n_out,
                     const struct cua_wire_tensor *t, int *const *fds)
{
	int slot = -1;
	for (int i = 0; i < CUA_WIRE_MAX_SLOTS; i++)
		if (!(c->cur.slots_used & (1u << i))) {
			slot = i;
			break;
		}
	if (slot < 0 || n_in + n_out > CUA_WIRE_MAX_T)
		cua_judge_finish(c->judge, CUA_VERDICT_HARNESS_ERROR, "too many shared buffer sets");
	static struct cua_wire_msg m;
	memset(&m, 0, sizeof(m));
	m.op = CUA_WIRE_MAP;
	m.slot = (uint32_t)slot;
	m.n_in = (uint32_t)n_in;
	m.n_out = (uint32_t)n_out;
	int sent[CUA_WIRE_MAX_T] = { 0 };
	for (int k = 0; k < n_in + n_out; k++) {
		m.t[k] = t[k];
		sent[k] = *fds[k];
	}
	cand_send(c, &m, sent, n_in + n_out, "sharing buffers");
	for (int k = 0; k < n_in + n_out; k++) {
		close(*fds[k]);
		*fds[k] = -1;
	}
	cua_cand_ctl_ready(c, "sharing buffers");
	c->cur.slots_used |= 1u << slot;
	return slot;
}

void cua_cand_ctl_unmap(struct cua_cand_ctl *c, int *slot)
{
	if (*slot < 0 || c->cur.pid <= 0)
		return;
	static struct cua_wire_msg m;
	memset(&m, 0, sizeof(m));
	m.op = CUA_WIRE_UNMAP;
	m.slot = (uint32_t)*slot;
	cand_send(c, &m, NULL, 0, "releasing buffers");
	cua_cand_ctl_ready(c, "releasing buffers");
	c->cur.slots_used &= ~(1u << *slot);
	*slot = -1;
}

/* The answer to LOAD. A refusal is the kernel's load_error: whatever the
 * process says after dlopen began may be the kernel's own constructors talking.
 * And it must now run as the unprivileged user (it confined itself as root). */
static void cand_loaded(struct cua_cand_ctl *c)
{
	struct cua_wire_msg m;
	cand_recv(c, &m, false, "load");
	if (m.op == CUA_WIRE_FAIL) {
		m.text[sizeof(m.text) - 1] = '\0';
		cua_judge_finish(c->judge, CUA_VERDICT_LOAD_ERROR, "the kernel's process could not "
		       "load it: %s", m.text);
	}
	if (m.op != CUA_WIRE_READY)
		cua_judge_finish(c->judge, CUA_VERDICT_CRASH, "the kernel's process answered %u to "
		       "load", m.op);
	if (geteuid() == 0 && c->cur.info.user_dropped && proc_uid(c->cur.pid) == 0)
		cua_judge_finish(c->judge, CUA_VERDICT_SANDBOX_VIOLATION, "the kernel's process "
		       "still runs as root after loading the kernel");
	c->rss_at_load = proc_rss(c->cur.pid);
}

void cua_cand_ctl_load(struct cua_cand_ctl *c, uint32_t flags)
{
	static struct cua_wire_msg m;
	memset(&m, 0, sizeof(m));
	m.op = CUA_WIRE_LOAD;
	m.flags = flags;
	/* relative to its working directory, cand/home */
	snprintf(m.text, sizeof(m.text), "../kernel.so");
	cand_send(c, &m, NULL, 0, "load");
	c->kernel_loaded = true;
	cand_loaded(c);
}

void cua_cand_ctl_done(struct cua_cand_ctl *c, const struct cua_wire_msg *d, const char *where)
{
	if (d->op != CUA_WIRE_DONE)
		cua_judge_finish(c->judge, CUA_VERDICT_CRASH, "the kernel's process answered %u to "
		       "a call (%s)", d->op, where);
	if (d->cuda_err && d->where == 1)
		cua_judge_finish(c->judge, CUA_VERDICT_LAUNCH_ERROR, "launch failed (%s): %.300s",
		       where, d->text);
	if (d->cuda_err)
		cua_judge_finish(c->judge, CUA_VERDICT_RUNTIME_ERROR, "CUDA error while the kernel "
		       "ran (%s): %.300s", where, d->text);
	if (d->rc != 0)
		cua_judge_finish(c->judge, CUA_VERDICT_RUNTIME_ERROR, "cua_solve returned %d (%s)",
		       d->rc, where);
	long rss = c->kernel_loaded && c->rss_at_load > 0 ? proc_rss(c->cur.pid) : -1;
	if (rss > c->rss_at_load + HOST_MEM_MAX)
		cua_judge_finish(c->judge, CUA_VERDICT_RUNTIME_ERROR, "the kernel's process holds "
		       "%.1f GiB of host memory after a call (%s), more than the %ld GiB it may "
		       "take", rss / 1073741824.0, where, HOST_MEM_MAX >> 30);
}

/* (the judge's device work is idle meanwhile: nothing of ours runs while the
 * kernel does) */
void cua_cand_ctl_call(struct cua_cand_ctl *c, int slot, const char *where)
{
	static struct cua_wire_msg m;
	memset(&m, 0, sizeof(m));
	m.op = CUA_WIRE_RUN;
	m.slot = (uint32_t)slot;
	cand_send(c, &m, NULL, 0, where);
	cand_recv(c, &m, false, where);
	cua_cand_ctl_done(c, &m, where);
}

void cua_cand_ctl_wake(struct cua_cand_ctl *c)
{
	static struct cua_wire_msg m;
	memset(&m, 0, sizeof(m));
	m.op = CUA_WIRE_WAKE;
	cand_send(c, &m, NULL, 0, "timing");
}

void cua_cand_ctl_timed(struct cua_cand_ctl *c, int slot, bool empty, double *t0,
                        struct cua_wire_msg *m)
{
	memset(m, 0, sizeof(*m));
	m->op = empty ? CUA_WIRE_EMPTY : CUA_WIRE_RUN;
	m->slot = (uint32_t)slot;
	*t0 = cua_now();
	cand_send(c, m, NULL, 0, "timing");
	cand_recv(c, m, true, "timing");
}
