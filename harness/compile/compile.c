/* compile.c — nvcc → .so in a jail of its own (a view of the toolkit, the system
 * headers, the host compiler and our headers; unprivileged, no network), bounded
 * in time, memory, processes and output, and cached. */
#include "compile/build-jail.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#define LOG_MAX (16 * 1024)

static bool executable(const char *p)
{
	return p && access(p, X_OK) == 0;
}

static const char *nvcc_path;

static void find_nvcc_once(void)
{
	static char buf[CUA_PATH_LEN];
	const char *env = getenv("CUARENA_NVCC");
	const char *home = getenv("CUDA_HOME");

	if (executable(env)) {
		snprintf(buf, sizeof(buf), "%s", env);
		nvcc_path = buf;
		return;
	}
	if (home) {
		snprintf(buf, sizeof(buf), "%s/bin/nvcc", home);
		if (executable(buf)) {
			nvcc_path = buf;
			return;
		}
	}
	if (executable("/usr/local/cuda/bin/nvcc")) {
		nvcc_path = "/usr/local/cuda/bin/nvcc";
		return;
	}
	const char *path = getenv("PATH");
	while (path && *path) {
		const char *colon = strchr(path, ':');
		size_t n = colon ? (size_t)(colon - path) : strlen(path);
		snprintf(buf, sizeof(buf), "%.*s/nvcc", (int)n, path);
		if (n && executable(buf)) {
			nvcc_path = buf;
			return;
		}
		path = colon ? colon + 1 : NULL;
	}
}

/* Found once per process: builds on many threads share the answer (a static
 * buffer written by each caller raced). */
const char *cua_find_nvcc(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, find_nvcc_once);
	return nvcc_path;
}

/* The environment nvcc runs with: nothing of ours leaks into a build. */
static void build_env(const char *nvcc, char *path_var, size_t len,
                      const char *env[4])
{
	char dir[CUA_PATH_LEN];
	snprintf(dir, sizeof(dir), "%s", nvcc);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof(dir), "/usr/local/cuda/bin");
	snprintf(path_var, len, "PATH=%s:/usr/local/bin:/usr/bin:/bin", dir);
	env[0] = path_var;
	env[1] = "LANG=C";
	env[2] = NULL;
}

const char *cua_nvcc_version(const char *nvcc)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static char version[256];
	static char for_nvcc[CUA_PATH_LEN];

	if (!nvcc)
		return NULL;
	pthread_mutex_lock(&lock);
	if (strcmp(for_nvcc, nvcc) != 0) {
		struct cua_sandbox_opts o;
		struct cua_child_result r;
		char pv[CUA_PATH_BUF];
		const char *env[4];
		const char *argv[] = {nvcc, "--version", NULL};

		version[0] = '\0';
		cua_sandbox_opts_init(&o);
		o.timeout_s = 30;
		o.isolate_net = false;
		build_env(nvcc, pv, sizeof(pv), env);
		o.env = env;
		if (cua_sandbox_run(argv, &o, &r, NULL, 0) == CUA_OK) {
			if (r.how == CUA_CHILD_NORMAL && r.code == 0 && r.out) {
				const char *rel = strstr(r.out, "release ");
				if (rel) {
					size_t n = strcspn(rel, "\n");
					snprintf(version, sizeof(version), "%.*s", (int)n, rel);
				}
			}
			cua_child_result_clear(&r);
		}
		/* Only a success is remembered: a probe that failed (seen once on the GPU
		 * machine under heavy parallel load) is tried again by the next build. */
		if (version[0])
			snprintf(for_nvcc, sizeof(for_nvcc), "%s", nvcc);
	}
	pthread_mutex_unlock(&lock);
	return version[0] ? version : NULL;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Feeds every header (*.h, *.cuh) of dir into h, in name order: a build depends
 * on what it includes from tasks/common and from its own folder. */
