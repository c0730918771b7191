/* sass.c — cuobjdump's SASS listing of a candidate, read and judged against the
 * task's precision policy (sass.h). The listing is untrusted text: every line is
 * bounded, nothing in it is executed or used as a path. */
#include "compile/sass.h"
#include "sandbox.h"

#include <ctype.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

/* The C++ runtime's demangler (the harness links libstdc++). */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

#define LISTING_MAX (256u << 20)   /* bytes of cuobjdump output read */

/* ---- which instructions matter ------------------------------------------------ */

enum family { FAM_NONE, FAM_MMA, FAM_LOWMMA, FAM_HALF2 };

static enum family family_of(const char *op)
{
	char base[16];
	size_t n = strcspn(op, ".");
	if (n >= sizeof base)
		return FAM_NONE;
	memcpy(base, op, n);
	base[n] = '\0';
	/* fp16 / bf16 / tf32 tensor cores: mma.sync and wmma (HMMA), wgmma (HGMMA) */
	if (!strcmp(base, "HMMA") || !strcmp(base, "HGMMA"))
		return FAM_MMA;
	/* int8/int4, fp8 and binary tensor cores (DMMA, fp64, is full precision) */
	if (!strcmp(base, "IMMA") || !strcmp(base, "IGMMA") || !strcmp(base, "QGMMA") ||
	    !strcmp(base, "BMMA") || !strcmp(base, "BGMMA"))
		return FAM_LOWMMA;
	/* packed half / bf16 arithmetic */
	if (!strcmp(base, "HFMA2") || !strcmp(base, "HADD2") || !strcmp(base, "HMUL2"))
		return FAM_HALF2;
	return FAM_NONE;
}

/* A source operand that is the zero register, whatever its sign or modifiers. */
static bool is_rz(const char *s, size_t n)
{
	while (n && (*s == '-' || *s == '|' || *s == '!' || *s == ' ')) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '|'))
		n--;
	return n == 2 && s[0] == 'R' && s[1] == 'Z';
}

/* Exact idioms ptxas emits in plain fp32 code: HFMA2 with both multiplicands
 * zero loads an immediate (0*0 + c); HADD2 with a zero operand widens or moves a
 * half exactly. `ops` is the operand text after the opcode, up to ';'. */
static bool exact_idiom(const char *op, const char *ops, size_t len)
{
	const char *p[4];
	size_t l[4];
	int n = 0;
	const char *s = ops, *end = ops + len;

	while (s < end && n < 4) {
		const char *c = memchr(s, ',', (size_t)(end - s));
		const char *e = c ? c : end;
		p[n] = s;
		l[n] = (size_t)(e - s);
		n++;
		s = c ? c + 1 : end;
	}
	/* p[0] is the destination */
	if (!strncmp(op, "HFMA2", 5))
		return n >= 3 && is_rz(p[1], l[1]) && is_rz(p[2], l[2]);
	if (!strncmp(op, "HADD2", 5))
		return n >= 3 && (is_rz(p[1], l[1]) || is_rz(p[2], l[2]));
	return false;
}

static void add_insn(struct cua_sass_scan *s, const char *op, const char *kernel)
{
	for (int i = 0; i < s->n && i < CUA_SASS_MAX; i++)
		if (!strcmp(s->v[i].opcode, op) && !strcmp(s->v[i].kernel, kernel))
			return;
	if (s->n < CUA_SASS_MAX) {
		snprintf(s->v[s->n].opcode, sizeof s->v[0].opcode, "%s", op);
		snprintf(s->v[s->n].kernel, sizeof s->v[0].kernel, "%s", kernel);
	}
	s->n++;
}

/* One line of the listing: "Function : NAME", or an instruction
 * "        /＊0880＊/   @!P0 HMMA.1684.F32.TF32 R16, R8, R30, R16 ;  /＊ 0x... ＊/". */
