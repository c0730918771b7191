/* task.c — loads and validates task.json (schema: docs/ADDING-A-TASK.md) and
 * scans the catalogue of tasks under root/tasks/L<level>/. */
#include "catalogue/task.h"
#include "catalogue/expr.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TASK_FILE "task.json"
#define TASK_MAX_BYTES ((size_t)1 << 20)
#define EXACT_INT_MAX 9007199254740992.0  /* 2^53: doubles beyond skip integers */
#define FIELD_LEN 160                     /* a JSON path such as shapes[2].dims.N */
#define SHOWN_LEN 64                      /* longest untrusted string quoted back */
#define MAX_TREE_DEPTH 32                 /* folders below root/tasks that are hashed */

static const char *const dtype_names[] = {
	[CUA_F32] = "f32", [CUA_F64] = "f64", [CUA_F16] = "f16", [CUA_BF16] = "bf16",
	[CUA_I32] = "i32", [CUA_I64] = "i64", [CUA_U8] = "u8",
};

static const size_t dtype_sizes[] = {
	[CUA_F32] = 4, [CUA_F64] = 8, [CUA_F16] = 2, [CUA_BF16] = 2,
	[CUA_I32] = 4, [CUA_I64] = 8, [CUA_U8] = 1,
};

static const char *const precision_names[] = {
	[CUA_PREC_FP32_STRICT] = "fp32-strict",
	[CUA_PREC_TF32_ALLOWED] = "tf32-allowed",
	[CUA_PREC_HALF_ALLOWED] = "half-allowed",
};

static const char *const dist_names[] = {
	[CUA_DIST_UNIFORM] = "uniform", [CUA_DIST_NORMAL] = "normal",
	[CUA_DIST_INT] = "int", [CUA_DIST_BERNOULLI] = "bernoulli", [CUA_DIST_CONST] = "const",
};

static const char *const library_names[] = {"cublas", "cudnn"};

const char *cua_dtype_name(enum cua_dtype d)
{
	if ((unsigned)d >= CUA_ARRAY_LEN(dtype_names))
		return "?";
	return dtype_names[d];
}

size_t cua_dtype_size(enum cua_dtype d)
{
	if ((unsigned)d >= CUA_ARRAY_LEN(dtype_sizes))
		return 0;
	return dtype_sizes[d];
}

const char *cua_precision_name(enum cua_precision p)
{
	if ((unsigned)p >= CUA_ARRAY_LEN(precision_names))
		return "?";
	return precision_names[p];
}

/* ---- small helpers -------------------------------------------------------- */

/* Heap sprintf; NULL when out of memory. */
static char *strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *strf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	va_start(ap, fmt);
	int n = vasprintf(&s, fmt, ap);
	va_end(ap);
	return n < 0 ? NULL : s;
}

/* Copies untrusted text into buf for an error message: at most SHOWN_LEN
 * characters, anything unprintable as '?', so one error stays one line. */
static const char *shown(const char *s, char *buf, size_t len)
{
	size_t i = 0, max = len - 1 < SHOWN_LEN ? len - 1 : SHOWN_LEN;
	for (; s[i] && i < max; i++)
		buf[i] = isprint((unsigned char)s[i]) ? s[i] : '?';
	buf[i] = '\0';
	if (s[i] && i >= 3)
		memcpy(buf + i - 3, "...", 3);
	return buf;
}

static bool is_name_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static bool is_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* A C identifier that fits a name[CUA_NAME_LEN] field. */
static bool is_identifier(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n >= CUA_NAME_LEN || !is_name_start(s[0]))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!is_name_char(s[i]))
			return false;
	return true;
}

/* Non-empty, only [a-z0-9_-] (and [A-Z] when upper is true). */
static bool is_plain_word(const char *s, size_t n, bool upper)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!(islower((unsigned char)c) || isdigit((unsigned char)c) || c == '_' ||
		      c == '-' || (upper && isupper((unsigned char)c))))
			return false;
	}
	return true;
}

static int lookup(const char *s, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (names[i] && strcmp(s, names[i]) == 0)
			return (int)i;
	return -1;
}

static bool is_integral(double v)
{
	return isfinite(v) && v == floor(v) && fabs(v) <= EXACT_INT_MAX;
}

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* ---- the loader ----------------------------------------------------------- */

struct loader {
	const char *file;   /* "DIR/task.json": the prefix of every message */
	char *err;
	size_t errlen;
	struct cua_task *t;
};