static void hash_headers(struct cua_sha256 *h, const char *dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, by_name);
	for (int i = 0; i < n; i++) {
		const char *fn = names[i]->d_name;
		size_t len = strlen(fn);
		bool hdr = (len > 2 && !strcmp(fn + len - 2, ".h")) ||
		           (len > 4 && !strcmp(fn + len - 4, ".cuh"));
		if (hdr) {
			char path[CUA_PATH_BUF], *buf = NULL;
			size_t blen = 0;
			snprintf(path, sizeof(path), "%s/%s", dir, fn);
			if (cua_read_file(path, 4 << 20, &buf, &blen, NULL, 0) == CUA_OK) {
				cua_sha256_update(h, fn, len + 1);
				cua_sha256_update(h, buf, blen);
			}
			free(buf);
		}
		free(names[i]);
	}
	if (n > 0)
		free(names);
}

/* An nvcc argument, with the repo root in it named by a token, not its path: the
 * headers it points at are hashed by name and content, so the same build in
 * another checkout (a CI clone, the tree copied to a GPU machine) has the same
 * key, and a cache built here is found there. Only the -I paths are built from
 * the root. (An object's __FILE__ strings keep the path it was built under;
 * nothing it computes depends on it.) */
__attribute__((noinline))   /* inlined, gcc's -Wstringop-overread takes argv's literals for arg */
static void hash_arg(struct cua_sha256 *h, const char *arg, const char *root)
{
	size_t n = strlen(root), len = strlen(arg);
	if (n && len >= 2 + n && !memcmp(arg, "-I", 2) && !memcmp(arg + 2, root, n)) {
		cua_sha256_update(h, "-I<root>", 8);
		arg += 2 + n;
	}
	cua_sha256_update(h, arg, strlen(arg));
}

/* hash_headers() of every folder under root/baselines, in name order. */
static void hash_baseline_headers(struct cua_sha256 *h, const char *root)
{
	struct dirent **names;
	char dir[CUA_PATH_BUF];
	snprintf(dir, sizeof(dir), "%s/baselines", root);
	int n = scandir(dir, &names, NULL, by_name);
	for (int i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.') {
			char sub[CUA_PATH_BUF];
			if (cua_pathf(sub, sizeof(sub), NULL, 0, "%s/%s", dir,
			              names[i]->d_name) == CUA_OK)
				hash_headers(h, sub);
		}
		free(names[i]);
	}
	if (n > 0)
		free(names);
}

void cua_build_opts_init(struct cua_build_opts *o, const char *root,
                         const char *cache_dir)
{
	memset(o, 0, sizeof(*o));
	o->root = root;
	o->cache_dir = cache_dir;
	o->nvcc = cua_find_nvcc();
	o->gencode = "-gencode=arch=compute_90a,code=sm_90a";
	o->timeout_s = 60;
	o->jail = CUA_BUILD_JAIL_AUTO;
	o->mem_bytes = CUA_BUILD_MEM;
	o->nproc = CUA_BUILD_NPROC;
	o->object_max = CUA_OBJECT_MAX;
}

void cua_build_clear(struct cua_build *b)
{
	if (b) {
		free(b->log);
		b->log = NULL;
	}
}

static bool file_exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* SHA-256 (hex) of a file's bytes. */
static enum cua_status file_digest(const char *path, char out[65])
{
	char *buf = NULL;
	size_t len = 0;
	enum cua_status st = cua_read_file(path, (size_t)1 << 30, &buf, &len, NULL, 0);
	if (st == CUA_OK)
		cua_sha256_hex(buf, len, out);
	free(buf);
	return st;
}

/* A cached object is loaded only when its bytes are the ones built. Its digest
 * is written just after it is stored (compile.c's builds race benignly: the
 * first to store an entry wins), so a missing digest is waited for briefly. */