static void parse_line(const char *l, size_t n, char *kernel, size_t klen,
                       struct cua_sass_scan *s)
{
	const char *end = l + n;
	while (l < end && isspace((unsigned char)*l))
		l++;
	if (end - l > 11 && !strncmp(l, "Function : ", 11)) {
		size_t k = (size_t)(end - l - 11);
		while (k && isspace((unsigned char)l[11 + k - 1]))
			k--;
		if (k >= klen)
			k = klen - 1;
		memcpy(kernel, l + 11, k);
		kernel[k] = '\0';
		s->kernels++;
		return;
	}
	if (end - l < 4 || l[0] != '/' || l[1] != '*')
		return;
	const char *c = l + 2;
	while (c < end && isxdigit((unsigned char)*c))
		c++;
	if (c + 1 >= end || c[0] != '*' || c[1] != '/' || c == l + 2)
		return;
	c += 2;
	while (c < end && isspace((unsigned char)*c))
		c++;
	if (c < end && *c == '@') {          /* predicate guard */
		while (c < end && !isspace((unsigned char)*c))
			c++;
		while (c < end && isspace((unsigned char)*c))
			c++;
	}
	const char *o = c;
	while (c < end && (isalnum((unsigned char)*c) || *c == '.' || *c == '_'))
		c++;
	size_t olen = (size_t)(c - o);
	if (olen == 0 || !isupper((unsigned char)*o))
		return;
	char op[64];
	if (olen >= sizeof op)
		olen = sizeof op - 1;
	memcpy(op, o, olen);
	op[olen] = '\0';
	s->instructions++;
	if (family_of(op) == FAM_NONE)
		return;
	const char *semi = memchr(c, ';', (size_t)(end - c));
	size_t oplen = semi ? (size_t)(semi - c) : (size_t)(end - c);
	if (family_of(op) == FAM_HALF2 && exact_idiom(op, c, oplen))
		return;
	add_insn(s, op, kernel[0] ? kernel : "?");
}

void cua_sass_parse(const char *text, size_t len, struct cua_sass_scan *s)
{
	char kernel[256] = "";
	const char *p = text, *end = text + len;

	memset(s, 0, sizeof *s);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		if (e - p < 4096)              /* real lines are short; skip the rest */
			parse_line(p, (size_t)(e - p), kernel, sizeof kernel, s);
		p = nl ? nl + 1 : end;
	}
}

/* ---- the policy --------------------------------------------------------------- */

static const char *mma_type(const char *op)
{
	if (strstr(op, ".TF32"))
		return "TF32";
	if (strstr(op, ".BF16"))
		return "bf16";
	if (strstr(op, ".E4M3") || strstr(op, ".E5M2"))
		return "fp8";
	return "fp16";
}

const char *cua_sass_judge(const char *opcode, enum cua_precision p)
{
	static const char *const strict_or_tf32[3][4] = {
		/* by policy: fp32-strict, tf32-allowed, half-allowed */
		{"TF32 tensor-core math is not allowed in an fp32-strict task",
		 "bf16 tensor-core math is not allowed in an fp32-strict task",
		 "fp16 tensor-core math is not allowed in an fp32-strict task",
		 "fp8 tensor-core math is not allowed in an fp32-strict task"},
		{NULL,
		 "bf16 tensor-core math is not allowed in a tf32-allowed task (TF32 is)",
		 "fp16 tensor-core math is not allowed in a tf32-allowed task (TF32 is)",
		 "fp8 tensor-core math is not allowed in a tf32-allowed task (TF32 is)"},
		{NULL, NULL, NULL,
		 "fp8 tensor-core math is below the half-allowed policy"},
	};
	int pol = p == CUA_PREC_TF32_ALLOWED ? 1 : p == CUA_PREC_HALF_ALLOWED ? 2 : 0;

	switch (family_of(opcode)) {
	case FAM_NONE:
		return NULL;
	case FAM_MMA: {
		const char *t = mma_type(opcode);
		int k = !strcmp(t, "TF32") ? 0 : !strcmp(t, "bf16") ? 1 : !strcmp(t, "fp16") ? 2 : 3;
		return strict_or_tf32[pol][k];
	}
	case FAM_LOWMMA:
		return "8-bit, 4-bit and binary tensor-core math is below every precision policy";
	case FAM_HALF2:
		if (pol == 2)
			return NULL;
		return pol == 0 ? "packed half-precision math is not allowed in an fp32-strict task"
		                : "packed half-precision math is not allowed in a tf32-allowed task";
	}
	return NULL;
}