/* "FILE: FIELD: what is wrong"; returns CUA_E_PARSE. */
static enum cua_status fail(struct loader *ld, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static enum cua_status fail(struct loader *ld, const char *field, const char *fmt, ...)
{
	char msg[CUA_ERR_LEN];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cua_errf(ld->err, ld->errlen, "%s: %s: %s", ld->file, field, msg);
	return CUA_E_PARSE;
}

static enum cua_status nomem(struct loader *ld)
{
	cua_errf(ld->err, ld->errlen, "%s: out of memory", ld->file);
	return CUA_E_NOMEM;
}

/* Formats a field path; a path too long for FIELD_LEN is cut, not an error. */
static const char *pathf(char field[FIELD_LEN], const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static const char *pathf(char field[FIELD_LEN], const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(field, FIELD_LEN, fmt, ap);
	va_end(ap);
	return field;
}

/* field = prefix.key (or key at the top level), the key made printable. */
static const char *join(char field[FIELD_LEN], const char *prefix, const char *key)
{
	char k[SHOWN_LEN + 1];
	shown(key, k, sizeof(k));
	if (prefix && *prefix)
		return pathf(field, "%s.%s", prefix, k);
	return pathf(field, "%s", k);
}

static const char *indexed(char field[FIELD_LEN], const char *prefix, int i)
{
	return pathf(field, "%s[%d]", prefix, i);
}

/* Rejects members given twice and, when allowed (NULL-terminated) is not
 * NULL, members it does not list: typos must not pass silently. */
static enum cua_status check_keys(struct loader *ld, const cJSON *obj, const char *prefix,
                                  const char *const *allowed)
{
	char f[FIELD_LEN];
	for (const cJSON *m = obj->child; m; m = m->next) {
		bool known = !allowed;
		for (const char *const *a = allowed; a && *a && !known; a++)
			known = strcmp(*a, m->string) == 0;
		if (!known)
			return fail(ld, join(f, prefix, m->string), "unknown field");
		for (const cJSON *p = obj->child; p != m; p = p->next)
			if (strcmp(p->string, m->string) == 0)
				return fail(ld, join(f, prefix, m->string), "duplicate field");
	}
	return CUA_OK;
}

/* The member key of obj; *out is NULL when it is absent and optional. */
static enum cua_status member(struct loader *ld, const cJSON *obj, const char *prefix,
                              const char *key, bool required, const cJSON **out)
{
	char f[FIELD_LEN];
	*out = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!*out && required)
		return fail(ld, join(f, prefix, key), "required field is missing");
	return CUA_OK;
}

static enum cua_status get_string(struct loader *ld, const cJSON *obj, const char *prefix,
                                  const char *key, bool required, const char **out)
{
	char f[FIELD_LEN];
	const cJSON *j;
	enum cua_status rc = member(ld, obj, prefix, key, required, &j);
	*out = NULL;
	if (rc != CUA_OK || !j)
		return rc;
	if (!cJSON_IsString(j))
		return fail(ld, join(f, prefix, key), "must be a string");
	*out = j->valuestring;
	return CUA_OK;
}

/* A required member that is a finite number. */
static enum cua_status get_number(struct loader *ld, const cJSON *obj, const char *prefix,
                                  const char *key, double *out)
{
	char f[FIELD_LEN];
	const cJSON *j;
	enum cua_status rc = member(ld, obj, prefix, key, true, &j);
	if (rc != CUA_OK)
		return rc;
	if (!cJSON_IsNumber(j) || !isfinite(j->valuedouble))
		return fail(ld, join(f, prefix, key), "must be a finite number");
	*out = j->valuedouble;
	return CUA_OK;
}

static enum cua_status get_integer(struct loader *ld, const cJSON *obj, const char *prefix,
                                   const char *key, double *out)
{
	char f[FIELD_LEN];
	const cJSON *j;
	enum cua_status rc = member(ld, obj, prefix, key, true, &j);
	if (rc != CUA_OK)
		return rc;
	if (!cJSON_IsNumber(j) || !is_integral(j->valuedouble))
		return fail(ld, join(f, prefix, key), "must be an integer");
	*out = j->valuedouble;
	return CUA_OK;
}

/* A copy of a required, non-empty string member. */
static enum cua_status dup_string(struct loader *ld, const cJSON *obj, const char *key,
                                  bool required, char **out)
{
	const char *s;
	enum cua_status rc = get_string(ld, obj, NULL, key, required, &s);
	if (rc != CUA_OK || !s)
		return rc;
	if (required && !*s)
		return fail(ld, key, "must not be empty");
	if (!(*out = strdup(s)))
		return nomem(ld);
	return CUA_OK;
}

/* An array member with at most max elements (min when present). */
static enum cua_status get_array(struct loader *ld, const cJSON *obj, const char *key,
                                 bool required, int min, int max, const cJSON **out)
{
	enum cua_status rc = member(ld, obj, NULL, key, required, out);
	if (rc != CUA_OK || !*out)
		return rc;
	if (!cJSON_IsArray(*out))
		return fail(ld, key, "must be an array");
	int n = cJSON_GetArraySize(*out);
	if (n < min || n > max)
		return fail(ld, key, "must have %d to %d entries (has %d)", min, max, n);
	return CUA_OK;
}

static enum cua_status load_params(struct loader *ld, const cJSON *root)
{
	struct cua_task *t = ld->t;
	char f[FIELD_LEN];
	const cJSON *params;
	enum cua_status rc = member(ld, root, NULL, "params", false, &params);
	if (rc != CUA_OK || !params)
		return rc;
	if (!cJSON_IsObject(params))
		return fail(ld, "params", "must be an object");
	if ((rc = check_keys(ld, params, "params", NULL)) != CUA_OK)
		return rc;
	if (cJSON_GetArraySize(params) > CUA_MAX_NAMED)
		return fail(ld, "params", "at most %d params", CUA_MAX_NAMED);
	for (const cJSON *p = params->child; p; p = p->next) {
		join(f, "params", p->string);
		if (!is_identifier(p->string))
			return fail(ld, f, "name is not a C identifier of at most %d characters",
			            CUA_NAME_LEN - 1);
		if (!cJSON_IsNumber(p) || !isfinite(p->valuedouble))
			return fail(ld, f, "must be a finite number");
		struct cua_param *q = &t->params[t->n_params++];
		snprintf(q->name, sizeof(q->name), "%s", p->string);
		q->value = p->valuedouble;
		q->is_int = is_integral(q->value);
	}
	return CUA_OK;
}

/* The init object obj.key (e.g. inputs[0].init, or a layer's bias_init). */
static enum cua_status load_init_key(struct loader *ld, const cJSON *tensor,
                                     const char *tprefix, const char *key,
                                     struct cua_init *init)
{
	static const char *const keys[][4] = {
		[CUA_DIST_UNIFORM] = {"dist", "low", "high", NULL},
		[CUA_DIST_NORMAL] = {"dist", "mean", "std", NULL},
		[CUA_DIST_INT] = {"dist", "low", "high", NULL},
		[CUA_DIST_BERNOULLI] = {"dist", "p", NULL, NULL},
		[CUA_DIST_CONST] = {"dist", "value", NULL, NULL},
	};
	char prefix[FIELD_LEN], f[FIELD_LEN], s[SHOWN_LEN + 1];
	const cJSON *j;
	const char *dist;
	enum cua_status rc = member(ld, tensor, tprefix, key, true, &j);
	if (rc != CUA_OK)
		return rc;
	join(prefix, tprefix, key);
	if (!cJSON_IsObject(j))
		return fail(ld, prefix, "must be an object");
	if ((rc = get_string(ld, j, prefix, "dist", true, &dist)) != CUA_OK)
		return rc;
	int d = lookup(dist, dist_names, CUA_ARRAY_LEN(dist_names));
	if (d < 0)
		return fail(ld, join(f, prefix, "dist"),
		            "unknown distribution '%s' (uniform, normal, int, bernoulli, const)",
		            shown(dist, s, sizeof(s)));
	if ((rc = check_keys(ld, j, prefix, keys[d])) != CUA_OK)
		return rc;
	init->dist = (enum cua_dist)d;
	switch (init->dist) {
	case CUA_DIST_UNIFORM:
		if ((rc = get_number(ld, j, prefix, "low", &init->a)) != CUA_OK ||
		    (rc = get_number(ld, j, prefix, "high", &init->b)) != CUA_OK)
			return rc;
		if (!(init->b > init->a))
			return fail(ld, join(f, prefix, "high"), "must be > low (%g <= %g)",
			            init->b, init->a);
		break;
	case CUA_DIST_NORMAL:
		if ((rc = get_number(ld, j, prefix, "mean", &init->a)) != CUA_OK ||
		    (rc = get_number(ld, j, prefix, "std", &init->b)) != CUA_OK)
			return rc;
		if (!(init->b > 0))
			return fail(ld, join(f, prefix, "std"), "must be > 0 (is %g)", init->b);
		break;
	case CUA_DIST_INT:
		if ((rc = get_integer(ld, j, prefix, "low", &init->a)) != CUA_OK ||
		    (rc = get_integer(ld, j, prefix, "high", &init->b)) != CUA_OK)
			return rc;
		if (init->b < init->a)
			return fail(ld, join(f, prefix, "high"), "must be >= low (%g < %g)",
			            init->b, init->a);
		break;
	case CUA_DIST_BERNOULLI:
		if ((rc = get_number(ld, j, prefix, "p", &init->a)) != CUA_OK)
			return rc;
		if (!(init->a > 0 && init->a < 1))
			return fail(ld, join(f, prefix, "p"),
			            "must be strictly between 0 and 1 (is %g)", init->a);
		init->b = 0;
		break;
	case CUA_DIST_CONST:
		if ((rc = get_number(ld, j, prefix, "value", &init->a)) != CUA_OK)
			return rc;
		init->b = 0;
		break;
	}
	return CUA_OK;
}

static enum cua_status load_init(struct loader *ld, const cJSON *tensor, const char *tprefix,
                                 struct cua_init *init)
{
	return load_init_key(ld, tensor, tprefix, "init", init);
}

/* Fails when name is already used by an input or output before spec. */
static enum cua_status check_unique_tensor(struct loader *ld, const char *field,
                                           const struct cua_tensor_spec *spec)
{
	const struct cua_task *t = ld->t;
	for (int i = 0; i < t->n_inputs; i++)
		if (&t->inputs[i] != spec && strcmp(t->inputs[i].name, spec->name) == 0)
			return fail(ld, field, "'%s' is already used by inputs[%d]", spec->name, i);
	for (int i = 0; i < t->n_outputs; i++)
		if (&t->outputs[i] != spec && strcmp(t->outputs[i].name, spec->name) == 0)
			return fail(ld, field, "'%s' is already used by outputs[%d]", spec->name, i);
	return CUA_OK;
}

static const struct cua_param *find_param(const struct cua_task *t, const char *name,
                                          size_t len)
{
	for (int i = 0; i < t->n_params; i++)
		if (strlen(t->params[i].name) == len && memcmp(t->params[i].name, name, len) == 0)
			return &t->params[i];
	return NULL;
}

/* ---- layered inputs (Level 3 weights) --------------------------------------- */

/* A layered input is one flat f32 tensor declared by a layer list: each
 * generator expands to named segments (PyTorch state_dict() names and order),
 * laid end to end, each at a multiple of CUA_SEG_ALIGN elements. Numeric fields
 * are integers or expressions over integer params and the enclosing repeats'
 * variables; names may hold {expr}. docs/ADDING-A-TASK.md has the schema. */

#define SEG_MAX_ELEMS ((int64_t)1 << 36)   /* 256 GiB of f32: more than any device */
#define SEG_EXPR_LEN 64                    /* longest {expr} in a name */

struct layers {
	struct loader *ld;
	struct cua_tensor_spec *spec;
	uint32_t input;                 /* the input's index: its segments' streams */
	int cap;                        /* segments allocated */
	int64_t end;                    /* the element after the last segment */
	int depth;                      /* repeats open */
	struct cua_named var[CUA_MAX_REPEAT_DEPTH];
};

enum gen {
	GEN_LINEAR, GEN_CONV1D, GEN_CONV2D, GEN_CONV3D, GEN_CONVT1D, GEN_CONVT2D,
	GEN_CONVT3D, GEN_BN, GEN_LAYERNORM, GEN_LSTM, GEN_GRU, GEN_RNN, GEN_TENSOR,
	GEN_REPEAT, N_GEN
};

static const char *const gen_names[N_GEN] = {
	[GEN_LINEAR] = "linear", [GEN_CONV1D] = "conv1d", [GEN_CONV2D] = "conv2d",
	[GEN_CONV3D] = "conv3d", [GEN_CONVT1D] = "conv_transpose1d",
	[GEN_CONVT2D] = "conv_transpose2d", [GEN_CONVT3D] = "conv_transpose3d",
	[GEN_BN] = "bn", [GEN_LAYERNORM] = "layernorm", [GEN_LSTM] = "lstm",
	[GEN_GRU] = "gru", [GEN_RNN] = "rnn", [GEN_TENSOR] = "tensor", [GEN_REPEAT] = "repeat",
};

/* Evaluates expr over integer params and the open repeats' variables. */
static enum cua_status layer_eval(struct layers *L, const char *field, const char *expr,
                                  int64_t *out)
{
	struct cua_binding vars[CUA_MAX_NAMED + CUA_MAX_REPEAT_DEPTH];
	char msg[CUA_ERR_LEN];
	const struct cua_task *t = L->ld->t;
	int n = 0;
	for (int i = 0; i < t->n_params; i++)
		if (t->params[i].is_int)
			vars[n++] = (struct cua_binding){t->params[i].name,
			                                 (int64_t)t->params[i].value};
	for (int i = 0; i < L->depth; i++)
		vars[n++] = (struct cua_binding){L->var[i].name, L->var[i].value};
	if (cua_expr_eval(expr, vars, n, out, msg, sizeof(msg)) != CUA_OK)
		return fail(L->ld, field, "%s (a layer field may use integer params and repeat "
		            "variables, not shape-set dims: the layout is one for every shape set)",
		            msg);
	return CUA_OK;
}

/* j (at field) as an integer >= min: a JSON integer or an expression string. */
static enum cua_status layer_value(struct layers *L, const char *field, const cJSON *j,
                                   int64_t min, int64_t *out)
{
	enum cua_status rc;
	if (cJSON_IsNumber(j)) {
		if (!is_integral(j->valuedouble))
			return fail(L->ld, field, "must be an integer or an expression");
		*out = (int64_t)j->valuedouble;
	} else if (cJSON_IsString(j)) {
		if ((rc = layer_eval(L, field, j->valuestring, out)) != CUA_OK)
			return rc;
	} else {
		return fail(L->ld, field, "must be an integer or an expression (a string)");
	}
	if (*out < min)
		return fail(L->ld, field, "is %lld (must be >= %lld)", (long long)*out,
		            (long long)min);
	if (*out > SEG_MAX_ELEMS)
		return fail(L->ld, field, "is %lld (at most 2^36)", (long long)*out);
	return CUA_OK;
}

/* obj.key as an integer >= min; def when absent and not required. */
static enum cua_status layer_int(struct layers *L, const cJSON *obj, const char *prefix,
                                 const char *key, bool required, int64_t def, int64_t min,
                                 int64_t *out)
{
	char f[FIELD_LEN];
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
	join(f, prefix, key);
	*out = def;
	if (!j)
		return required ? fail(L->ld, f, "required field is missing") : CUA_OK;
	return layer_value(L, f, j, min, out);
}

/* obj.key as n sizes >= 1: one integer (every dim) or an array of n. */
static enum cua_status layer_sizes(struct layers *L, const cJSON *obj, const char *prefix,
                                   const char *key, int n, int64_t *out)
{
	char f[FIELD_LEN], g[FIELD_LEN];
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
	enum cua_status rc;
	join(f, prefix, key);
	if (!j)
		return fail(L->ld, f, "required field is missing");
	if (!cJSON_IsArray(j)) {
		if ((rc = layer_value(L, f, j, 1, &out[0])) != CUA_OK)
			return rc;
		for (int k = 1; k < n; k++)
			out[k] = out[0];
		return CUA_OK;
	}
	if (cJSON_GetArraySize(j) != n)
		return fail(L->ld, f, "must be one size or an array of %d (has %d)", n,
		            cJSON_GetArraySize(j));
	const cJSON *e = j->child;
	for (int k = 0; k < n; k++, e = e->next)
		if ((rc = layer_value(L, indexed(g, f, k), e, 1, &out[k])) != CUA_OK)
			return rc;
	return CUA_OK;
}

static enum cua_status layer_bool(struct layers *L, const cJSON *obj, const char *prefix,
                                  const char *key, bool def, bool *out)
{
	char f[FIELD_LEN];
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
	*out = def;
	if (!j)
		return CUA_OK;
	if (!cJSON_IsBool(j))
		return fail(L->ld, join(f, prefix, key), "must be true or false");
	*out = cJSON_IsTrue(j);
	return CUA_OK;
}

/* The generator's name (obj.key) with every {expr} replaced by its value. */
static enum cua_status layer_name(struct layers *L, const cJSON *obj, const char *prefix,
                                  const char *key, char out[CUA_SEG_NAME_LEN])
{
	char f[FIELD_LEN], expr[SEG_EXPR_LEN], s[SHOWN_LEN + 1];
	const char *tmpl;
	size_t o = 0;
	enum cua_status rc = get_string(L->ld, obj, prefix, key, true, &tmpl);
	if (rc != CUA_OK)
		return rc;
	join(f, prefix, key);
	for (const char *p = tmpl; *p;) {
		int col = (int)(p - tmpl) + 1;
		if (*p == '{') {
			const char *close = strchr(p, '}');
			size_t len = close ? (size_t)(close - p - 1) : 0;
			int64_t v;
			if (!close || len == 0 || len >= sizeof(expr))
				return fail(L->ld, f, "column %d: '{' must enclose an expression of 1 to "
				            "%d characters and a '}'", col, SEG_EXPR_LEN - 1);
			memcpy(expr, p + 1, len);
			expr[len] = '\0';
			if ((rc = layer_eval(L, f, expr, &v)) != CUA_OK)
				return rc;
			int w = snprintf(out + o, CUA_SEG_NAME_LEN - o, "%lld", (long long)v);
			if (w < 0 || o + (size_t)w >= CUA_SEG_NAME_LEN)
				return fail(L->ld, f, "'%s' expands to more than %d characters",
				            shown(tmpl, s, sizeof(s)), CUA_SEG_NAME_LEN - 1);
			o += (size_t)w;
			p = close + 1;
			continue;
		}
		if (!is_name_char(*p) && *p != '.')
			return fail(L->ld, f, "column %d: a segment name holds [A-Za-z0-9_.] and "
			            "{expr} only", col);
		if (o + 1 >= CUA_SEG_NAME_LEN)
			return fail(L->ld, f, "'%s' expands to more than %d characters",
			            shown(tmpl, s, sizeof(s)), CUA_SEG_NAME_LEN - 1);
		out[o++] = *p++;
	}
	out[o] = '\0';
	if (o == 0)
		return fail(L->ld, f, "must not be empty");
	return CUA_OK;
}

/* Appends segment base[.suffix] with the given shape and init. */
static enum cua_status add_segment(struct layers *L, const char *field, const char *base,
                                   const char *suffix, int ndim, const int64_t *shape,
                                   const struct cua_init *init)
{
	struct cua_tensor_spec *spec = L->spec;
	char name[CUA_SEG_NAME_LEN];
	int64_t numel = 1;
	int w = suffix ? snprintf(name, sizeof(name), "%s.%s", base, suffix)
	               : snprintf(name, sizeof(name), "%s", base);
	if (w < 0 || (size_t)w >= sizeof(name))
		return fail(L->ld, field, "segment name '%s%s%s' is longer than %d characters",
		            base, suffix ? "." : "", suffix ? suffix : "", CUA_SEG_NAME_LEN - 1);
	for (int k = 0; k < spec->n_segments; k++)
		if (strcmp(spec->segments[k].name, name) == 0)
			return fail(L->ld, field, "segment '%s' is already defined (segment %d)", name,
			            k);
	if (spec->n_segments == CUA_MAX_SEGMENTS)
		return fail(L->ld, field, "more than %d segments", CUA_MAX_SEGMENTS);
	for (int k = 0; k < ndim; k++)
		if (__builtin_mul_overflow(numel, shape[k], &numel) || numel > SEG_MAX_ELEMS)
			return fail(L->ld, field, "segment '%s' has more than 2^36 elements", name);
	int64_t offset = (L->end + CUA_SEG_ALIGN - 1) / CUA_SEG_ALIGN * CUA_SEG_ALIGN;
	if (offset + numel > SEG_MAX_ELEMS)
		return fail(L->ld, field, "the layer list holds more than 2^36 elements");
	if (spec->n_segments == L->cap) {
		int cap = L->cap ? 2 * L->cap : 64;
		struct cua_segment *v = realloc(spec->segments, (size_t)cap * sizeof(*v));
		if (!v)
			return nomem(L->ld);
		spec->segments = v;
		L->cap = cap;
	}
	struct cua_segment *g = &spec->segments[spec->n_segments];
	memset(g, 0, sizeof(*g));
	memcpy(g->name, name, (size_t)w + 1);
	g->ndim = ndim;
	memcpy(g->shape, shape, (size_t)ndim * sizeof(shape[0]));
	g->offset = offset;
	g->numel = numel;
	g->init = *init;
	g->stream = CUA_SEG_STREAM(L->input, spec->n_segments);
	spec->n_segments++;
	L->end = offset + numel;
	return CUA_OK;
}

/* PyTorch's default for weights and biases alike: U(-1/sqrt(fan_in), +1/sqrt(fan_in)). */
static struct cua_init fan_in_init(int64_t fan_in)
{
	double b = 1.0 / sqrt((double)fan_in);
	return (struct cua_init){.dist = CUA_DIST_UNIFORM, .a = -b, .b = b};
}

/* The layer's "init" and "bias_init" overrides, where given. */
static enum cua_status layer_inits(struct layers *L, const cJSON *obj, const char *prefix,
                                   struct cua_init *w, struct cua_init *b)
{
	enum cua_status rc;
	if (cJSON_GetObjectItemCaseSensitive(obj, "init") &&
	    (rc = load_init_key(L->ld, obj, prefix, "init", w)) != CUA_OK)
		return rc;
	if (cJSON_GetObjectItemCaseSensitive(obj, "bias_init") &&
	    (rc = load_init_key(L->ld, obj, prefix, "bias_init", b)) != CUA_OK)
		return rc;
	return CUA_OK;
}

/* weight and (unless "bias": false) bias of one layer. */
static enum cua_status weight_bias(struct layers *L, const cJSON *obj, const char *prefix,
                                   const char *name, int ndim, const int64_t *shape,
                                   int64_t n_bias, struct cua_init w, struct cua_init b)
{
	bool bias;
	enum cua_status rc;
	if ((rc = layer_bool(L, obj, prefix, "bias", true, &bias)) != CUA_OK ||
	    (rc = layer_inits(L, obj, prefix, &w, &b)) != CUA_OK ||
	    (rc = add_segment(L, prefix, name, "weight", ndim, shape, &w)) != CUA_OK)
		return rc;
	if (bias && (rc = add_segment(L, prefix, name, "bias", 1, &n_bias, &b)) != CUA_OK)
		return rc;
	return CUA_OK;
}

static enum cua_status gen_linear(struct layers *L, const cJSON *obj, const char *prefix,
                                  const char *name)
{
	int64_t shape[2];
	enum cua_status rc;
	if ((rc = layer_int(L, obj, prefix, "in", true, 0, 1, &shape[1])) != CUA_OK ||
	    (rc = layer_int(L, obj, prefix, "out", true, 0, 1, &shape[0])) != CUA_OK)
		return rc;
	struct cua_init u = fan_in_init(shape[1]);
	return weight_bias(L, obj, prefix, name, 2, shape, shape[0], u, u);
}

/* conv{1,2,3}d: weight [out, in/groups, k...]; the transposed ones
 * [in, out/groups, k...] with fan_in (out/groups)*k^d, as PyTorch computes it. */
static enum cua_status gen_conv(struct layers *L, const cJSON *obj, const char *prefix,
                                const char *name, int d, bool transposed)
{
	int64_t in, out, groups, shape[2 + 3], fan;
	char f[FIELD_LEN];
	enum cua_status rc;
	if ((rc = layer_int(L, obj, prefix, "in", true, 0, 1, &in)) != CUA_OK ||
	    (rc = layer_int(L, obj, prefix, "out", true, 0, 1, &out)) != CUA_OK ||
	    (rc = layer_int(L, obj, prefix, "groups", false, 1, 1, &groups)) != CUA_OK ||
	    (rc = layer_sizes(L, obj, prefix, "k", d, shape + 2)) != CUA_OK)
		return rc;
	if (in % groups || out % groups)
		return fail(L->ld, join(f, prefix, "groups"),
		            "%lld does not divide in (%lld) and out (%lld)", (long long)groups,
		            (long long)in, (long long)out);
	shape[0] = transposed ? in : out;
	shape[1] = transposed ? out / groups : in / groups;
	fan = shape[1];
	for (int k = 0; k < d; k++)
		fan *= shape[2 + k];
	struct cua_init u = fan_in_init(fan);
	return weight_bias(L, obj, prefix, name, 2 + d, shape, out, u, u);
}

/* BatchNorm (batch statistics: no running buffers) and LayerNorm: weight 1, bias 0. */
static enum cua_status gen_norm(struct layers *L, const cJSON *obj, const char *prefix,
                                const char *name, bool layernorm)
{
	struct cua_init one = {.dist = CUA_DIST_CONST, .a = 1}, zero = {.dist = CUA_DIST_CONST};
	int64_t shape[CUA_MAX_DIMS];
	int ndim = 1;
	char f[FIELD_LEN], g[FIELD_LEN];
	const cJSON *sh = cJSON_GetObjectItemCaseSensitive(obj, "shape");
	enum cua_status rc;
	if (!layernorm || !sh) {
		if ((rc = layer_int(L, obj, prefix, "c", true, 0, 1, &shape[0])) != CUA_OK)
			return rc;
	} else {
		if (cJSON_GetObjectItemCaseSensitive(obj, "c"))
			return fail(L->ld, join(f, prefix, "c"), "give either c or shape, not both");
		join(f, prefix, "shape");
		if (!cJSON_IsArray(sh) || cJSON_GetArraySize(sh) < 1 ||
		    cJSON_GetArraySize(sh) > CUA_MAX_DIMS)
			return fail(L->ld, f, "must be an array of 1 to %d sizes", CUA_MAX_DIMS);
		ndim = 0;
		for (const cJSON *e = sh->child; e; e = e->next, ndim++)
			if ((rc = layer_value(L, indexed(g, f, ndim), e, 1, &shape[ndim])) != CUA_OK)
				return rc;
	}
	bool bias = true;
	if ((layernorm && (rc = layer_bool(L, obj, prefix, "bias", true, &bias)) != CUA_OK) ||
	    (rc = layer_inits(L, obj, prefix, &one, &zero)) != CUA_OK ||
	    (rc = add_segment(L, prefix, name, "weight", ndim, shape, &one)) != CUA_OK)
		return rc;
	if (bias && (rc = add_segment(L, prefix, name, "bias", ndim, shape, &zero)) != CUA_OK)
		return rc;
	return CUA_OK;
}

/* lstm/gru/rnn: per layer, per direction, weight_ih, weight_hh, bias_ih, bias_hh
 * (PyTorch's _flat_weights order), all U(+-1/sqrt(hidden)). */
static enum cua_status gen_rnn(struct layers *L, const cJSON *obj, const char *prefix,
                               const char *name, int gates)
{
	int64_t in, hidden, n_layers;
	bool bidir, bias;
	char suffix[48];
	enum cua_status rc;
	if ((rc = layer_int(L, obj, prefix, "in", true, 0, 1, &in)) != CUA_OK ||
	    (rc = layer_int(L, obj, prefix, "hidden", true, 0, 1, &hidden)) != CUA_OK ||
	    (rc = layer_int(L, obj, prefix, "layers", false, 1, 1, &n_layers)) != CUA_OK ||
	    (rc = layer_bool(L, obj, prefix, "bidirectional", false, &bidir)) != CUA_OK ||
	    (rc = layer_bool(L, obj, prefix, "bias", true, &bias)) != CUA_OK)
		return rc;
	if (n_layers > 1024)
		return fail(L->ld, prefix, "more than 1024 layers");
	struct cua_init w = fan_in_init(hidden), b = w;
	if ((rc = layer_inits(L, obj, prefix, &w, &b)) != CUA_OK)
		return rc;
	for (int64_t l = 0; l < n_layers; l++) {
		int64_t in_l = l == 0 ? in : hidden * (bidir ? 2 : 1);
		for (int dir = 0; dir < (bidir ? 2 : 1); dir++) {
			const char *rev = dir ? "_reverse" : "";
			int64_t ih[2] = {gates * hidden, in_l}, hh[2] = {gates * hidden, hidden};
			snprintf(suffix, sizeof(suffix), "weight_ih_l%lld%s", (long long)l, rev);
			if ((rc = add_segment(L, prefix, name, suffix, 2, ih, &w)) != CUA_OK)
				return rc;
			snprintf(suffix, sizeof(suffix), "weight_hh_l%lld%s", (long long)l, rev);
			if ((rc = add_segment(L, prefix, name, suffix, 2, hh, &w)) != CUA_OK)
				return rc;
			if (!bias)
				continue;
			snprintf(suffix, sizeof(suffix), "bias_ih_l%lld%s", (long long)l, rev);
			if ((rc = add_segment(L, prefix, name, suffix, 1, ih, &b)) != CUA_OK)
				return rc;
			snprintf(suffix, sizeof(suffix), "bias_hh_l%lld%s", (long long)l, rev);
			if ((rc = add_segment(L, prefix, name, suffix, 1, hh, &b)) != CUA_OK)
				return rc;
		}
	}
	return CUA_OK;
}

/* A free tensor: any shape, its init required; its name is the segment's. */
static enum cua_status gen_tensor(struct layers *L, const cJSON *obj, const char *prefix,
                                  const char *name)
{
	char f[FIELD_LEN], g[FIELD_LEN];
	int64_t shape[CUA_MAX_DIMS];
	struct cua_init init;
	const cJSON *sh;
	int ndim = 0;
	enum cua_status rc = member(L->ld, obj, prefix, "shape", true, &sh);
	if (rc != CUA_OK)
		return rc;
	join(f, prefix, "shape");
	if (!cJSON_IsArray(sh) || cJSON_GetArraySize(sh) < 1 ||
	    cJSON_GetArraySize(sh) > CUA_MAX_DIMS)
		return fail(L->ld, f, "must be an array of 1 to %d sizes", CUA_MAX_DIMS);
	for (const cJSON *e = sh->child; e; e = e->next, ndim++)
		if ((rc = layer_value(L, indexed(g, f, ndim), e, 1, &shape[ndim])) != CUA_OK)
			return rc;
	if ((rc = load_init(L->ld, obj, prefix, &init)) != CUA_OK)
		return rc;
	return add_segment(L, prefix, name, NULL, ndim, shape, &init);
}

static enum cua_status layer_list(struct layers *L, const cJSON *arr, const char *prefix);

static enum cua_status gen_repeat(struct layers *L, const cJSON *obj, const char *prefix)
{
	char f[FIELD_LEN], s[SHOWN_LEN + 1];
	const char *var = NULL;
	const cJSON *body;
	int64_t count;
	enum cua_status rc;
	if ((rc = layer_int(L, obj, prefix, "repeat", true, 0, 0, &count)) != CUA_OK ||
	    (rc = get_string(L->ld, obj, prefix, "var", false, &var)) != CUA_OK ||
	    (rc = member(L->ld, obj, prefix, "layers", true, &body)) != CUA_OK)
		return rc;
	if (count > CUA_MAX_SEGMENTS)
		return fail(L->ld, join(f, prefix, "repeat"), "is %lld (at most %d)",
		            (long long)count, CUA_MAX_SEGMENTS);
	if (L->depth == CUA_MAX_REPEAT_DEPTH)
		return fail(L->ld, prefix, "repeats nest deeper than %d", CUA_MAX_REPEAT_DEPTH);
	join(f, prefix, "var");
	if (var) {
		if (!is_identifier(var))
			return fail(L->ld, f, "'%s' is not a C identifier of at most %d characters",
			            shown(var, s, sizeof(s)), CUA_NAME_LEN - 1);
		if (find_param(L->ld->t, var, strlen(var)))
			return fail(L->ld, f, "'%s' is also a param", var);
		for (int i = 0; i < L->depth; i++)
			if (strcmp(L->var[i].name, var) == 0)
				return fail(L->ld, f, "'%s' is already the variable of an enclosing "
				            "repeat", var);
	}
	join(f, prefix, "layers");
	for (int64_t i = 0; i < count; i++) {
		if (var) {
			snprintf(L->var[L->depth].name, CUA_NAME_LEN, "%s", var);
			L->var[L->depth].value = i;
			L->depth++;
		}
		rc = layer_list(L, body, f);
		if (var)
			L->depth--;
		if (rc != CUA_OK)
			return rc;
	}
	return CUA_OK;
}

/* One entry of a layer list: exactly one generator key, and only its fields. */
static enum cua_status layer_entry(struct layers *L, const cJSON *obj, const char *prefix)
{
	static const char *const keys[N_GEN][9] = {
		[GEN_LINEAR] = {"linear", "in", "out", "bias", "init", "bias_init"},
		[GEN_CONV1D] = {"conv1d", "in", "out", "k", "groups", "bias", "init", "bias_init"},
		[GEN_CONV2D] = {"conv2d", "in", "out", "k", "groups", "bias", "init", "bias_init"},
		[GEN_CONV3D] = {"conv3d", "in", "out", "k", "groups", "bias", "init", "bias_init"},
		[GEN_CONVT1D] = {"conv_transpose1d", "in", "out", "k", "groups", "bias", "init",
		                 "bias_init"},
		[GEN_CONVT2D] = {"conv_transpose2d", "in", "out", "k", "groups", "bias", "init",
		                 "bias_init"},
		[GEN_CONVT3D] = {"conv_transpose3d", "in", "out", "k", "groups", "bias", "init",
		                 "bias_init"},
		[GEN_BN] = {"bn", "c", "init", "bias_init"},
		[GEN_LAYERNORM] = {"layernorm", "c", "shape", "bias", "init", "bias_init"},
		[GEN_LSTM] = {"lstm", "in", "hidden", "layers", "bidirectional", "bias", "init",
		              "bias_init"},
		[GEN_GRU] = {"gru", "in", "hidden", "layers", "bidirectional", "bias", "init",
		             "bias_init"},
		[GEN_RNN] = {"rnn", "in", "hidden", "layers", "bidirectional", "bias", "init",
		             "bias_init"},
		[GEN_TENSOR] = {"tensor", "shape", "init"},
		[GEN_REPEAT] = {"repeat", "var", "layers"},
	};
	char name[CUA_SEG_NAME_LEN];
	int gen = -1, n_gen = 0;
	enum cua_status rc;
	if (!cJSON_IsObject(obj))
		return fail(L->ld, prefix, "must be an object");
	for (const cJSON *m = obj->child; m; m = m->next) {
		int g = lookup(m->string, gen_names, N_GEN);
		if (g >= 0 && n_gen++ == 0)
			gen = g;
	}
	if (n_gen != 1)
		return fail(L->ld, prefix, "must hold exactly one generator key (linear, conv1d, "
		            "conv2d, conv3d, conv_transpose1d, conv_transpose2d, conv_transpose3d, "
		            "bn, layernorm, lstm, gru, rnn, tensor, repeat); it has %d", n_gen);
	if ((rc = check_keys(L->ld, obj, prefix, keys[gen])) != CUA_OK)
		return rc;
	if (gen == GEN_REPEAT)
		return gen_repeat(L, obj, prefix);
	if ((rc = layer_name(L, obj, prefix, gen_names[gen], name)) != CUA_OK)
		return rc;
	switch (gen) {
	case GEN_LINEAR: return gen_linear(L, obj, prefix, name);
	case GEN_CONV1D: return gen_conv(L, obj, prefix, name, 1, false);
	case GEN_CONV2D: return gen_conv(L, obj, prefix, name, 2, false);
	case GEN_CONV3D: return gen_conv(L, obj, prefix, name, 3, false);
	case GEN_CONVT1D: return gen_conv(L, obj, prefix, name, 1, true);
	case GEN_CONVT2D: return gen_conv(L, obj, prefix, name, 2, true);
	case GEN_CONVT3D: return gen_conv(L, obj, prefix, name, 3, true);
	case GEN_BN: return gen_norm(L, obj, prefix, name, false);
	case GEN_LAYERNORM: return gen_norm(L, obj, prefix, name, true);
	case GEN_LSTM: return gen_rnn(L, obj, prefix, name, 4);
	case GEN_GRU: return gen_rnn(L, obj, prefix, name, 3);
	case GEN_RNN: return gen_rnn(L, obj, prefix, name, 1);
	default: return gen_tensor(L, obj, prefix, name);
	}
}

static enum cua_status layer_list(struct layers *L, const cJSON *arr, const char *prefix)
{
	char f[FIELD_LEN];
	enum cua_status rc;
	if (!cJSON_IsArray(arr))
		return fail(L->ld, prefix, "must be an array of layers");
	int i = 0;
	for (const cJSON *j = arr->child; j; j = j->next, i++)
		if ((rc = layer_entry(L, j, indexed(f, prefix, i))) != CUA_OK)
			return rc;
	return CUA_OK;
}

/* A layered input: its segments from j.layers, its shape [P]. */
static enum cua_status load_layers(struct loader *ld, const cJSON *j, const char *prefix,
                                   struct cua_tensor_spec *spec)
{
	char f[FIELD_LEN];
	const cJSON *arr;
	struct layers L = {.ld = ld, .spec = spec,
	                   .input = (uint32_t)(spec - ld->t->inputs)};
	enum cua_status rc = member(ld, j, prefix, "layers", true, &arr);
	if (rc != CUA_OK)
		return rc;
	join(f, prefix, "layers");
	if (spec->dtype != CUA_F32)
		return fail(ld, join(f, prefix, "dtype"), "a layered input is f32");
	join(f, prefix, "layers");
	if ((rc = layer_list(&L, arr, f)) != CUA_OK)
		return rc;
	if (spec->n_segments == 0)
		return fail(ld, f, "declares no segment");
	spec->init = (struct cua_init){.dist = CUA_DIST_CONST};
	if (!(spec->shape[0] = strf("%lld", (long long)L.end)))
		return nomem(ld);
	spec->ndim = 1;
	return CUA_OK;
}

const struct cua_segment *cua_segment_at(const struct cua_tensor_spec *spec, int64_t index)
{
	int lo = 0, hi = spec->n_segments - 1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		const struct cua_segment *g = &spec->segments[mid];
		if (index < g->offset)
			hi = mid - 1;
		else if (index >= g->offset + g->numel)
			lo = mid + 1;
		else
			return g;
	}
	return NULL;
}

