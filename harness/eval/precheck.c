/* precheck.c — build, static check and SASS precision check of one kernel, before
 * (and without) any GPU (precheck.h). */
#include "eval/precheck.h"
#include "compile/sass.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void cua_subject_libs(const struct cua_task *t, enum cua_subject_kind kind,
                      const char *subject, struct cua_build_opts *bo,
                      struct cua_symcheck_policy *pol)
{
	bo->n_libs = 0;
	if (kind == CUA_SUBJECT_CANDIDATE) {
		for (int i = 0; i < t->n_libraries && bo->n_libs < 4; i++)
			bo->libs[bo->n_libs++] = t->libraries[i];
	} else if (kind == CUA_SUBJECT_BASELINE) {
		if (!strncmp(subject, "cublas/", 7))
			bo->libs[bo->n_libs++] = "cublas";
		else if (!strncmp(subject, "cudnn/", 6))
			bo->libs[bo->n_libs++] = "cudnn";
		/* A Level 3 cuDNN baseline runs a whole network: its linear layers
		 * are cuBLAS GEMMs (baselines/cudnn/net-lib.cuh). */
		if (!strncmp(subject, "cudnn/", 6) && t->level >= 3)
			bo->libs[bo->n_libs++] = "cublas";
	}
	memset(pol, 0, sizeof(*pol));
	for (int i = 0; i < bo->n_libs; i++) {
		if (!strcmp(bo->libs[i], "cublas"))
			pol->allow_cublas = true;
		if (!strcmp(bo->libs[i], "cudnn"))
			pol->allow_cudnn = true;
	}
}

/* "<cache>/<key>.so" → "<cache>/<key>.sass": the scan is cached with the build. */
static void sass_cache_path(const char *so_path, char *buf, size_t len)
{
	size_t n = strlen(so_path);
	if (n > 3 && !strcmp(so_path + n - 3, ".so") && n + 3 < len)
		snprintf(buf, len, "%.*s.sass", (int)(n - 3), so_path);
	else
		buf[0] = '\0';
}

void cua_precheck_warm(const struct cua_build *b, const char *nvcc)
{
	char cache[CUA_PATH_BUF], err[CUA_ERR_LEN];
	struct cua_sass_scan sc;

	if (!b->ok)
		return;
	sass_cache_path(b->so_path, cache, sizeof(cache));
	if (!cache[0] || access(cache, R_OK) == 0)
		return;
	(void)cua_sass_scan_file(b->so_path, cua_find_cuobjdump(nvcc), cache, &sc, err,
	                         sizeof(err));
}

enum cua_status cua_precheck(const struct cua_task *t, const char *src_path,
                             enum cua_subject_kind kind, const char *subject,
                             const struct cua_eval_opts *o, struct cua_build *pre,
                             struct cua_build *b_out, struct cua_eval *e, char *err,
                             size_t errlen)
{
	enum cua_status st = CUA_OK;
	struct cua_build_opts bo = o->build;
	struct cua_symcheck_policy pol;
	struct cua_build *b = b_out;

	memset(b, 0, sizeof(*b));
	cua_subject_libs(t, kind, subject, &bo, &pol);
	if (pre) {
		*b = *pre;
		memset(pre, 0, sizeof(*pre));   /* its log is ours now */
	} else {
		st = cua_build_so(src_path, &bo, b, err, errlen);
		if (st != CUA_OK)
			return st;
	}
	e->cache_hit = b->cached;
	e->compile_s = b->seconds;
	snprintf(e->so_sha, sizeof(e->so_sha), "%s", b->key);
	free(e->compile_log);
	e->compile_log = b->log ? strdup(b->log) : NULL;
	if (b->too_large) {
		cua_eval_fail(e, CUA_VERDICT_COMPILE_ERROR,
		              "the source is larger than %d KiB", CUA_MAX_SOURCE / 1024);
		return CUA_OK;
	}
	/* a bound the build met is named: the agent learns which, and by how much */
	if (b->timed_out) {
		if (b->bound[0])
			cua_eval_fail(e, CUA_VERDICT_COMPILE_TIMEOUT, "%s", b->bound);
		else
			cua_eval_fail(e, CUA_VERDICT_COMPILE_TIMEOUT,
			              "nvcc did not finish within %.0f s", bo.timeout_s);
		return CUA_OK;
	}
	if (!b->ok) {
		cua_eval_fail(e, CUA_VERDICT_COMPILE_ERROR, "%s", b->bound[0] ? b->bound : "nvcc failed");
		return CUA_OK;
	}
	/* One size limit for the build and the judge: an object the judge could not
	 * stage is the build's compile_error, never the judge's harness_error. */
	struct stat so_st;
	if (stat(b->so_path, &so_st) == 0 && (size_t)so_st.st_size > CUA_OBJECT_MAX) {
		cua_eval_fail(e, CUA_VERDICT_COMPILE_ERROR,
		              "the object is %lld MiB, over the %zu MiB limit on a kernel's object "
		              "(CUA_OBJECT_MAX, the build's and the judge's)",
		              (long long)(so_st.st_size >> 20), CUA_OBJECT_MAX >> 20);
		return CUA_OK;
	}

	/* Static check: every kernel, trusted or not, passes the same gate. */
	struct cua_symcheck_result sr;
	st = cua_symcheck_file(b->so_path, &pol, &sr, err, errlen);
	if (st != CUA_OK)
		return st;
	if (sr.n > 0) {
		e->n_violations = sr.n < 8 ? sr.n : 8;
		memcpy(e->violations, sr.v, sizeof(e->violations[0]) * e->n_violations);
		const char *advice = cua_symcheck_advice(sr.v[0].symbol);
		cua_eval_fail(e, CUA_VERDICT_FORBIDDEN_SYMBOL, "%s: %s%s%s%s", sr.v[0].symbol,
		              sr.v[0].reason, sr.n > 1 ? " (and more)" : "", advice ? ". " : "",
		              advice ? advice : "");
		return CUA_OK;
	}
	if (!sr.has_entry) {
		cua_eval_fail(e, CUA_VERDICT_LOAD_ERROR,
		              "no exported cua_solve with C linkage: include \"cuarena.h\" before "
		              "defining it (objects are built with hidden visibility; the header "
		              "exports cua_solve)");
		return CUA_OK;
	}

	/* The precision policy in the machine code. A strict task's precision is
	 * judged by value in the judge (judge/accuracy.h), whatever instructions or
	 * code loaded at run time produced it: there the scan only explains a
	 * failure (split-precision tensor-core products are as accurate as fp32 and
	 * pass). Under the other policies the instructions below them are refused
	 * here. Library baselines are trusted and exempt. */
	if (kind != CUA_SUBJECT_BASELINE) {
		struct cua_sass_scan sc;
		char cache[CUA_PATH_BUF], msg[CUA_MSG_LEN];
		sass_cache_path(b->so_path, cache, sizeof(cache));
		st = cua_sass_scan_file(b->so_path, cua_find_cuobjdump(bo.nvcc),
		                        cache[0] ? cache : NULL, &sc, err, errlen);
		if (st != CUA_OK)
			return st;
		if (cua_sass_check(&sc, t->precision, msg, sizeof(msg)) >= 0) {
			if (t->precision == CUA_PREC_FP32_STRICT) {
				snprintf(e->sass_note, sizeof(e->sass_note), "%.500s", msg);
				return CUA_OK;
			}
			cua_eval_fail(e, CUA_VERDICT_FORBIDDEN_INSTRUCTION, "%s", msg);
			return CUA_OK;
		}
	}
	return CUA_OK;
}
