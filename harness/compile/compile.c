/* compile.c — nvcc → .so in a sandboxed child, with a time limit and a cache. */
#include "compile/compile.h"
#include "judge/sandbox.h"
#include "judge/verdict.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
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

enum cua_status cua_build_so(const char *src_path, const struct cua_build_opts *o,
                             struct cua_build *b, char *err, size_t errlen)
{
	enum cua_status result;
	char *src = NULL;
	size_t src_len = 0;
	char inc1[CUA_PATH_BUF], inc2[CUA_PATH_BUF], rpath[CUA_PATH_BUF], tmp_so[CUA_PATH_BUF], log_path[CUA_PATH_BUF];
	char fail_path[CUA_PATH_BUF];
	char pv[CUA_PATH_BUF];
	const char *env[4];
	const char *argv[40];
	int argc = 0;
	struct cua_child_result r;
	bool have_r = false;

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
	/* nvcc runs in a private temp dir: every path it sees must be absolute. */
	char abs_src[CUA_PATH_LEN], abs_root[CUA_PATH_LEN], abs_cache[CUA_PATH_LEN];
	if (!realpath(src_path, abs_src)) {
		cua_errf(err, errlen, "%s: cannot open: %s", src_path, strerror(errno));
		return CUA_E_IO;
	}
	if (!realpath(o->root, abs_root)) {
		cua_errf(err, errlen, "%s: %s", o->root, strerror(errno));
		return CUA_E_NOT_FOUND;
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

	snprintf(inc1, sizeof(inc1), "-I%s/include", abs_root);
	snprintf(inc2, sizeof(inc2), "-I%s/tasks/common", abs_root);
	{
		/* Libraries resolve from the toolkit that built the object. */
		char home[CUA_PATH_LEN];
		snprintf(home, sizeof(home), "%s", o->nvcc);
		char *sl = strrchr(home, '/');
		if (sl)
			*sl = '\0';
		snprintf(rpath, sizeof(rpath), "-Xlinker=-rpath,%s/../lib64", home);
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
			hash_headers(h, dir);
		}
		/* A baseline may include a sibling library's headers (a cuBLAS-only
		 * Level 3 baseline includes ../cudnn/net-lib.cuh): every baselines/
		 * folder's headers are part of its key. */
		snprintf(dir, sizeof(dir), "%s/baselines/", abs_root);
		if (!strncmp(abs_src, dir, strlen(dir)))
			hash_baseline_headers(h, abs_root);
		cua_sha256_final(h, b->key);
	}
	snprintf(b->so_path, sizeof(b->so_path), "%s/%s.so", abs_cache, b->key);
	snprintf(log_path, sizeof(log_path), "%s/%s.log", abs_cache, b->key);
	char sum_path[CUA_PATH_BUF];
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
	 * timeout, which depends on the machine's load). */
	snprintf(fail_path, sizeof(fail_path), "%s/%s.fail", abs_cache, b->key);
	if (file_exists(fail_path)) {
		b->cached = true;
		size_t ll = 0;
		if (cua_read_file(fail_path, LOG_MAX * 4, &b->log, &ll, NULL, 0) != CUA_OK)
			b->log = NULL;
		result = CUA_OK;
		goto out;
	}
	/* Unique per build: two threads may build the same key at once (a task's
	 * reference submitted as a candidate), and the first rename must not steal
	 * the second's file. */
	static atomic_uint serial;
	snprintf(tmp_so, sizeof(tmp_so), "%s/%s.so.tmp.%ld.%u", abs_cache, b->key,
	         (long)getpid(), atomic_fetch_add(&serial, 1));
	argv[argc++] = "-o";
	argv[argc++] = tmp_so;
	argv[argc++] = src_path;
	argv[argc] = NULL;

	struct cua_sandbox_opts so;
	cua_sandbox_opts_init(&so);
	so.timeout_s = o->timeout_s;
	so.fsize_bytes = 1L << 30;     /* a compile bomb may not fill the disk */
	so.capture_max = 256 * 1024;
	build_env(o->nvcc, pv, sizeof(pv), env);
	so.env = env;
	so.stop = o->stop;
	double t0 = cua_now();
	result = cua_sandbox_run(argv, &so, &r, err, errlen);
	if (result != CUA_OK)
		goto out;
	have_r = true;
	if (r.how == CUA_CHILD_STOPPED) {   /* nothing learnt about the source */
		unlink(tmp_so);
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
		unlink(tmp_so);
		goto out;
	}
	if (r.how != CUA_CHILD_NORMAL || r.code != 0 || !file_exists(tmp_so)) {
		unlink(tmp_so);
		if (r.how == CUA_CHILD_NORMAL && r.code != 0)
			cua_write_file(fail_path, b->log ? b->log : "", b->log ? strlen(b->log) : 0,
			               NULL, 0);
		goto out;
	}
	/* Store it under its key unless another build of the same key (the same
	 * source built at once by two threads or processes) got there first: nvcc's
	 * output is not byte-for-byte reproducible, so the stored object and its
	 * digest must come from one build. link() fails when the entry exists;
	 * then that build's object (and digest) is ours too. */
	if (file_digest(tmp_so, b->so_sha256) != CUA_OK) {
		cua_errf(err, errlen, "%s: cannot read the build", tmp_so);
		unlink(tmp_so);
		result = CUA_E_IO;
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
	free(src);
	return result;
}