void cua_init_describe(const struct cua_init *in, char *buf, size_t len)
{
	switch (in->dist) {
	case CUA_DIST_UNIFORM: snprintf(buf, len, "U(%.6g, %.6g)", in->a, in->b); break;
	case CUA_DIST_NORMAL: snprintf(buf, len, "N(%.6g, %.6g^2)", in->a, in->b); break;
	case CUA_DIST_INT: snprintf(buf, len, "int[%.0f, %.0f]", in->a, in->b); break;
	case CUA_DIST_BERNOULLI: snprintf(buf, len, "bernoulli(%.6g)", in->a); break;
	case CUA_DIST_CONST: snprintf(buf, len, "const %.6g", in->a); break;
	default: snprintf(buf, len, "?");
	}
}

static enum cua_status load_tensor(struct loader *ld, const cJSON *j, const char *prefix,
                                   bool is_input, struct cua_tensor_spec *spec)
{
	static const char *const in_keys[] = {"name", "dtype", "shape", "init", NULL};
	static const char *const layered_keys[] = {"name", "dtype", "layers", NULL};
	static const char *const out_keys[] = {"name", "dtype", "shape", NULL};
	char f[FIELD_LEN], g[FIELD_LEN], s[SHOWN_LEN + 1];
	const char *str;
	const cJSON *shape;
	enum cua_status rc;

	if (!cJSON_IsObject(j))
		return fail(ld, prefix, "must be an object");
	bool layered = is_input && cJSON_GetObjectItemCaseSensitive(j, "layers");
	if ((rc = check_keys(ld, j, prefix, layered ? layered_keys
	                                      : is_input ? in_keys : out_keys)) != CUA_OK)
		return rc;

	if ((rc = get_string(ld, j, prefix, "name", true, &str)) != CUA_OK)
		return rc;
	join(f, prefix, "name");
	if (!is_identifier(str))
		return fail(ld, f, "'%s' is not a C identifier of at most %d characters",
		            shown(str, s, sizeof(s)), CUA_NAME_LEN - 1);
	snprintf(spec->name, sizeof(spec->name), "%s", str);
	if ((rc = check_unique_tensor(ld, f, spec)) != CUA_OK)
		return rc;

	if ((rc = get_string(ld, j, prefix, "dtype", true, &str)) != CUA_OK)
		return rc;
	int d = lookup(str, dtype_names, CUA_ARRAY_LEN(dtype_names));
	if (d < 0)
		return fail(ld, join(f, prefix, "dtype"),
		            "unknown dtype '%s' (f32, f64, f16, bf16, i32, i64, u8)",
		            shown(str, s, sizeof(s)));
	spec->dtype = (enum cua_dtype)d;
	if (layered)
		return load_layers(ld, j, prefix, spec);

	if ((rc = member(ld, j, prefix, "shape", true, &shape)) != CUA_OK)
		return rc;
	join(f, prefix, "shape");
	if (!cJSON_IsArray(shape))
		return fail(ld, f, "must be an array of expressions");
	int n = cJSON_GetArraySize(shape);
	if (n < 1 || n > CUA_MAX_DIMS)
		return fail(ld, f, "must have 1 to %d dims (has %d)", CUA_MAX_DIMS, n);
	const cJSON *e = shape->child;
	for (int k = 0; k < n; k++, e = e->next) {
		indexed(g, f, k);
		if (cJSON_IsString(e))
			spec->shape[k] = strdup(e->valuestring);
		else if (cJSON_IsNumber(e) && is_integral(e->valuedouble))
			spec->shape[k] = strf("%.0f", e->valuedouble);
		else
			return fail(ld, g, "must be an expression (a string) or an integer");
		if (!spec->shape[k])
			return nomem(ld);
		spec->ndim = k + 1;
	}
	if (is_input)
		return load_init(ld, j, prefix, &spec->init);
	return CUA_OK;
}

