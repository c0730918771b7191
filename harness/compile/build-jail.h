/* build-jail.h — the build's jail, for compile.c: the view nvcc runs in, the
 * private folder it writes to, the copy of its object into the cache, and the
 * names of the bounds a build meets. What the jail defends, and what not:
 * docs/SECURITY.md, "The build". cua_build_jail_available and
 * cua_build_jail_describe, the public part, are in compile.h. */
#ifndef CUA_BUILD_JAIL_H
#define CUA_BUILD_JAIL_H

#include "compile/compile.h"
#include "sandbox.h"
#include "view.h"

/* Where our files are in the jail: fixed paths, so that a build's command line
 * (its key, its object) is the same in any checkout. */
#define CUA_BUILD_AT_ROOT "/cuarena"
#define CUA_BUILD_AT_SRC CUA_BUILD_AT_ROOT "/src"

/* One build's view (heap entries, cleared by cua_build_jail_view_clear). */
struct cua_build_view {
	struct cua_view_entry *e;
	char **own;     /* the entries' strings, two per entry */
	int n, cap;
};

/* One build's private folder: tmp/ (nvcc's cwd, TMPDIR and output: the only
 * place it writes) and src/ (the copies of the source and of the headers beside
 * it, the bytes its key was made of). The caller removes dir (cua_rmtree). */
struct cua_build_work {
	char dir[CUA_PATH_LEN];
	char tmp[CUA_PATH_BUF];
	char src[CUA_PATH_BUF];
};

/* Makes w under $TMPDIR (or /tmp); for a jailed build of root's, tmp/ is uid
 * 65534's and dir may be passed through. w->dir is "" on failure. */
enum cua_status cua_build_jail_work(struct cua_build_work *w, bool jailed, char *err,
                                    size_t errlen);

/* The view of one build: the toolkit (nvcc's folder's parent, at its own path),
 * the system's headers, compiler and libraries, our headers at
 * CUA_BUILD_AT_ROOT, the source (w->src at CUA_BUILD_AT_SRC, or for a baseline
 * the repository's baselines/ folder), w->tmp at /tmp, and /dev/null. */
void cua_build_jail_view(struct cua_build_view *v, const char *nvcc, const char *abs_root,
                         bool baseline, const struct cua_build_work *w);
void cua_build_jail_view_clear(struct cua_build_view *v);

/* The source's name in the jail: its own when it is a plain one, else
 * candidate.cu (the name shows in the log and in the object). */
void cua_build_jail_name(const char *abs_src, char *out, size_t len);

/* Says once per process, on stderr, that builds go on unjailed, and why. */
void cua_build_jail_warn(void);

/* Copies the object nvcc wrote (a file of the compiler's user: read, never
 * moved) to `to`, a new file of the harness's, with its digest. *size is its
 * size; *over says it is larger than max (then nothing is copied). The object
 * missing or not a plain file is CUA_E_NOT_FOUND. */
enum cua_status cua_build_jail_copy_object(const char *from, const char *to, size_t max,
                                          char digest[65], size_t *size, bool *over, char *err,
                                          size_t errlen);

/* The bound a failed build met, in b->bound (with b->timed_out for CPU time),
 * from how nvcc ended and what the compiler's programs said as they died: each
 * names its own failure to allocate, fork or write, or the signal that ended it
 * (SIGXCPU 24, SIGXFSZ 25). A build that failed for no bound leaves it "". */
void cua_build_jail_bound(const struct cua_child_result *r, const char *log, long mem,
                          long cpu, long nproc, size_t object_max, struct cua_build *b);

/* "512 MiB", "2 GiB", "64 KiB". */
void cua_build_jail_size_text(double bytes, char *buf, size_t len);

#endif /* CUA_BUILD_JAIL_H */
