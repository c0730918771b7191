/* build-jail.c — the build's jail (compile.c): what nvcc sees (its view), where
 * it writes (a private folder), how its object reaches the cache, and the names
 * of the bounds it meets (build-jail.h, docs/SECURITY.md "The build"). */
#include "compile/build-jail.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the jail ---------------------------------------------------------------- */

#if defined(__x86_64__)
#define TRIPLE "x86_64-linux-gnu"
#elif defined(__aarch64__)
#define TRIPLE "aarch64-linux-gnu"
#else
#define TRIPLE "unknown-linux-gnu"
#endif

#define JAIL_ID 65534   /* the jail's user when the harness is root (sandbox.c) */

/* The system's share of the view, each skipped where this machine has none: the
 * headers, the host compiler's internals, the libraries its programs and the
 * linker load (the toolkit's libraries are in the toolkit), the dynamic
 * loader's cache and the alternatives system's links (Debian's cc, a packaged
 * cuDNN's headers). Nothing of /etc but those two, nothing of /home, /root,
 * /var, /run or /proc. */
static const char *const system_view[] = {
	"/usr/include", "/usr/local/include", "/usr/lib/gcc", "/usr/libexec/gcc",
	"/usr/lib/" TRIPLE, "/lib/" TRIPLE, "/usr/lib64", "/lib64", "/usr/local/lib",
	"/usr/local/lib64", "/etc/ld.so.cache", "/etc/alternatives",
};
/* The host compiler's programs, where the build's PATH finds them, and the
 * shell nvcc runs each step of its pipeline with. */
static const char *const compiler_programs[] = {
	"gcc", "g++", "cc", "c++", "cpp", "as", "ld", "ld.bfd", "ld.gold", "sh",
};
static const char *const program_dirs[] = { "/usr/local/bin", "/usr/bin", "/bin" };

static void view_add(struct cua_build_view *v, const char *host, const char *at, unsigned flags)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 48;
		v->e = cua_xrealloc(v->e, (size_t)v->cap * sizeof(*v->e));
		v->own = cua_xrealloc(v->own, 2 * (size_t)v->cap * sizeof(*v->own));
	}
	char *h = host ? cua_xstrdup(host) : NULL, *a = at ? cua_xstrdup(at) : NULL;
	v->own[2 * v->n] = h;
	v->own[2 * v->n + 1] = a;
	v->e[v->n++] = (struct cua_view_entry){ .host = h, .at = a, .flags = flags };
}

void cua_build_jail_view_clear(struct cua_build_view *v)
{
	for (int i = 0; i < 2 * v->n; i++)
		free(v->own[i]);
	free(v->own);
	free(v->e);
	memset(v, 0, sizeof(*v));
}

static pthread_once_t jail_once = PTHREAD_ONCE_INIT;
static bool jail_ok, jail_user_ns;
static char jail_why[CUA_ERR_LEN];

static void probe_jail(void)
{
	const char *sw = getenv("CUARENA_BUILD_JAIL");
	if (sw && !strcmp(sw, "off")) {
		snprintf(jail_why, sizeof(jail_why), "CUARENA_BUILD_JAIL=off");
		return;
	}
	jail_ok = cua_sandbox_jail_probe(&jail_user_ns, jail_why, sizeof(jail_why)) == CUA_OK;
}

bool cua_build_jail_available(char *why, size_t len)
{
	pthread_once(&jail_once, probe_jail);
	if (why && len)
		snprintf(why, len, "%s", jail_ok ? "" : jail_why);
	return jail_ok;
}

void cua_build_jail_describe(char *buf, size_t len)
{
	if (!cua_build_jail_available(NULL, 0)) {
		snprintf(buf, len, "none: %s", jail_why);
		return;
	}
	char mem[32], obj[32];
	cua_build_jail_size_text((double)CUA_BUILD_MEM, mem, sizeof(mem));
	cua_build_jail_size_text((double)CUA_OBJECT_MAX, obj, sizeof(obj));
	snprintf(buf, len, "%s, own mount/net/IPC/UTS namespaces, a view of the toolkit, "
	         "the system headers and the compiler; %s per process, %d processes, %s files",
	         jail_user_ns ? (geteuid() == 0 ? "uid 65534 in a user namespace"
	                                        : "a user namespace")
	                      : "uid 65534",
	         mem, CUA_BUILD_NPROC, obj);
}

/* Said once per process, on the way a build goes on without its jail. */
void cua_build_jail_warn(void)
{
	static atomic_flag said = ATOMIC_FLAG_INIT;
	if (!atomic_flag_test_and_set(&said))
		fprintf(stderr, "cuarena: warning: nvcc runs unjailed, with the whole file system "
		        "in view (docs/SECURITY.md): %s\n", jail_why);
}

/* ---- one build's private folder ------------------------------------------------ */

