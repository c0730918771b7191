/* compile.h — nvcc → shared object, in a sandbox with a time limit, cached by
 * SHA-256 of (source, flags, nvcc version, and every header it could include:
 * include/, tasks/common/ and the source's own folder). */
#ifndef CUA_COMPILE_H
#define CUA_COMPILE_H

#include <signal.h>

#include "common.h"

#define CUA_MAX_SOURCE (256 * 1024)   /* bytes; larger sources are refused */

struct cua_build_opts {
	const char *root;          /* repo root: include/ and tasks/common/ are on the path */
	const char *cache_dir;     /* where .so and logs are kept */
	const char *nvcc;          /* path of nvcc */
	const char *gencode;       /* "-gencode=arch=compute_90a,code=sm_90a" */
	double timeout_s;          /* wall-clock limit for nvcc */
	const char *libs[4];       /* "cublas", "cudnn" → linked */
	int n_libs;
	const volatile sig_atomic_t *stop; /* optional: once non-zero, nvcc is killed
	                            * and the build returns CUA_E_INTERRUPTED */
};

/* Defaults: root/cache from the caller, nvcc found on PATH or $CUDA_HOME,
 * sm_90a, 60 s. */
void cua_build_opts_init(struct cua_build_opts *o, const char *root,
                         const char *cache_dir);

struct cua_build {
	bool ok;                   /* the .so exists */
	bool cached;               /* taken from the cache */
	bool timed_out;
	bool too_large;            /* the source exceeded CUA_MAX_SOURCE */
	double seconds;            /* wall time of nvcc (0 when cached) */
	char so_path[CUA_PATH_BUF];
	char key[65];              /* cache key */
	char so_sha256[65];        /* digest of the .so's bytes, recorded when it was
	                            * built and checked on every cache hit ("" when !ok) */
	char *log;                 /* nvcc's output, trimmed, heap (NULL if empty) */
};

/* Builds src_path. A cached object whose bytes no longer match the digest
 * recorded when it was built is thrown away and built again. A candidate that
 * does not compile is a result (ok = false,
 * log says why), not an error; errors are the harness's own failures (no nvcc,
 * unreadable source, cache not writable). */
enum cua_status cua_build_so(const char *src_path, const struct cua_build_opts *o,
                             struct cua_build *b, char *err, size_t errlen);
void cua_build_clear(struct cua_build *b);

/* nvcc's "release X.Y, VX.Y.Z" line, or NULL if nvcc does not run. Cached. */
const char *cua_nvcc_version(const char *nvcc);

/* Path of nvcc: $CUARENA_NVCC, $CUDA_HOME/bin/nvcc, /usr/local/cuda/bin/nvcc, or
 * "nvcc" on PATH; NULL if none is executable. */
const char *cua_find_nvcc(void);

#endif /* CUA_COMPILE_H */