static enum cua_status load_tensors(struct loader *ld, const cJSON *root, bool is_input)
{
	const char *key = is_input ? "inputs" : "outputs";
	struct cua_tensor_spec *specs = is_input ? ld->t->inputs : ld->t->outputs;
	int *count = is_input ? &ld->t->n_inputs : &ld->t->n_outputs;
	char f[FIELD_LEN];
	const cJSON *arr;
	enum cua_status rc = get_array(ld, root, key, true, 1, CUA_MAX_TENSORS, &arr);
	if (rc != CUA_OK)
		return rc;
	int i = 0;
	for (const cJSON *j = arr->child; j; j = j->next, i++) {
		*count = i + 1;  /* counted first so that the free path sees the strings */
		if ((rc = load_tensor(ld, j, indexed(f, key, i), is_input, &specs[i])) != CUA_OK)
			return rc;
	}
	return CUA_OK;
}

static enum cua_status load_shape_set(struct loader *ld, const cJSON *j, const char *prefix,
                                      int index)
{
	static const char *const keys[] = {"name", "timed", "dims", NULL};
	struct cua_shape_set *set = &ld->t->shapes[index];
	char f[FIELD_LEN], s[SHOWN_LEN + 1];
	const char *name;
	const cJSON *m;
	enum cua_status rc;

	if (!cJSON_IsObject(j))
		return fail(ld, prefix, "must be an object");
	if ((rc = check_keys(ld, j, prefix, keys)) != CUA_OK)
		return rc;

	if ((rc = get_string(ld, j, prefix, "name", true, &name)) != CUA_OK)
		return rc;
	join(f, prefix, "name");
	if (strlen(name) >= CUA_NAME_LEN || !is_plain_word(name, strlen(name), true))
		return fail(ld, f, "'%s' must be 1 to %d characters of [A-Za-z0-9_-]",
		            shown(name, s, sizeof(s)), CUA_NAME_LEN - 1);
	for (int i = 0; i < index; i++)
		if (strcmp(ld->t->shapes[i].name, name) == 0)
			return fail(ld, f, "'%s' is already used by shapes[%d]", name, i);
	snprintf(set->name, sizeof(set->name), "%s", name);

	if ((rc = member(ld, j, prefix, "timed", false, &m)) != CUA_OK)
		return rc;
	if (m && !cJSON_IsBool(m))
		return fail(ld, join(f, prefix, "timed"), "must be true or false");
	set->timed = m && cJSON_IsTrue(m);

	if ((rc = member(ld, j, prefix, "dims", true, &m)) != CUA_OK)
		return rc;
	char dprefix[FIELD_LEN];
	join(dprefix, prefix, "dims");
	if (!cJSON_IsObject(m))
		return fail(ld, dprefix, "must be an object of named dims");
	if ((rc = check_keys(ld, m, dprefix, NULL)) != CUA_OK)
		return rc;
	int n = cJSON_GetArraySize(m);
	if (n < 1 || n > CUA_MAX_NAMED)
		return fail(ld, dprefix, "must name 1 to %d dims (has %d)", CUA_MAX_NAMED, n);
	for (const cJSON *d = m->child; d; d = d->next) {
		join(f, dprefix, d->string);
		if (!is_identifier(d->string))
			return fail(ld, f, "name is not a C identifier of at most %d characters",
			            CUA_NAME_LEN - 1);
		if (find_param(ld->t, d->string, strlen(d->string)))
			return fail(ld, f, "'%s' is also a param", d->string);
		if (!cJSON_IsNumber(d) || !is_integral(d->valuedouble) || d->valuedouble < 1)
			return fail(ld, f, "must be a positive integer");
		struct cua_named *nd = &set->dims[set->n_dims++];
		snprintf(nd->name, sizeof(nd->name), "%s", d->string);
		nd->value = (int64_t)d->valuedouble;
	}
	return CUA_OK;
}