static bool cache_entry_intact(const char *so, const char *sum, char digest[65])
{
	char *want = NULL;
	size_t wl = 0;
	bool have = false;
	for (int i = 0; i < 200 && !have; i++) {
		have = cua_read_file(sum, 256, &want, &wl, NULL, 0) == CUA_OK && wl >= 64;
		if (!have) {
			free(want);
			want = NULL;
			struct timespec ts = { 0, 10 * 1000 * 1000 };
			nanosleep(&ts, NULL);
		}
	}
	bool ok = have && file_digest(so, digest) == CUA_OK && !memcmp(want, digest, 64);
	free(want);
	if (!ok)
		digest[0] = '\0';
	return ok;
}

/* Writes a file of ours into the build's folder (no fsync: it lives for one build). */
static enum cua_status put_file(const char *path, const char *buf, size_t len, char *err,
                                size_t errlen)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		cua_errf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
		return CUA_E_IO;
	}
	while (len > 0) {
		ssize_t w = write(fd, buf, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			cua_errf(err, errlen, "%s: write failed: %s", path, strerror(errno));
			close(fd);
			return CUA_E_IO;
		}
		buf += w;
		len -= (size_t)w;
	}
	return close(fd) == 0 ? CUA_OK : CUA_E_IO;
}

/* The headers beside a source: regular files (a link is neither hashed nor
 * shown: it could point anywhere), read once, hashed into the key and, in the
 * jail, copied beside the source's copy. */
struct headers {
	char **name, **text;
	size_t *len;
	int n;
};

static void headers_read(struct headers *hs, const char *dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, by_name);
	memset(hs, 0, sizeof(*hs));
	for (int i = 0; i < n; i++) {
		const char *fn = names[i]->d_name;
		size_t len = strlen(fn);
		bool hdr = (len > 2 && !strcmp(fn + len - 2, ".h")) ||
		           (len > 4 && !strcmp(fn + len - 4, ".cuh"));
		char path[CUA_PATH_BUF], *buf = NULL;
		size_t blen = 0;
		struct stat st;
		if (hdr && cua_pathf(path, sizeof(path), NULL, 0, "%s/%s", dir, fn) == CUA_OK &&
		    lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
		    cua_read_file(path, 4 << 20, &buf, &blen, NULL, 0) == CUA_OK) {
			hs->name = cua_xrealloc(hs->name, (size_t)(hs->n + 1) * sizeof(char *));
			hs->text = cua_xrealloc(hs->text, (size_t)(hs->n + 1) * sizeof(char *));
			hs->len = cua_xrealloc(hs->len, (size_t)(hs->n + 1) * sizeof(size_t));
			hs->name[hs->n] = cua_xstrdup(fn);
			hs->text[hs->n] = buf;
			hs->len[hs->n++] = blen;
		}
		free(names[i]);
	}
	if (n > 0)
		free(names);
}

static void headers_hash(const struct headers *hs, struct cua_sha256 *h)
{
	for (int i = 0; i < hs->n; i++) {
		cua_sha256_update(h, hs->name[i], strlen(hs->name[i]) + 1);
		cua_sha256_update(h, hs->text[i], hs->len[i]);
	}
}

static void headers_free(struct headers *hs)
{
	for (int i = 0; i < hs->n; i++) {
		free(hs->name[i]);
		free(hs->text[i]);
	}
	free(hs->name);
	free(hs->text);
	free(hs->len);
	memset(hs, 0, sizeof(*hs));
}

/* ---- the build ------------------------------------------------------------------- */

enum cua_status cua_build_so(const char *src_path, const struct cua_build_opts *o,
                             struct cua_build *b, char *err, size_t errlen)
{
	enum cua_status result;
	char *src = NULL;
	size_t src_len = 0;
	char inc1[CUA_PATH_BUF], inc2[CUA_PATH_BUF], rpath[CUA_PATH_BUF], tmp_so[CUA_PATH_BUF];
	char log_path[CUA_PATH_BUF], fail_path[CUA_PATH_BUF], sum_path[CUA_PATH_BUF];
	char src_arg[CUA_PATH_BUF], out_arg[CUA_PATH_BUF], out_host[CUA_PATH_BUF];
	char pv[CUA_PATH_BUF], home[CUA_PATH_BUF], tmpdir[CUA_PATH_BUF];
	const char *env[6];
	const char *argv[40];
	int argc = 0;
	struct cua_child_result r;
	bool have_r = false;
	struct headers hs = { 0 };
	struct cua_build_view view = { 0 };
	struct cua_build_work w = { .dir = "" };