int cua_sass_check(const struct cua_sass_scan *s, enum cua_precision p, char *msg,
                   size_t len)
{
	int kept = s->n < CUA_SASS_MAX ? s->n : CUA_SASS_MAX;

	for (int i = 0; i < kept; i++) {
		const char *why = cua_sass_judge(s->v[i].opcode, p);
		if (!why)
			continue;
		int status = -1;
		char *dm = __cxa_demangle(s->v[i].kernel, NULL, NULL, &status);
		const char *advice = p == CUA_PREC_TF32_ALLOWED
		                         ? "use TF32 or fp32 math"
		                         : "compute in fp32 (FFMA): tensor cores and half precision "
		                           "are off for this task";
		snprintf(msg, len, "%s in kernel %s: %s; %s", s->v[i].opcode,
		         status == 0 && dm ? dm : s->v[i].kernel, why, advice);
		free(dm);
		return i;
	}
	if (len)
		msg[0] = '\0';
	return -1;
}

/* ---- running cuobjdump -------------------------------------------------------- */

static bool executable(const char *p)
{
	return p && access(p, X_OK) == 0;
}

const char *cua_find_cuobjdump(const char *nvcc)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static char found[CUA_PATH_LEN];
	char buf[CUA_PATH_BUF];
	const char *env = getenv("CUARENA_CUOBJDUMP");
	const char *home = getenv("CUDA_HOME");
	const char *result = NULL;

	pthread_mutex_lock(&lock);
	if (executable(env))
		result = env;
	if (!result && nvcc && strchr(nvcc, '/')) {
		snprintf(buf, sizeof buf, "%s", nvcc);
		*strrchr(buf, '/') = '\0';
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "/cuobjdump");
		if (executable(buf))
			result = buf;
	}
	if (!result && home) {
		snprintf(buf, sizeof buf, "%s/bin/cuobjdump", home);
		if (executable(buf))
			result = buf;
	}
	if (!result && executable("/usr/local/cuda/bin/cuobjdump"))
		result = "/usr/local/cuda/bin/cuobjdump";
	if (!result && executable("/opt/cuarena/cuda-tools/bin/cuobjdump"))
		result = "/opt/cuarena/cuda-tools/bin/cuobjdump";
	for (const char *path = result ? NULL : getenv("PATH"); path && *path;) {
		const char *colon = strchr(path, ':');
		size_t n = colon ? (size_t)(colon - path) : strlen(path);
		snprintf(buf, sizeof buf, "%.*s/cuobjdump", (int)n, path);
		if (n && executable(buf)) {
			result = buf;
			break;
		}
		path = colon ? colon + 1 : NULL;
	}
	if (result && result != found)
		snprintf(found, sizeof found, "%s", result);
	pthread_mutex_unlock(&lock);
	return result ? found : NULL;
}

/* Cache format: a first line "cuarena-sass 1 KERNELS INSTRUCTIONS N", then one
 * "OPCODE KERNEL" line per kept instruction. */