enum cua_status cua_build_jail_work(struct cua_build_work *w, bool jailed, char *err,
                                    size_t errlen)
{
	const char *base = getenv("TMPDIR");
	if (!base || !*base)
		base = "/tmp";
	w->dir[0] = '\0';
	if (cua_pathf(w->dir, sizeof(w->dir), err, errlen, "%s/cuarena-build-XXXXXX", base) !=
	    CUA_OK || !mkdtemp(w->dir)) {
		if (err && !err[0])
			cua_errf(err, errlen, "cannot make a build folder under %s: %s", base,
			         strerror(errno));
		w->dir[0] = '\0';
		return CUA_E_SYSTEM;
	}
	snprintf(w->tmp, sizeof(w->tmp), "%s/tmp", w->dir);
	snprintf(w->src, sizeof(w->src), "%s/src", w->dir);
	if (mkdir(w->tmp, 0700) != 0 || mkdir(w->src, 0755) != 0) {
		cua_errf(err, errlen, "cannot make %s/tmp and /src: %s", w->dir, strerror(errno));
		return CUA_E_SYSTEM;
	}
	/* As root the jail's user is 65534: its tmp is its own, and the folder above
	 * may be passed through (a jail in a user namespace binds it as that user). */
	if (jailed && geteuid() == 0 &&
	    (chown(w->tmp, JAIL_ID, JAIL_ID) != 0 || chmod(w->dir, 0711) != 0)) {
		cua_errf(err, errlen, "cannot give %s to uid %d: %s", w->tmp, JAIL_ID, strerror(errno));
		return CUA_E_SYSTEM;
	}
	return CUA_OK;
}

void cua_build_jail_name(const char *abs_src, char *out, size_t len)
{
	const char *base = strrchr(abs_src, '/');
	base = base ? base + 1 : abs_src;
	size_t n = strlen(base);
	bool plain = n > 3 && n < 200 && !strcmp(base + n - 3, ".cu") &&
	             strspn(base, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	                          "0123456789._+-") == n && base[0] != '.';
	const char *pick = plain ? base : "candidate.cu";
	size_t k = strlen(pick);   /* < 200 */
	memcpy(out, pick, k + 1 <= len ? k + 1 : len);
	out[len - 1] = '\0';
}

/* The programs are found as nvcc's PATH finds them (build_env in compile.c); each
 * is bound as what its links lead to (view.c follows them on the host). */
void cua_build_jail_view(struct cua_build_view *v, const char *nvcc, const char *abs_root,
                         bool baseline, const struct cua_build_work *w)
{
	char toolkit[CUA_PATH_LEN], p[CUA_PATH_BUF];
	snprintf(toolkit, sizeof(toolkit), "%s", nvcc);
	for (int up = 0; up < 2; up++) {
		char *sl = strrchr(toolkit, '/');
		if (sl && sl != toolkit)
			*sl = '\0';
	}
	view_add(v, toolkit, NULL, 0);
	for (size_t i = 0; i < CUA_ARRAY_LEN(system_view); i++)
		view_add(v, system_view[i], NULL, CUA_VIEW_OPTIONAL);
	for (size_t i = 0; i < CUA_ARRAY_LEN(compiler_programs); i++)
		for (size_t d = 0; d < CUA_ARRAY_LEN(program_dirs); d++) {
			snprintf(p, sizeof(p), "%s/%s", program_dirs[d], compiler_programs[i]);
			if (access(p, X_OK) == 0)
				view_add(v, p, NULL, 0);
		}
	snprintf(p, sizeof(p), "%s/include", abs_root);
	view_add(v, p, CUA_BUILD_AT_ROOT "/include", CUA_VIEW_OPTIONAL);
	snprintf(p, sizeof(p), "%s/tasks/common", abs_root);
	view_add(v, p, CUA_BUILD_AT_ROOT "/tasks/common", CUA_VIEW_OPTIONAL);
	if (baseline) {
		snprintf(p, sizeof(p), "%s/baselines", abs_root);
		view_add(v, p, CUA_BUILD_AT_ROOT "/baselines", 0);
	} else {
		view_add(v, w->src, CUA_BUILD_AT_SRC, 0);
	}
	view_add(v, w->tmp, "/tmp", CUA_VIEW_RW);
	view_add(v, "/dev/null", NULL, 0);
}

/* ---- the object, into the cache ------------------------------------------------ */