	memset(b, 0, sizeof(*b));
	if (!o->nvcc) {
		cua_errf(err, errlen, "nvcc not found: set CUDA_HOME or CUARENA_NVCC");
		return CUA_E_NOT_FOUND;
	}
	const char *version = cua_nvcc_version(o->nvcc);
	if (!version) {
		cua_errf(err, errlen, "%s --version does not run", o->nvcc);
		return CUA_E_NOT_FOUND;
	}
	/* nvcc runs in a private folder: every path it sees must be absolute. */
	char abs_src[CUA_PATH_LEN], abs_root[CUA_PATH_LEN], abs_cache[CUA_PATH_LEN];
	if (!realpath(src_path, abs_src)) {
		cua_errf(err, errlen, "%s: cannot open: %s", src_path, strerror(errno));
		return CUA_E_IO;
	}
	if (!realpath(o->root, abs_root)) {
		cua_errf(err, errlen, "%s: %s", o->root, strerror(errno));
		return CUA_E_NOT_FOUND;
	}
	bool jailed = o->jail != CUA_BUILD_JAIL_OFF;
	char why[CUA_ERR_LEN];
	if (jailed && !cua_build_jail_available(why, sizeof(why))) {
		if (o->jail == CUA_BUILD_JAIL_REQUIRE) {
			cua_errf(err, errlen, "nvcc cannot be jailed here, and this build requires it: "
			         "%s", why);
			return CUA_E_SYSTEM;
		}
		jailed = false;
		cua_build_jail_warn();
	}
	src_path = abs_src;
	result = cua_read_file(src_path, CUA_MAX_SOURCE, &src, &src_len, err, errlen);
	if (result == CUA_E_INVALID) {
		/* An oversized source is the candidate's failure, not ours. */
		b->too_large = true;
		b->log = strdup("source too large: the limit is 256 KiB");
		return CUA_OK;
	}
	if (result != CUA_OK)
		return result;
	result = cua_mkdirs(o->cache_dir, err, errlen);
	if (result != CUA_OK)
		goto out;
	char cache_real[CUA_PATH_LEN];
	if (!realpath(o->cache_dir, cache_real) || strlen(cache_real) >= sizeof(abs_cache)) {
		cua_errf(err, errlen, "%s: %s", o->cache_dir, strerror(errno));
		result = CUA_E_IO;
		goto out;
	}
	memcpy(abs_cache, cache_real, strlen(cache_real) + 1);
	char bdir[CUA_PATH_BUF];
	snprintf(bdir, sizeof(bdir), "%s/baselines/", abs_root);
	bool baseline = !strncmp(abs_src, bdir, strlen(bdir));