static enum cua_status load_shapes(struct loader *ld, const cJSON *root)
{
	char f[FIELD_LEN];
	const cJSON *arr;
	enum cua_status rc = get_array(ld, root, "shapes", true, 1, CUA_MAX_SHAPES, &arr);
	if (rc != CUA_OK)
		return rc;
	int i = 0, n_timed = 0, first = -1, second = -1;
	for (const cJSON *j = arr->child; j; j = j->next, i++) {
		if ((rc = load_shape_set(ld, j, indexed(f, "shapes", i), i)) != CUA_OK)
			return rc;
		ld->t->n_shapes = i + 1;
		if (ld->t->shapes[i].timed) {
			n_timed++;
			if (first < 0)
				first = i;
			else if (second < 0)
				second = i;
		}
	}
	if (n_timed == 0)
		return fail(ld, "shapes", "no shape set is timed; exactly one must be");
	if (n_timed > 1)
		return fail(ld, "shapes", "%d shape sets are timed (shapes[%d], shapes[%d]); "
		            "exactly one must be", n_timed, first, second);
	if (ld->t->n_shapes < 2)
		return fail(ld, "shapes", "needs at least one check shape set besides the timed one");
	return CUA_OK;
}

static enum cua_status load_tolerance(struct loader *ld, const cJSON *root)
{
	static const char *const keys[] = {"atol", "rtol", NULL};
	const cJSON *tol;
	enum cua_status rc = member(ld, root, NULL, "tolerance", true, &tol);
	if (rc != CUA_OK)
		return rc;
	if (!cJSON_IsObject(tol))
		return fail(ld, "tolerance", "must be an object with atol and rtol");
	if ((rc = check_keys(ld, tol, "tolerance", keys)) != CUA_OK ||
	    (rc = get_number(ld, tol, "tolerance", "atol", &ld->t->atol)) != CUA_OK ||
	    (rc = get_number(ld, tol, "tolerance", "rtol", &ld->t->rtol)) != CUA_OK)
		return rc;
	if (ld->t->atol < 0)
		return fail(ld, "tolerance.atol", "must be >= 0 (is %g)", ld->t->atol);
	if (ld->t->rtol < 0)
		return fail(ld, "tolerance.rtol", "must be >= 0 (is %g)", ld->t->rtol);
	return CUA_OK;
}