enum cua_status cua_build_jail_copy_object(const char *from, const char *to, size_t max,
                                          char digest[65], size_t *size, bool *over, char *err,
                                          size_t errlen)
{
	enum cua_status result = CUA_E_IO;
	struct stat st;
	char *buf = NULL;
	int out = -1;
	int in = open(from, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	*size = 0;
	*over = false;
	if (in < 0 || fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) {
		result = CUA_E_NOT_FOUND;
		goto out;
	}
	*size = (size_t)st.st_size;
	if ((size_t)st.st_size > max) {
		*over = true;
		result = CUA_OK;
		goto out;
	}
	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (out < 0) {
		cua_errf(err, errlen, "%s: cannot write: %s", to, strerror(errno));
		goto out;
	}
	struct cua_sha256 *h = cua_sha256_new();
	enum { CHUNK = 1 << 20 };
	buf = cua_xmalloc(CHUNK);
	size_t total = 0;
	for (;;) {
		ssize_t n = read(in, buf, CHUNK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			cua_errf(err, errlen, "%s: read error: %s", from, strerror(errno));
			break;
		}
		if (n == 0) {
			result = CUA_OK;
			break;
		}
		total += (size_t)n;
		if (total > max) {   /* grew since it was measured: something still writes it */
			*over = true;
			result = CUA_OK;
			break;
		}
		cua_sha256_update(h, buf, (size_t)n);
		for (ssize_t done = 0; done < n;) {
			ssize_t w = write(out, buf + done, (size_t)(n - done));
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				cua_errf(err, errlen, "%s: write failed: %s", to, strerror(errno));
				n = -1;
				break;
			}
			done += w;
		}
		if (n < 0)
			break;
	}
	cua_sha256_final(h, digest);
	*size = total > *size ? total : *size;
	if (close(out) != 0 && result == CUA_OK) {
		cua_errf(err, errlen, "%s: cannot finish writing: %s", to, strerror(errno));
		result = CUA_E_IO;
	}
	out = -1;
	if (result != CUA_OK || *over)
		unlink(to);
out:
	if (out >= 0) {
		close(out);
		unlink(to);
	}
	if (in >= 0)
		close(in);
	free(buf);
	return result;
}

/* ---- bounds ---------------------------------------------------------------------- */

void cua_build_jail_size_text(double bytes, char *buf, size_t len)
{
	if (bytes >= (1 << 30))
		snprintf(buf, len, "%.3g GiB", bytes / (1 << 30));
	else if (bytes >= (1 << 20))
		snprintf(buf, len, "%.3g MiB", bytes / (1 << 20));
	else
		snprintf(buf, len, "%.3g KiB", bytes / 1024);
}

static bool log_says(const char *log, const char *const *words, size_t n)
{
	for (size_t i = 0; log && i < n; i++)
		if (strstr(log, words[i]))
			return true;
	return false;
}

/* The bound a failed build met, in b->bound (with b->timed_out for time), from
 * how nvcc ended and what the compiler's programs said as they died: each
 * names its own failure to allocate, fork or write, or the signal that ended
 * it (SIGXCPU 24, SIGXFSZ 25). A build that failed for no bound leaves it "". */
void cua_build_jail_bound(const struct cua_child_result *r, const char *log, long mem, long cpu,
                          long nproc, size_t object_max, struct cua_build *b)
{
	static const char *const no_memory[] = {
		"out of memory", "memory exhausted", "bad_alloc", "Cannot allocate memory",
		"Memory allocation failure", "Could not allocate", "Insufficient memory",
	};
	static const char *const no_cpu[] = { "CPU time limit", "signal 24", "Signal 24" };
	static const char *const no_file[] = { "File size limit", "signal 25", "Signal 25",
	                                       "File too large" };
	static const char *const no_fork[] = { "Resource temporarily unavailable",
	                                       "cannot fork", "Cannot fork", "vfork" };
	/* all nvcc says when it cannot start its first step (gcc would say why
	 * itself if it were missing or broken) */
	static const char nvcc_alone[] =
		"nvcc fatal   : Failed to preprocess host compiler properties.\n";
	char lim[32];
	bool sig = r->how == CUA_CHILD_SIGNALED;

	b->bound[0] = '\0';
	if ((sig && (r->sig == SIGXCPU || (r->sig == SIGKILL && cpu > 0 && r->cpu_s >= cpu))) ||
	    log_says(log, no_cpu, CUA_ARRAY_LEN(no_cpu))) {
		b->timed_out = true;
		snprintf(b->bound, sizeof(b->bound),
		         "the build used up its CPU time: %ld s for each compiler process", cpu);
	} else if ((sig && r->sig == SIGXFSZ) || log_says(log, no_file, CUA_ARRAY_LEN(no_file))) {
		cua_build_jail_size_text((double)object_max, lim, sizeof(lim));
		snprintf(b->bound, sizeof(b->bound),
		         "the build wrote a file over the object-size limit of %s", lim);
	} else if (mem > 0 && log_says(log, no_memory, CUA_ARRAY_LEN(no_memory))) {
		cua_build_jail_size_text((double)mem, lim, sizeof(lim));
		snprintf(b->bound, sizeof(b->bound),
		         "the build ran out of memory: each compiler process may use %s of "
		         "address space", lim);
	} else if (nproc > 0 && (log_says(log, no_fork, CUA_ARRAY_LEN(no_fork)) ||
	                         (log && !strcmp(log, nvcc_alone)))) {
		snprintf(b->bound, sizeof(b->bound),
		         "the build could not start a process: it may have %ld at once", nproc);
	}
}