	/* The jail's paths are fixed; unjailed, the repository's own. */
	if (jailed) {
		snprintf(inc1, sizeof(inc1), "-I" CUA_BUILD_AT_ROOT "/include");
		snprintf(inc2, sizeof(inc2), "-I" CUA_BUILD_AT_ROOT "/tasks/common");
	} else {
		snprintf(inc1, sizeof(inc1), "-I%s/include", abs_root);
		snprintf(inc2, sizeof(inc2), "-I%s/tasks/common", abs_root);
	}
	{
		/* Libraries resolve from the toolkit that built the object. */
		char dir[CUA_PATH_LEN];
		snprintf(dir, sizeof(dir), "%s", o->nvcc);
		char *sl = strrchr(dir, '/');
		if (sl)
			*sl = '\0';
		snprintf(rpath, sizeof(rpath), "-Xlinker=-rpath,%s/../lib64", dir);
	}
	argv[argc++] = o->nvcc;
	argv[argc++] = "-O3";
	argv[argc++] = "-std=c++17";
	argv[argc++] = o->gencode;
	argv[argc++] = "-Xcompiler=-fPIC";
	/* What is legitimate links clean: only what cuarena.h marks CUA_EXPORT is
	 * exported, so nvcc's host stub of a non-static __device__ function (it calls
	 * exit) is unreferenced and --gc-sections drops it with its import; NVTX
	 * (pulled in by CUB and Thrust: dlopen, getenv) compiles to nothing. */
	argv[argc++] = "-Xcompiler=-fvisibility=hidden,-ffunction-sections,-fdata-sections";
	argv[argc++] = "-Xlinker=--gc-sections";
	argv[argc++] = "-DNVTX_DISABLE";
	argv[argc++] = "-shared";
	argv[argc++] = "-cudart=shared";
	argv[argc++] = inc1;
	argv[argc++] = inc2;
	for (int i = 0; i < o->n_libs; i++) {
		if (!strcmp(o->libs[i], "cublas")) {
			argv[argc++] = "-lcublas";
			argv[argc++] = "-lcublasLt";
		} else if (!strcmp(o->libs[i], "cudnn")) {
			argv[argc++] = "-lcudnn";
		}
	}
	argv[argc++] = rpath;

	/* The key covers everything that changes the binary. */
	{
		struct cua_sha256 *h = cua_sha256_new();
		cua_sha256_update(h, src, src_len);
		for (int i = 1; i < argc; i++) {
			cua_sha256_update(h, "\0", 1);
			hash_arg(h, argv[i], abs_root);
		}
		cua_sha256_update(h, "\0", 1);
		cua_sha256_update(h, version, strlen(version));
		/* Headers a build can include: the ABI, tasks/common, its own folder. */
		char dir[CUA_PATH_BUF];
		snprintf(dir, sizeof(dir), "%s/include", abs_root);
		hash_headers(h, dir);
		snprintf(dir, sizeof(dir), "%s/tasks/common", abs_root);
		hash_headers(h, dir);
		snprintf(dir, sizeof(dir), "%s", abs_src);
		char *sl = strrchr(dir, '/');
		if (sl) {
			*sl = '\0';
			headers_read(&hs, dir);
			headers_hash(&hs, h);
		}
		/* A baseline may include a sibling library's headers (a cuBLAS-only
		 * Level 3 baseline includes ../cudnn/net-lib.cuh): every baselines/
		 * folder's headers are part of its key. */
		if (baseline)
			hash_baseline_headers(h, abs_root);
		cua_sha256_final(h, b->key);
	}
	snprintf(b->so_path, sizeof(b->so_path), "%s/%s.so", abs_cache, b->key);
	snprintf(log_path, sizeof(log_path), "%s/%s.log", abs_cache, b->key);
	snprintf(sum_path, sizeof(sum_path), "%s/%s.so.sha256", abs_cache, b->key);
	if (file_exists(b->so_path) &&
	    !cache_entry_intact(b->so_path, sum_path, b->so_sha256)) {
		/* changed since it was built (or built before digests were kept):
		 * never load it; build it again */
		unlink(b->so_path);
		unlink(sum_path);
	}
	if (file_exists(b->so_path)) {
		b->ok = true;
		b->cached = true;
		char *lg = NULL;
		size_t ll = 0;
		if (cua_read_file(log_path, LOG_MAX * 4, &lg, &ll, NULL, 0) == CUA_OK && ll)
			b->log = lg;
		else
			free(lg);
		result = CUA_OK;
		goto out;
	}
	/* A source that failed to compile fails again: its log is cached too (not a
	 * timeout, which depends on the machine's load, nor a bound, which depends
	 * on the options). */
	snprintf(fail_path, sizeof(fail_path), "%s/%s.fail", abs_cache, b->key);
	if (file_exists(fail_path)) {
		b->cached = true;
		size_t ll = 0;
		if (cua_read_file(fail_path, LOG_MAX * 4, &b->log, &ll, NULL, 0) != CUA_OK)
			b->log = NULL;
		result = CUA_OK;
		goto out;
	}