static enum cua_status load_baselines(struct loader *ld, const cJSON *root)
{
	char f[FIELD_LEN], s[SHOWN_LEN + 1];
	const cJSON *arr;
	enum cua_status rc = get_array(ld, root, "baselines", false, 0, CUA_MAX_BASELINES, &arr);
	if (rc != CUA_OK || !arr)
		return rc;
	int i = 0;
	for (const cJSON *j = arr->child; j; j = j->next, i++) {
		indexed(f, "baselines", i);
		if (!cJSON_IsString(j))
			return fail(ld, f, "must be a string \"<library>/<slug>\"");
		const char *b = j->valuestring, *slash = strchr(b, '/');
		if (!slash || !is_plain_word(b, (size_t)(slash - b), false) ||
		    !is_plain_word(slash + 1, strlen(slash + 1), false))
			return fail(ld, f, "'%s' is not \"<library>/<slug>\" "
			            "(lower-case, digits, - and _)", shown(b, s, sizeof(s)));
		for (int k = 0; k < i; k++)
			if (strcmp(ld->t->baselines[k], b) == 0)
				return fail(ld, f, "'%s' is listed twice", b);
		if (!(ld->t->baselines[i] = strdup(b)))
			return nomem(ld);
		ld->t->n_baselines = i + 1;
	}
	return CUA_OK;
}

static enum cua_status load_libraries(struct loader *ld, const cJSON *root)
{
	char f[FIELD_LEN], s[SHOWN_LEN + 1];
	const cJSON *arr;
	enum cua_status rc = get_array(ld, root, "libraries", false, 0, CUA_MAX_LIBS, &arr);
	if (rc != CUA_OK || !arr)
		return rc;
	int i = 0;
	for (const cJSON *j = arr->child; j; j = j->next, i++) {
		indexed(f, "libraries", i);
		if (!cJSON_IsString(j))
			return fail(ld, f, "must be a string");
		if (lookup(j->valuestring, library_names, CUA_ARRAY_LEN(library_names)) < 0)
			return fail(ld, f, "unknown library '%s' (cublas, cudnn)",
			            shown(j->valuestring, s, sizeof(s)));
		for (int k = 0; k < i; k++)
			if (strcmp(ld->t->libraries[k], j->valuestring) == 0)
				return fail(ld, f, "'%s' is listed twice", j->valuestring);
		if (!(ld->t->libraries[i] = strdup(j->valuestring)))
			return nomem(ld);
		ld->t->n_libraries = i + 1;
	}
	return CUA_OK;
}

/* memory_mb: peak device MiB of one evaluation; required from Level 3 and for
 * any layered input (a network's weights, activations and the judge's copies
 * can exceed a device, and the harness refuses such a task up front). */
static enum cua_status load_memory(struct loader *ld, const cJSON *root)
{
	struct cua_task *t = ld->t;
	const cJSON *j;
	bool layered = false;
	double v;
	enum cua_status rc = member(ld, root, NULL, "memory_mb", false, &j);
	if (rc != CUA_OK)
		return rc;
	for (int i = 0; i < t->n_inputs; i++)
		layered |= t->inputs[i].n_segments > 0;
	if (!j) {
		if (t->level >= 3 || layered)
			return fail(ld, "memory_mb", "required field is missing (a Level 3 task or "
			            "one with a layered input states its peak device memory in MiB)");
		return CUA_OK;
	}
	if ((rc = get_integer(ld, root, NULL, "memory_mb", &v)) != CUA_OK)
		return rc;
	if (v < 1 || v > 16 * 1024 * 1024)
		return fail(ld, "memory_mb", "must be 1 to 16777216 MiB (is %g)", v);
	t->memory_mb = (int64_t)v;
	return CUA_OK;
}

/* Every field of task.json into ld->t, each checked on its own. */
static enum cua_status load_fields(struct loader *ld, const cJSON *root)
{
	static const char *const keys[] = {
		"title", "level", "description", "params", "inputs", "outputs", "shapes",
		"precision", "tolerance", "flops", "bytes", "sol", "baselines",
		"libraries", "torch", "memory_mb", NULL,
	};
	struct cua_task *t = ld->t;
	char s[SHOWN_LEN + 1];
	const char *str;
	double level;
	enum cua_status rc;

	if ((rc = check_keys(ld, root, NULL, keys)) != CUA_OK)
		return rc;
	if ((rc = dup_string(ld, root, "title", true, &t->title)) != CUA_OK)
		return rc;
	if (strchr(t->title, '\n'))
		return fail(ld, "title", "must be one line");
	if ((rc = get_integer(ld, root, NULL, "level", &level)) != CUA_OK)
		return rc;
	if (level < 1 || level > 9)
		return fail(ld, "level", "must be 1 to 9 (is %g)", level);
	t->level = (int)level;
	if ((rc = dup_string(ld, root, "description", true, &t->description)) != CUA_OK ||
	    (rc = load_params(ld, root)) != CUA_OK ||
	    (rc = load_tensors(ld, root, true)) != CUA_OK ||
	    (rc = load_tensors(ld, root, false)) != CUA_OK ||
	    (rc = load_shapes(ld, root)) != CUA_OK)
		return rc;

	if ((rc = get_string(ld, root, NULL, "precision", false, &str)) != CUA_OK)
		return rc;
	if (str) {
		int p = lookup(str, precision_names, CUA_ARRAY_LEN(precision_names));
		if (p < 0)
			return fail(ld, "precision",
			            "unknown precision '%s' (fp32-strict, tf32-allowed, half-allowed)",
			            shown(str, s, sizeof(s)));
		t->precision = (enum cua_precision)p;
	}
	if ((rc = get_string(ld, root, NULL, "sol", false, &str)) != CUA_OK)
		return rc;
	if (str && strcmp(str, "bytes") == 0)
		t->sol_bytes_only = true;
	else if (str && strcmp(str, "flops+bytes") != 0)
		return fail(ld, "sol", "must be \"flops+bytes\" (default) or \"bytes\", not '%s'",
		            shown(str, s, sizeof(s)));
	if ((rc = load_tolerance(ld, root)) != CUA_OK ||
	    (rc = dup_string(ld, root, "flops", true, &t->flops)) != CUA_OK ||
	    (rc = dup_string(ld, root, "bytes", true, &t->bytes)) != CUA_OK ||
	    (rc = load_baselines(ld, root)) != CUA_OK ||
	    (rc = load_libraries(ld, root)) != CUA_OK ||
	    (rc = dup_string(ld, root, "torch", false, &t->torch)) != CUA_OK ||
	    (rc = load_memory(ld, root)) != CUA_OK)
		return rc;
	return CUA_OK;
}

/* The id from where the folder is (its parent must be L<level>), and every
 * baseline's file when root/baselines exists. abs is the folder's real path,
 * root/tasks/L<level>/<folder>. */
static enum cua_status check_place(struct loader *ld, const char *abs)
{
	struct cua_task *t = ld->t;
	enum cua_status rc = CUA_OK;
	char f[FIELD_LEN], s[SHOWN_LEN + 1], level_dir[16];
	char *root = strdup(abs), *dir = NULL, *file = NULL;
	char *parts[3] = {NULL, NULL, NULL};   /* folder, level folder, "tasks" */
	if (!root)
		return nomem(ld);
	for (int i = 0; i < 3; i++) {          /* peel components off the end */
		char *slash = strrchr(root, '/');
		if (!slash)
			break;
		*slash = '\0';
		parts[i] = slash + 1;
	}
	const char *folder = parts[0] ? parts[0] : root;
	const char *parent = parts[1] ? parts[1] : "";

	snprintf(level_dir, sizeof(level_dir), "L%d", t->level);
	if (strcmp(parent, level_dir) != 0) {
		rc = fail(ld, "level", "is %d but the task folder is in '%s' (expected '%s')",
		          t->level, shown(parent, s, sizeof(s)), level_dir);
		goto out;
	}
	if (!(t->id = strf("%s/%s", level_dir, folder))) {
		rc = nomem(ld);
		goto out;
	}
	if (!parts[2])
		goto out;                          /* no root above tasks/: nothing to check */
	if (!(dir = strf("%s/baselines", root))) {
		rc = nomem(ld);
		goto out;
	}
	if (!is_dir(dir))
		goto out;
	for (int i = 0; i < t->n_baselines; i++) {
		free(file);
		if (!(file = strf("%s/%s.cu", dir, t->baselines[i]))) {
			rc = nomem(ld);
			goto out;
		}
		if (!is_file(file)) {
			rc = fail(ld, indexed(f, "baselines", i), "no file baselines/%s.cu",
			          t->baselines[i]);
			goto out;
		}
	}
out:
	free(file);
	free(dir);
	free(root);
	return rc;
}

/* Names in expr that are params without an integer value are an error. */
static enum cua_status check_param_use(struct loader *ld, const char *field, const char *expr)
{
	const char *p = expr;
	while (*p) {
		if (isdigit((unsigned char)*p)) {
			while (is_name_char(*p))
				p++;
			continue;
		}
		if (!is_name_start(*p)) {
			p++;
			continue;
		}
		const char *start = p;
		while (is_name_char(*p))
			p++;
		const struct cua_param *q = find_param(ld->t, start, (size_t)(p - start));
		if (q && !q->is_int)
			return fail(ld, field, "column %d: param '%s' is not an integer (%g)",
			            (int)(start - expr) + 1, q->name, q->value);
	}
	return CUA_OK;
}

/* expr evaluates to >= min in every shape set. */
static enum cua_status check_expr(struct loader *ld, const char *field, const char *expr,
                                  int64_t min)
{
	const struct cua_task *t = ld->t;
	char msg[CUA_ERR_LEN];
	enum cua_status rc = check_param_use(ld, field, expr);
	for (int s = 0; rc == CUA_OK && s < t->n_shapes; s++) {
		int64_t v;
		if (cua_task_eval(t, s, expr, &v, msg, sizeof(msg)) != CUA_OK)
			return fail(ld, field, "%s (shape set '%s')", msg, t->shapes[s].name);
		if (v < min)
			return fail(ld, field, "is %lld in shape set '%s' (must be >= %lld)",
			            (long long)v, t->shapes[s].name, (long long)min);
	}
	return rc;
}

static enum cua_status check_tensor_exprs(struct loader *ld, const char *key,
                                          const struct cua_tensor_spec *specs, int n)
{
	char f[FIELD_LEN], g[FIELD_LEN], msg[CUA_ERR_LEN];
	enum cua_status rc;
	for (int i = 0; i < n; i++) {
		const struct cua_tensor_spec *spec = &specs[i];
		indexed(f, key, i);
		for (int k = 0; k < spec->ndim; k++) {
			pathf(g, "%s.shape[%d]", f, k);
			if ((rc = check_expr(ld, g, spec->shape[k], 1)) != CUA_OK)
				return rc;
		}
		pathf(g, "%s.shape", f);
		for (int s = 0; s < ld->t->n_shapes; s++) {
			int64_t dims[CUA_MAX_DIMS], bytes = (int64_t)cua_dtype_size(spec->dtype);
			rc = cua_task_tensor_shape(ld->t, s, spec, dims, msg, sizeof(msg));
			if (rc != CUA_OK)
				return fail(ld, g, "%s", msg);
			for (int k = 0; k < spec->ndim; k++)
				if (__builtin_mul_overflow(bytes, dims[k], &bytes))
					return fail(ld, g, "more than 2^63 bytes in shape set '%s'",
					            ld->t->shapes[s].name);
		}
	}
	return CUA_OK;
}