static bool read_cache(const char *path, struct cua_sass_scan *s)
{
	char *buf = NULL;
	size_t len = 0;
	bool ok = false;

	if (!path || cua_read_file(path, 1 << 20, &buf, &len, NULL, 0) != CUA_OK)
		return false;
	memset(s, 0, sizeof *s);
	int off = 0;
	if (sscanf(buf, "cuarena-sass 1 %d %ld %d\n%n", &s->kernels, &s->instructions, &s->n,
	           &off) == 3 && off > 0 && s->n >= 0) {
		const char *p = buf + off;
		int kept = s->n < CUA_SASS_MAX ? s->n : CUA_SASS_MAX;
		ok = true;
		for (int i = 0; i < kept && ok; i++) {
			int used = 0;
			ok = sscanf(p, "%63s %255s\n%n", s->v[i].opcode, s->v[i].kernel, &used) == 2;
			p += used;
		}
	}
	free(buf);
	if (!ok)
		memset(s, 0, sizeof *s);
	return ok;
}

static void write_cache(const char *path, const struct cua_sass_scan *s)
{
	struct cua_buf b = {0};
	char tmp[CUA_PATH_BUF];
	int kept = s->n < CUA_SASS_MAX ? s->n : CUA_SASS_MAX;

	cua_buf_printf(&b, "cuarena-sass 1 %d %ld %d\n", s->kernels, s->instructions, s->n);
	for (int i = 0; i < kept; i++)
		cua_buf_printf(&b, "%s %s\n", s->v[i].opcode, s->v[i].kernel);
	snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
	if (b.s && cua_write_file(tmp, b.s, strlen(b.s), NULL, 0) == CUA_OK &&
	    rename(tmp, path) != 0)
		unlink(tmp);
	free(b.s);
}

enum cua_status cua_sass_scan_file(const char *so_path, const char *cuobjdump,
                                   const char *cache_path, struct cua_sass_scan *s,
                                   char *err, size_t errlen)
{
	struct cua_sandbox_opts o;
	struct cua_child_result r;
	char path_var[8400], dir[CUA_PATH_LEN];
	const char *env[3];
	enum cua_status st;

	memset(s, 0, sizeof *s);
	if (read_cache(cache_path, s))
		return CUA_OK;
	if (!cuobjdump) {
		cua_errf(err, errlen, "cuobjdump not found: the SASS precision check needs the "
		                      "CUDA toolkit's cuobjdump and nvdisasm (run `make deps`, or "
		                      "set CUARENA_CUOBJDUMP)");
		return CUA_E_NOT_FOUND;
	}
	/* nvdisasm is found through PATH: the tool's own folder first. */
	snprintf(dir, sizeof dir, "%s", cuobjdump);
	char *sl = strrchr(dir, '/');
	if (sl)
		*sl = '\0';
	else
		snprintf(dir, sizeof dir, "/usr/local/cuda/bin");
	snprintf(path_var, sizeof path_var, "PATH=%s:/usr/local/cuda/bin:/usr/bin:/bin", dir);
	env[0] = path_var;
	env[1] = "LANG=C";
	env[2] = NULL;
	const char *argv[] = {cuobjdump, "-sass", so_path, NULL};
	cua_sandbox_opts_init(&o);
	o.timeout_s = 120;
	o.isolate_net = false;
	o.capture_max = LISTING_MAX;
	o.env = env;
	st = cua_sandbox_run(argv, &o, &r, err, errlen);
	if (st != CUA_OK)
		return st;
	if (r.how != CUA_CHILD_NORMAL || r.code != 0 || r.out_truncated) {
		/* An object without device code has nothing to judge. */
		bool no_code = r.err && strstr(r.err, "does not contain device code");
		if (!no_code) {
			cua_errf(err, errlen, "%s -sass %s failed%s: %.300s", cuobjdump, so_path,
			         r.out_truncated ? " (listing too large)" : "",
			         r.err && r.err[0] ? r.err : "no message");
			cua_child_result_clear(&r);
			return CUA_E_PARSE;
		}
	}
	cua_sass_parse(r.out, r.out_len, s);
	cua_child_result_clear(&r);
	if (cache_path)
		write_cache(cache_path, s);
	return CUA_OK;
}