	result = cua_build_jail_work(&w, jailed, err, errlen);
	if (result != CUA_OK)
		goto out;
	char name[256];
	cua_build_jail_name(abs_src, name, sizeof(name));
	if (jailed) {
		/* what the jail compiles is the bytes hashed */
		char p[CUA_PATH_BUF];
		for (int i = 0; i < hs.n && result == CUA_OK && !baseline; i++) {
			result = cua_pathf(p, sizeof(p), err, errlen, "%s/%s", w.src, hs.name[i]);
			if (result == CUA_OK)
				result = put_file(p, hs.text[i], hs.len[i], err, errlen);
		}
		if (result == CUA_OK && !baseline)
			result = cua_pathf(p, sizeof(p), err, errlen, "%s/%s", w.src, name);
		if (result == CUA_OK && !baseline)
			result = put_file(p, src, src_len, err, errlen);
		if (result != CUA_OK)
			goto out;
		if (baseline)
			snprintf(src_arg, sizeof(src_arg), CUA_BUILD_AT_ROOT "/baselines/%s", abs_src + strlen(bdir));
		else
			snprintf(src_arg, sizeof(src_arg), CUA_BUILD_AT_SRC "/%s", name);
		snprintf(tmpdir, sizeof(tmpdir), "/tmp");
		cua_build_jail_view(&view, o->nvcc, abs_root, baseline, &w);
	} else {
		snprintf(src_arg, sizeof(src_arg), "%s", abs_src);
		snprintf(tmpdir, sizeof(tmpdir), "%s", w.tmp);
	}
	if (cua_pathf(out_arg, sizeof(out_arg), err, errlen, "%s/out.so", tmpdir) != CUA_OK ||
	    cua_pathf(out_host, sizeof(out_host), err, errlen, "%s/out.so", w.tmp) != CUA_OK) {
		result = CUA_E_INVALID;
		goto out;
	}
	argv[argc++] = "-o";
	argv[argc++] = out_arg;
	argv[argc++] = src_arg;
	argv[argc] = NULL;

