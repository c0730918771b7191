/* compile.h — nvcc → shared object, in a jail of its own (an unprivileged user
 * whose file system holds the toolkit, the system headers, the host compiler,
 * include/, tasks/common/ and the source: docs/SECURITY.md), bounded in time,
 * memory, processes and output, and cached by SHA-256 of (source, flags, nvcc
 * version, and every header it could include: include/, tasks/common/ and the
 * source's own folder). */
#ifndef CUA_COMPILE_H
#define CUA_COMPILE_H

#include <signal.h>

#include "common.h"

#define CUA_MAX_SOURCE (256 * 1024)   /* bytes; larger sources are refused */

/* The build's bounds beside its wall time: the address space of each compiler
 * process (the largest build measured, a Thrust candidate, needs 0.75 GiB;
 * docs/MEASUREMENTS.md) and the processes and threads it may have at once (a
 * build has at most 5; the count is the user's, so as root it is shared with
 * every process of uid 65534, kernels' included, and in a user namespace it is
 * the build's own). Its CPU time is bounded per process by the wall-time limit,
 * its files and its object by CUA_OBJECT_MAX. */
#define CUA_BUILD_MEM (2L << 30)
#define CUA_BUILD_NPROC 1024

/* Whether nvcc runs in its jail. */
enum cua_build_jail {
	CUA_BUILD_JAIL_AUTO = 0,  /* jailed where the kernel allows it; otherwise unjailed,
	                           * said once on stderr (eval, run, selftest) */
	CUA_BUILD_JAIL_REQUIRE,   /* jailed, or the build is an error (serve) */
	CUA_BUILD_JAIL_OFF,       /* never: the whole file system in view (tests) */
};

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
	enum cua_build_jail jail;
	long mem_bytes;            /* RLIMIT_AS of each compiler process; 0 = none */
	long cpu_s;                /* RLIMIT_CPU of each; 0 = the wall-time limit */
	long nproc;                /* RLIMIT_NPROC; 0 = none */
	size_t object_max;         /* the largest object built (and every file the
	                            * build writes); 0 = CUA_OBJECT_MAX */
};

/* Defaults: root/cache from the caller, nvcc found on PATH or $CUDA_HOME,
 * sm_90a, 60 s, jailed where possible, CUA_BUILD_MEM, CUA_BUILD_NPROC,
 * CUA_OBJECT_MAX. */
void cua_build_opts_init(struct cua_build_opts *o, const char *root,
                         const char *cache_dir);

struct cua_build {
	bool ok;                   /* the .so exists */
	bool cached;               /* taken from the cache */
	bool timed_out;            /* past its wall-time or CPU-time limit */
	bool too_large;            /* the source exceeded CUA_MAX_SOURCE */
	bool jailed;               /* nvcc ran in its jail (false when cached) */
	char bound[192];           /* the bound a failed build met, as the verdict says it
	                            * ("the build ran out of memory: ..."), or "" */
	double seconds;            /* wall time of nvcc (0 when cached) */
	char so_path[CUA_PATH_BUF];
	char key[65];              /* cache key */
	char so_sha256[65];        /* digest of the .so's bytes, recorded when it was
	                            * built and checked on every cache hit ("" when !ok) */
	char *log;                 /* nvcc's output, trimmed, heap (NULL if empty) */
};

/* Builds src_path. A cached object whose bytes no longer match the digest
 * recorded when it was built is thrown away and built again. A candidate that
 * does not compile, or meets a bound, is a result (ok = false, log and bound say
 * why), not an error; errors are the harness's own failures (no nvcc,
 * unreadable source, cache not writable, a jail required and not possible).
 * nvcc writes into a private folder; the harness copies the object into the
 * cache (nothing the compiler's user made is ever stored there). In the jail the
 * source and the headers beside it are copies of the bytes hashed into the key,
 * at fixed paths (/cuarena/src, /cuarena/include, /cuarena/tasks/common), so a
 * build's command line, key and object are the same in every checkout. */
enum cua_status cua_build_so(const char *src_path, const struct cua_build_opts *o,
                             struct cua_build *b, char *err, size_t errlen);
void cua_build_clear(struct cua_build *b);

/* Whether builds can be jailed here (the jail is made once, in a child, and the
 * answer kept): true, or false with why saying what the kernel refused (or that
 * $CUARENA_BUILD_JAIL is "off", the switch for tests of the unjailed path). */
bool cua_build_jail_available(char *why, size_t len);

/* One line saying what the jail of a build is here (its user, namespaces, view
 * and bounds), or "none: WHY". For `cuarena doctor`. */
void cua_build_jail_describe(char *buf, size_t len);

/* nvcc's "release X.Y, VX.Y.Z" line, or NULL if nvcc does not run. Cached. */
const char *cua_nvcc_version(const char *nvcc);

/* Path of nvcc: $CUARENA_NVCC, $CUDA_HOME/bin/nvcc, /usr/local/cuda/bin/nvcc, or
 * "nvcc" on PATH; NULL if none is executable. */
const char *cua_find_nvcc(void);

#endif /* CUA_COMPILE_H */
