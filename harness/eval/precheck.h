/* precheck.h — everything judged before a kernel runs, in one place: build, the
 * static check of its symbols, and the SASS precision check. Needs no GPU:
 * `cuarena eval --compile-only` is this and nothing else. */
#ifndef CUA_PRECHECK_H
#define CUA_PRECHECK_H

#include "eval/eval.h"
#include "compile/symcheck.h"

/* Libraries a kernel is built and checked with: a candidate gets its task's, a
 * library baseline its own folder's (cublas/..., cudnn/...), a reference none. */
void cua_subject_libs(const struct cua_task *t, enum cua_subject_kind kind,
                      const char *subject, struct cua_build_opts *bo,
                      struct cua_symcheck_policy *pol);

/* Builds src_path (or takes over `pre`, an earlier build of it, when not NULL:
 * its heap members become b_out's) and checks it: compile result, imported and
 * defined symbols (symcheck.h), an exported cua_solve, and, for every kernel
 * but a library baseline (trusted; its cuBLAS/cuDNN code is not in its own
 * SASS anyway), the SASS against the task's precision policy (sass.h).
 * e (initialised by the caller) gets the compile facts; a rejected kernel
 * leaves it holding a verdict (compile_error, compile_timeout,
 * forbidden_symbol, load_error, forbidden_instruction) and e->verdict stays
 * CUA_VERDICT_OK otherwise. b_out (always initialised; free with
 * cua_build_clear) holds the build. An error return is the harness's own
 * failure: no nvcc, no cuobjdump, an unreadable file. */
enum cua_status cua_precheck(const struct cua_task *t, const char *src_path,
                             enum cua_subject_kind kind, const char *subject,
                             const struct cua_eval_opts *o, struct cua_build *pre,
                             struct cua_build *b_out, struct cua_eval *e, char *err,
                             size_t errlen);

/* Lists a fresh build's SASS into the cache beside it (the scan cua_precheck
 * reads), so that the check costs nothing where a GPU lock is held: nvdisasm
 * takes ~2 s even for a small object. Errors are left for cua_precheck to
 * report. No-op for a failed build or one already scanned. */
void cua_precheck_warm(const struct cua_build *b, const char *nvcc);

#endif /* CUA_PRECHECK_H */