	size_t object_max = o->object_max ? o->object_max : CUA_OBJECT_MAX;
	long cpu = o->cpu_s > 0 ? o->cpu_s : (long)ceil(o->timeout_s > 1 ? o->timeout_s : 1);
	struct cua_sandbox_opts so;
	cua_sandbox_opts_init(&so);
	so.timeout_s = o->timeout_s;
	so.private_tmp = false;
	so.cwd = jailed ? "/tmp" : w.tmp;
	/* the build's files: the object may be one byte over its limit, which is
	 * then said plainly; a larger file kills its writer (SIGXFSZ) */
	so.fsize_bytes = (long)object_max + 1;
	so.as_bytes = o->mem_bytes;
	so.cpu_s = cpu;
	so.nproc = o->nproc;
	so.capture_max = 256 * 1024;
	so.view = jailed ? view.e : NULL;
	so.n_view = jailed ? view.n : 0;
	build_env(o->nvcc, pv, sizeof(pv), env);
	char tmpvar[CUA_PATH_BUF];
	if (cua_pathf(home, sizeof(home), err, errlen, "HOME=%s", tmpdir) != CUA_OK ||
	    cua_pathf(tmpvar, sizeof(tmpvar), err, errlen, "TMPDIR=%s", tmpdir) != CUA_OK) {
		result = CUA_E_INVALID;
		goto out;
	}
	env[2] = home;
	env[3] = tmpvar;
	env[4] = NULL;
	so.env = env;
	so.stop = o->stop;
	double t0 = cua_now();
	result = cua_sandbox_run(argv, &so, &r, err, errlen);
	if (result != CUA_OK)
		goto out;
	have_r = true;
	b->jailed = r.jailed;
	if (r.how == CUA_CHILD_STOPPED) {   /* nothing learnt about the source */
		cua_errf(err, errlen, "%s: build stopped on request", src_path);
		result = CUA_E_INTERRUPTED;
		goto out;
	}
	b->seconds = cua_now() - t0;
	{
		size_t n = r.out_len + r.err_len;
		char *all = malloc(n + 1);
		CUA_ASSERT(all);
		memcpy(all, r.out ? r.out : "", r.out_len);
		memcpy(all + r.out_len, r.err ? r.err : "", r.err_len);
		all[n] = '\0';
		b->log = n ? cua_trim_text(all, n, LOG_MAX) : NULL;
		free(all);
	}
	if (r.how == CUA_CHILD_TIMEOUT) {
		b->timed_out = true;
		snprintf(b->bound, sizeof(b->bound), "nvcc did not finish within its time limit "
		         "of %.3g s", o->timeout_s);
		goto out;
	}
	if (r.how != CUA_CHILD_NORMAL || r.code != 0) {
		cua_build_jail_bound(&r, b->log, o->mem_bytes, cpu, o->nproc, object_max, b);
		if (r.how == CUA_CHILD_NORMAL && !b->bound[0])
			cua_write_file(fail_path, b->log ? b->log : "", b->log ? strlen(b->log) : 0,
			               NULL, 0);
		goto out;
	}
	/* Copy it in under its key unless another build of the same key (the same
	 * source built at once by two threads or processes) got there first: nvcc's
	 * output is not byte-for-byte reproducible, so the stored object and its
	 * digest must come from one build. link() fails when the entry exists;
	 * then that build's object (and digest) is ours too. */
	static atomic_uint serial;
	snprintf(tmp_so, sizeof(tmp_so), "%s/%s.so.tmp.%ld.%u", abs_cache, b->key,
	         (long)getpid(), atomic_fetch_add(&serial, 1));
	size_t size = 0;
	bool over = false;
	result = cua_build_jail_copy_object(out_host, tmp_so, object_max, b->so_sha256, &size, &over,
	                                    err, errlen);
	if (result == CUA_E_NOT_FOUND) {   /* nvcc said yes and wrote nothing */
		result = CUA_OK;
		goto out;
	}
	if (result != CUA_OK)
		goto out;
	if (over) {
		char lim[32], got[32];
		cua_build_jail_size_text((double)object_max, lim, sizeof(lim));
		cua_build_jail_size_text((double)size, got, sizeof(got));
		snprintf(b->bound, sizeof(b->bound),
		         "the object is %s, over the object-size limit of %s", got, lim);
		b->so_sha256[0] = '\0';
		goto out;
	}
	if (link(tmp_so, b->so_path) != 0) {
		unlink(tmp_so);
		if (errno == EEXIST && cache_entry_intact(b->so_path, sum_path, b->so_sha256)) {
			b->ok = true;
			goto out;
		}
		cua_errf(err, errlen, "%s: cannot store build: %s", b->so_path, strerror(errno));
		result = CUA_E_IO;
		goto out;
	}
	unlink(tmp_so);
	{
		char tmp_sum[CUA_PATH_BUF];
		if (cua_pathf(tmp_sum, sizeof(tmp_sum), err, errlen, "%s.tmp", tmp_so) != CUA_OK ||
		    cua_write_file(tmp_sum, b->so_sha256, 64, err, errlen) != CUA_OK ||
		    rename(tmp_sum, sum_path) != 0) {
			unlink(tmp_sum);
			unlink(b->so_path);
			if (err && !err[0])
				cua_errf(err, errlen, "%s: cannot record the build's digest", b->so_path);
			result = CUA_E_IO;
			goto out;
		}
	}
	if (b->log)
		cua_write_file(log_path, b->log, strlen(b->log), NULL, 0);
	b->ok = true;
out:
	if (have_r)
		cua_child_result_clear(&r);
	if (w.dir[0])
		cua_rmtree(w.dir);
	if (!b->ok)
		b->so_sha256[0] = '\0';
	headers_free(&hs);
	cua_build_jail_view_clear(&view);
	free(src);
	return result;
}