/* Every expression resolves in every shape set: tensor dims >= 1, flops >= 0,
 * bytes >= 1. */
static enum cua_status check_exprs(struct loader *ld)
{
	const struct cua_task *t = ld->t;
	enum cua_status rc;
	if ((rc = check_tensor_exprs(ld, "inputs", t->inputs, t->n_inputs)) != CUA_OK ||
	    (rc = check_tensor_exprs(ld, "outputs", t->outputs, t->n_outputs)) != CUA_OK ||
	    (rc = check_expr(ld, "flops", t->flops, 0)) != CUA_OK ||
	    (rc = check_expr(ld, "bytes", t->bytes, 1)) != CUA_OK)
		return rc;
	return CUA_OK;
}

/* "line L, column C" of p in buf, both from 1. */
static void line_col(const char *buf, const char *p, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (const char *c = buf; c < p && *c; c++) {
		if (*c == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

enum cua_status cua_task_load(const char *dir, struct cua_task **out, char *err,
                              size_t errlen)
{
	enum cua_status rc;
	char *file = NULL, *buf = NULL, *abs = NULL;
	cJSON *root = NULL;
	struct cua_task *t = NULL;
	size_t len = 0;
	struct stat st;

	*out = NULL;
	size_t dlen = strlen(dir);
	while (dlen > 1 && dir[dlen - 1] == '/')
		dlen--;
	if (!(file = strf("%.*s/" TASK_FILE, (int)dlen, dir))) {
		cua_errf(err, errlen, "%s: out of memory", dir);
		rc = CUA_E_NOMEM;
		goto out;
	}
	if (stat(file, &st) != 0) {
		cua_errf(err, errlen, "%s: cannot read: %s", file, strerror(errno));
		rc = errno == ENOENT ? CUA_E_NOT_FOUND : CUA_E_IO;
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		cua_errf(err, errlen, "%s: not a regular file", file);
		rc = CUA_E_IO;
		goto out;
	}
	if ((size_t)st.st_size > TASK_MAX_BYTES) {
		cua_errf(err, errlen, "%s: file is larger than 1 MiB (%lld bytes)", file,
		         (long long)st.st_size);
		rc = CUA_E_INVALID;
		goto out;
	}
	if ((rc = cua_read_file(file, TASK_MAX_BYTES, &buf, &len, err, errlen)) != CUA_OK)
		goto out;
	if (strlen(buf) != len) {
		int line, col;
		line_col(buf, buf + strlen(buf), &line, &col);
		cua_errf(err, errlen, "%s: line %d, column %d: file contains a NUL byte", file,
		         line, col);
		rc = CUA_E_PARSE;
		goto out;
	}
	/* cJSON wants the NUL counted to accept a document that ends the buffer;
	 * on failure end is the position cJSON_GetErrorPtr() would give. */
	const char *end = NULL;
	if (!(root = cJSON_ParseWithLengthOpts(buf, len + 1, &end, true))) {
		int line, col;
		line_col(buf, end ? end : buf, &line, &col);
		cua_errf(err, errlen, "%s: line %d, column %d: invalid JSON", file, line, col);
		rc = CUA_E_PARSE;
		goto out;
	}
	if (!cJSON_IsObject(root)) {
		cua_errf(err, errlen, "%s: line 1, column 1: the document must be a JSON object",
		         file);
		rc = CUA_E_PARSE;
		goto out;
	}
	if (!(abs = realpath(dir, NULL))) {
		cua_errf(err, errlen, "%.*s: cannot resolve: %s", (int)dlen, dir, strerror(errno));
		rc = CUA_E_IO;
		goto out;
	}
	if (!(t = calloc(1, sizeof(*t))) || !(t->dir = strdup(dir))) {
		cua_errf(err, errlen, "%s: out of memory", file);
		rc = CUA_E_NOMEM;
		goto out;
	}
	struct loader ld = {.file = file, .err = err, .errlen = errlen, .t = t};
	if ((rc = load_fields(&ld, root)) != CUA_OK ||
	    (rc = check_place(&ld, abs)) != CUA_OK ||
	    (rc = check_exprs(&ld)) != CUA_OK)
		goto out;
	*out = t;
	t = NULL;
out:
	cua_task_free(t);
	cJSON_Delete(root);
	free(abs);
	free(buf);
	free(file);
	return rc;
}

static void free_specs(struct cua_tensor_spec *specs, int n)
{
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < specs[i].ndim; k++)
			free(specs[i].shape[k]);
		free(specs[i].segments);
	}
}

void cua_task_free(struct cua_task *t)
{
	if (!t)
		return;
	free(t->id);
	free(t->dir);
	free(t->title);
	free(t->description);
	free(t->torch);
	free_specs(t->inputs, t->n_inputs);
	free_specs(t->outputs, t->n_outputs);
	free(t->flops);
	free(t->bytes);
	for (int i = 0; i < t->n_baselines; i++)
		free(t->baselines[i]);
	for (int i = 0; i < t->n_libraries; i++)
		free(t->libraries[i]);
	free(t);
}

int cua_task_timed_shape(const struct cua_task *t)
{
	for (int i = 0; i < t->n_shapes; i++)
		if (t->shapes[i].timed)
			return i;
	CUA_ASSERT(!"a loaded task has a timed shape set");
	return -1;
}

enum cua_status cua_task_eval(const struct cua_task *t, int shape, const char *expr,
                              int64_t *out, char *err, size_t errlen)
{
	struct cua_binding vars[2 * CUA_MAX_NAMED];
	int n = 0;
	*out = 0;
	if (shape < 0 || shape >= t->n_shapes) {
		cua_errf(err, errlen, "no shape set %d (the task has %d)", shape, t->n_shapes);
		return CUA_E_INVALID;
	}
	const struct cua_shape_set *set = &t->shapes[shape];
	for (int i = 0; i < set->n_dims; i++)
		vars[n++] = (struct cua_binding){set->dims[i].name, set->dims[i].value};
	for (int i = 0; i < t->n_params; i++)
		if (t->params[i].is_int)
			vars[n++] = (struct cua_binding){t->params[i].name, (int64_t)t->params[i].value};
	return cua_expr_eval(expr, vars, n, out, err, errlen);
}

enum cua_status cua_task_tensor_shape(const struct cua_task *t, int shape,
                                      const struct cua_tensor_spec *spec,
                                      int64_t dims[CUA_MAX_DIMS], char *err,
                                      size_t errlen)
{
	char msg[CUA_ERR_LEN];
	enum cua_status rc = CUA_OK;
	memset(dims, 0, CUA_MAX_DIMS * sizeof(dims[0]));
	for (int k = 0; k < spec->ndim; k++) {
		rc = cua_task_eval(t, shape, spec->shape[k], &dims[k], msg, sizeof(msg));
		if (rc != CUA_OK) {
			cua_errf(err, errlen, "%s.shape[%d]: %s", spec->name, k, msg);
			break;
		}
		if (dims[k] < 1) {
			cua_errf(err, errlen, "%s.shape[%d]: is %lld (must be >= 1)", spec->name, k,
			         (long long)dims[k]);
			rc = CUA_E_INVALID;
			break;
		}
	}
	if (rc != CUA_OK)
		memset(dims, 0, CUA_MAX_DIMS * sizeof(dims[0]));
	return rc;
}

/* ---- the catalogue -------------------------------------------------------- */

struct strvec {
	char **v;
	int n, cap;
};

/* Appends s (taken over: freed on failure). */
static enum cua_status strvec_push(struct strvec *sv, char *s)
{
	if (!s)
		return CUA_E_NOMEM;
	if (sv->n == sv->cap) {
		int cap = sv->cap ? 2 * sv->cap : 16;
		char **v = realloc(sv->v, (size_t)cap * sizeof(*v));
		if (!v) {
			free(s);
			return CUA_E_NOMEM;
		}
		sv->v = v;
		sv->cap = cap;
	}
	sv->v[sv->n++] = s;
	return CUA_OK;
}

static void strvec_free(struct strvec *sv)
{
	for (int i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	*sv = (struct strvec){0};
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted entry names of a directory, without "." and "..". */
static enum cua_status list_dir(const char *path, struct strvec *out, char *err, size_t errlen)
{
	enum cua_status rc = CUA_OK;
	DIR *d = opendir(path);
	if (!d) {
		cua_errf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return errno == ENOENT ? CUA_E_NOT_FOUND : CUA_E_IO;
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if ((rc = strvec_push(out, strdup(e->d_name))) != CUA_OK) {
			cua_errf(err, errlen, "%s: out of memory", path);
			break;
		}
	}
	closedir(d);
	if (rc == CUA_OK)
		qsort(out->v, (size_t)out->n, sizeof(*out->v), cmp_str);
	return rc;
}

/* Relative paths (from base) of every regular file under base/rel. Symbolic
 * links are not followed and not hashed. */
static enum cua_status collect_files(const char *base, const char *rel, int depth,
                                     struct strvec *files, char *err, size_t errlen)
{
	enum cua_status rc;
	struct strvec names = {0};
	char *dir = rel ? strf("%s/%s", base, rel) : strdup(base);
	if (!dir) {
		cua_errf(err, errlen, "%s: out of memory", base);
		return CUA_E_NOMEM;
	}
	if (depth > MAX_TREE_DEPTH) {
		cua_errf(err, errlen, "%s: folders nest deeper than %d", dir, MAX_TREE_DEPTH);
		rc = CUA_E_INVALID;
		goto out;
	}
	if ((rc = list_dir(dir, &names, err, errlen)) != CUA_OK)
		goto out;
	for (int i = 0; i < names.n; i++) {
		struct stat st;
		char *path = strf("%s/%s", dir, names.v[i]);
		char *sub = rel ? strf("%s/%s", rel, names.v[i]) : strdup(names.v[i]);
		int r = path ? lstat(path, &st) : -1;
		int saved = errno;
		free(path);
		if (!path || !sub) {
			free(sub);
			cua_errf(err, errlen, "%s: out of memory", dir);
			rc = CUA_E_NOMEM;
			goto out;
		}
		if (r != 0) {
			cua_errf(err, errlen, "%s/%s: %s", dir, names.v[i], strerror(saved));
			free(sub);
			rc = CUA_E_IO;
			goto out;
		}
		if (S_ISDIR(st.st_mode)) {
			rc = collect_files(base, sub, depth + 1, files, err, errlen);
			free(sub);
		} else if (S_ISREG(st.st_mode)) {
			if ((rc = strvec_push(files, sub)) != CUA_OK)
				cua_errf(err, errlen, "%s: out of memory", dir);
		} else {
			free(sub);
		}
		if (rc != CUA_OK)
			goto out;
	}
out:
	strvec_free(&names);
	free(dir);
	return rc;
}

/* SHA-256 over every regular file under dir: for each, in order of relative
 * path, the path, a NUL, then the contents. */
static enum cua_status hash_tree(const char *dir, char out[65], char *err, size_t errlen)
{
	struct strvec files = {0};
	struct cua_sha256 *h = NULL;
	FILE *f = NULL;
	char *path = NULL;
	enum cua_status rc = collect_files(dir, NULL, 0, &files, err, errlen);
	if (rc != CUA_OK)
		goto out;
	qsort(files.v, (size_t)files.n, sizeof(*files.v), cmp_str);
	if (!(h = cua_sha256_new())) {
		cua_errf(err, errlen, "%s: out of memory", dir);
		rc = CUA_E_NOMEM;
		goto out;
	}
	for (int i = 0; i < files.n; i++) {
		char chunk[1 << 14];
		size_t n;
		free(path);
		if (!(path = strf("%s/%s", dir, files.v[i]))) {
			cua_errf(err, errlen, "%s: out of memory", dir);
			rc = CUA_E_NOMEM;
			goto out;
		}
		if (!(f = fopen(path, "rb"))) {
			cua_errf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
			rc = CUA_E_IO;
			goto out;
		}
		cua_sha256_update(h, files.v[i], strlen(files.v[i]) + 1);
		while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
			cua_sha256_update(h, chunk, n);
		if (ferror(f)) {
			cua_errf(err, errlen, "%s: read error", path);
			rc = CUA_E_IO;
			goto out;
		}
		fclose(f);
		f = NULL;
	}
	cua_sha256_final(h, out);
	h = NULL;
out:
	if (h) {
		char discard[65];
		cua_sha256_final(h, discard);
	}
	if (f)
		fclose(f);
	free(path);
	strvec_free(&files);
	return rc;
}

/* "L" followed by digits only. */
static bool is_level_dir(const char *name)
{
	if (name[0] != 'L' || !name[1])
		return false;
	for (const char *p = name + 1; *p; p++)
		if (!isdigit((unsigned char)*p))
			return false;
	return true;
}

static int cmp_task(const void *a, const void *b)
{
	const struct cua_task *x = *(const struct cua_task *const *)a;
	const struct cua_task *y = *(const struct cua_task *const *)b;
	return strcmp(x->id, y->id);
}

/* Appends line + '\n' to *buf (heap, NUL-terminated). */
static enum cua_status append_line(char **buf, const char *line)
{
	size_t old = *buf ? strlen(*buf) : 0, n = strlen(line);
	char *p = realloc(*buf, old + n + 2);
	if (!p)
		return CUA_E_NOMEM;
	memcpy(p + old, line, n);
	p[old + n] = '\n';
	p[old + n + 1] = '\0';
	*buf = p;
	return CUA_OK;
}

/* Loads every task folder (one holding task.json) of one level folder. */
static enum cua_status load_level(const char *level_dir, struct cua_catalogue *cat,
                                  int *cap, char **first_err, char *err, size_t errlen)
{
	struct strvec names = {0};
	char *dir = NULL, *file = NULL;
	char msg[CUA_ERR_LEN];
	enum cua_status rc = list_dir(level_dir, &names, err, errlen);
	for (int i = 0; rc == CUA_OK && i < names.n; i++) {
		free(dir);
		free(file);
		dir = strf("%s/%s", level_dir, names.v[i]);
		file = dir ? strf("%s/" TASK_FILE, dir) : NULL;
		if (!file) {
			rc = CUA_E_NOMEM;
			break;
		}
		if (!is_dir(dir) || access(file, F_OK) != 0)
			continue;
		struct cua_task *t;
		enum cua_status r = cua_task_load(dir, &t, msg, sizeof(msg));
		if (r == CUA_E_NOMEM) {
			rc = r;
			break;
		}
		if (r != CUA_OK) {
			cat->n_bad++;
			if (!*first_err && !(*first_err = strdup(msg)))
				rc = CUA_E_NOMEM;
			else
				rc = append_line(&cat->errors, msg);
			continue;
		}
		if (cat->n == *cap) {
			int ncap = *cap ? 2 * *cap : 16;
			struct cua_task **v = realloc(cat->tasks, (size_t)ncap * sizeof(*v));
			if (!v) {
				cua_task_free(t);
				rc = CUA_E_NOMEM;
				break;
			}
			cat->tasks = v;
			*cap = ncap;
		}
		cat->tasks[cat->n++] = t;
	}
	if (rc == CUA_E_NOMEM)
		cua_errf(err, errlen, "%s: out of memory", level_dir);
	free(file);
	free(dir);
	strvec_free(&names);
	return rc;
}

enum cua_status cua_catalogue_load(const char *root, struct cua_catalogue *cat,
                                   char *err, size_t errlen)
{
	struct strvec levels = {0};
	char *tasks_dir = NULL, *level_dir = NULL, *first_err = NULL;
	int cap = 0;
	enum cua_status rc;

	memset(cat, 0, sizeof(*cat));
	if (!(tasks_dir = strf("%s/tasks", root))) {
		cua_errf(err, errlen, "%s: out of memory", root);
		rc = CUA_E_NOMEM;
		goto out;
	}
	if ((rc = list_dir(tasks_dir, &levels, err, errlen)) != CUA_OK)
		goto out;
	for (int i = 0; i < levels.n; i++) {
		if (!is_level_dir(levels.v[i]))
			continue;
		free(level_dir);
		if (!(level_dir = strf("%s/%s", tasks_dir, levels.v[i]))) {
			cua_errf(err, errlen, "%s: out of memory", tasks_dir);
			rc = CUA_E_NOMEM;
			goto out;
		}
		if (!is_dir(level_dir))
			continue;
		if ((rc = load_level(level_dir, cat, &cap, &first_err, err, errlen)) != CUA_OK)
			goto out;
	}
	if (cat->n > 0)
		qsort(cat->tasks, (size_t)cat->n, sizeof(*cat->tasks), cmp_task);
	if ((rc = hash_tree(tasks_dir, cat->hash, err, errlen)) != CUA_OK)
		goto out;
	if (cat->n_bad > 0) {
		cua_errf(err, errlen, "%d task%s failed to load; the first: %s", cat->n_bad,
		         cat->n_bad == 1 ? "" : "s", first_err);
		rc = CUA_E_PARSE;
	}
out:
	if (rc != CUA_OK && rc != CUA_E_PARSE)
		cua_catalogue_clear(cat);
	free(first_err);
	free(level_dir);
	free(tasks_dir);
	strvec_free(&levels);
	return rc;
}

void cua_catalogue_clear(struct cua_catalogue *cat)
{
	if (!cat)
		return;
	for (int i = 0; i < cat->n; i++)
		cua_task_free(cat->tasks[i]);
	free(cat->tasks);
	free(cat->errors);
	memset(cat, 0, sizeof(*cat));
}

/* The folder of a task id: "020-relu" of "L1/020-relu". */
static const char *task_folder(const struct cua_task *t)
{
	const char *slash = strchr(t->id, '/');
	return slash ? slash + 1 : t->id;
}

/* Splits "020-relu" into number 20 and slug "relu"; number -1 when the
 * folder does not start with digits and a dash (the slug is then all of it). */
static const char *folder_slug(const char *folder, long *number)
{
	const char *p = folder;
	long n = 0;
	while (isdigit((unsigned char)*p) && n < 100000000)
		n = n * 10 + (*p++ - '0');
	if (p > folder && *p == '-' && p[1]) {
		*number = n;
		return p + 1;
	}
	*number = -1;
	return folder;
}

/* How name is matched, most exact first; the first way with a match decides. */
enum match_by { BY_ID, BY_FOLDER, BY_SLUG, BY_NUMBER, N_MATCH_BY };

static bool matches(const struct cua_task *t, const char *name, enum match_by by)
{
	long number, want = 0;
	const char *folder = task_folder(t), *slug = folder_slug(folder, &number);
	switch (by) {
	case BY_ID:
		return strcmp(t->id, name) == 0;
	case BY_FOLDER:
		return strcmp(folder, name) == 0;
	case BY_SLUG:
		return strcmp(slug, name) == 0;
	case BY_NUMBER: {
		/* "L2/21" or "L2/021": that level's task; a bare number: any level's
		 * (cua_catalogue_find prefers the lowest) */
		int level = 0;
		const char *p = name;
		if ((p[0] == 'L' || p[0] == 'l') && isdigit((unsigned char)p[1]) && p[2] == '/') {
			level = p[1] - '0';
			p += 3;
		}
		const char *digits = p;
		for (; *p; p++) {
			if (!isdigit((unsigned char)*p) || p - digits >= 8)
				return false;
			want = want * 10 + (*p - '0');
		}
		return *digits && number >= 0 && number == want && (!level || t->level == level);
	}
	default:
		return false;
	}
}

const struct cua_task *cua_catalogue_find(const struct cua_catalogue *cat,
                                          const char *name, char *err,
                                          size_t errlen)
{
	char s[SHOWN_LEN + 1];
	if (!name || !*name) {
		cua_errf(err, errlen, "no task name given");
		return NULL;
	}
	for (int by = 0; by < N_MATCH_BY; by++) {
		const struct cua_task *found = NULL;
		int count = 0;
		for (int i = 0; i < cat->n; i++) {
			if (matches(cat->tasks[i], name, (enum match_by)by)) {
				found = cat->tasks[i];
				count++;
			}
		}
		if (count == 1)
			return found;
		/* Numbers repeat across levels: a bare one names the lowest level's task
		 * ("21" is L1/021 once L2 has a 21 too). */
		if (count > 1 && by == BY_NUMBER && isdigit((unsigned char)name[0])) {
			const struct cua_task *low = NULL;
			int at_low = 0;
			for (int i = 0; i < cat->n; i++) {
				const struct cua_task *t = cat->tasks[i];
				if (!matches(t, name, BY_NUMBER))
					continue;
				if (!low || t->level < low->level) {
					low = t;
					at_low = 1;
				} else if (t->level == low->level)
					at_low++;
			}
			if (at_low == 1)
				return low;
		}
		if (count > 1) {
			char list[CUA_ERR_LEN] = "";
			size_t used = 0;
			for (int i = 0; i < cat->n && used < sizeof(list); i++) {
				if (!matches(cat->tasks[i], name, (enum match_by)by))
					continue;
				int w = snprintf(list + used, sizeof(list) - used, "%s%s",
				                 used ? ", " : "", cat->tasks[i]->id);
				used += w > 0 ? (size_t)w : 0;
			}
			cua_errf(err, errlen, "task '%s' is ambiguous: %s", shown(name, s, sizeof(s)),
			         list);
			return NULL;
		}
	}
	cua_errf(err, errlen, "no task '%s'", shown(name, s, sizeof(s)));
	return NULL;
}
