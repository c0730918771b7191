/* task.c — loads and validates one task.json (schema: docs/ADDING-A-TASK.md)
 * into a struct cua_task; layered inputs are expanded by layers.c. */
#include "catalogue/task.h"
#include "catalogue/expr.h"
#include "catalogue/layers.h"
#include "catalogue/loader.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#define TASK_MAX_BYTES ((size_t)1 << 20)

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

static bool is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static enum cua_status load_params(struct cua_loader *ld, const cJSON *root)
{
	struct cua_task *t = ld->t;
	char f[CUA_FIELD_LEN];
	const cJSON *params;
	enum cua_status rc = cua_loader_member(ld, root, NULL, "params", false, &params);
	if (rc != CUA_OK || !params)
		return rc;
	if (!cJSON_IsObject(params))
		return cua_loader_fail(ld, "params", "must be an object");
	if ((rc = cua_loader_check_keys(ld, params, "params", NULL)) != CUA_OK)
		return rc;
	if (cJSON_GetArraySize(params) > CUA_MAX_NAMED)
		return cua_loader_fail(ld, "params", "at most %d params", CUA_MAX_NAMED);
	for (const cJSON *p = params->child; p; p = p->next) {
		cua_loader_join(f, "params", p->string);
		if (!cua_loader_is_identifier(p->string))
			return cua_loader_fail(ld, f, "name is not a C identifier of at most %d "
			                       "characters", CUA_NAME_LEN - 1);
		if (!cJSON_IsNumber(p) || !isfinite(p->valuedouble))
			return cua_loader_fail(ld, f, "must be a finite number");
		struct cua_param *q = &t->params[t->n_params++];
		snprintf(q->name, sizeof(q->name), "%s", p->string);
		q->value = p->valuedouble;
		q->is_int = cua_loader_is_integral(q->value);
	}
	return CUA_OK;
}

static enum cua_status load_init(struct cua_loader *ld, const cJSON *tensor, const char *tprefix,
                                 struct cua_init *init)
{
	return cua_loader_init_key(ld, tensor, tprefix, "init", init);
}

/* Fails when name is already used by an input or output before spec. */
static enum cua_status check_unique_tensor(struct cua_loader *ld, const char *field,
                                           const struct cua_tensor_spec *spec)
{
	const struct cua_task *t = ld->t;
	for (int i = 0; i < t->n_inputs; i++)
		if (&t->inputs[i] != spec && strcmp(t->inputs[i].name, spec->name) == 0)
			return cua_loader_fail(ld, field, "'%s' is already used by inputs[%d]",
			                       spec->name, i);
	for (int i = 0; i < t->n_outputs; i++)
		if (&t->outputs[i] != spec && strcmp(t->outputs[i].name, spec->name) == 0)
			return cua_loader_fail(ld, field, "'%s' is already used by outputs[%d]",
			                       spec->name, i);
	return CUA_OK;
}

/* "ignored": the reason no output depends on the input, one line of prose (at
 * least 16 characters: a reason, not a flag). */
static enum cua_status load_ignored(struct cua_loader *ld, const cJSON *j, const char *prefix,
                                    struct cua_tensor_spec *spec)
{
	char f[CUA_FIELD_LEN];
	const char *str;
	enum cua_status rc = cua_loader_get_string(ld, j, prefix, "ignored", false, &str);
	if (rc != CUA_OK || !str)
		return rc;
	cua_loader_join(f, prefix, "ignored");
	size_t n = strlen(str);
	if (n < 16 || n > 1000)
		return cua_loader_fail(ld, f, "must say in 16 to 1000 characters why no output "
		                       "depends on this input (has %zu)", n);
	for (const char *c = str; *c; c++)
		if ((unsigned char)*c < 0x20)
			return cua_loader_fail(ld, f, "must be one line of text (a control "
			                       "character at %td)", c - str);
	spec->ignored = cua_xstrdup(str);
	return CUA_OK;
}

static enum cua_status load_tensor(struct cua_loader *ld, const cJSON *j, const char *prefix,
                                   bool is_input, struct cua_tensor_spec *spec)
{
	static const char *const in_keys[] = {"name", "dtype", "shape", "init", "ignored", NULL};
	static const char *const layered_keys[] = {"name", "dtype", "layers", "ignored", NULL};
	static const char *const out_keys[] = {"name", "dtype", "shape", NULL};
	char f[CUA_FIELD_LEN], g[CUA_FIELD_LEN], s[CUA_SHOWN_LEN + 1];
	const char *str;
	const cJSON *shape;
	enum cua_status rc;

	if (!cJSON_IsObject(j))
		return cua_loader_fail(ld, prefix, "must be an object");
	bool layered = is_input && cJSON_GetObjectItemCaseSensitive(j, "layers");
	if ((rc = cua_loader_check_keys(ld, j, prefix, layered ? layered_keys
	                                      : is_input ? in_keys : out_keys)) != CUA_OK)
		return rc;

	if ((rc = cua_loader_get_string(ld, j, prefix, "name", true, &str)) != CUA_OK)
		return rc;
	cua_loader_join(f, prefix, "name");
	if (!cua_loader_is_identifier(str))
		return cua_loader_fail(ld, f, "'%s' is not a C identifier of at most %d characters",
		                       cua_loader_shown(str, s, sizeof(s)), CUA_NAME_LEN - 1);
	snprintf(spec->name, sizeof(spec->name), "%s", str);
	if ((rc = check_unique_tensor(ld, f, spec)) != CUA_OK)
		return rc;

	if ((rc = cua_loader_get_string(ld, j, prefix, "dtype", true, &str)) != CUA_OK)
		return rc;
	int d = cua_loader_lookup(str, dtype_names, CUA_ARRAY_LEN(dtype_names));
	if (d < 0)
		return cua_loader_fail(ld, cua_loader_join(f, prefix, "dtype"),
		                       "unknown dtype '%s' (f32, f64, f16, bf16, i32, i64, u8)",
		                       cua_loader_shown(str, s, sizeof(s)));
	spec->dtype = (enum cua_dtype)d;
	if (is_input && (rc = load_ignored(ld, j, prefix, spec)) != CUA_OK)
		return rc;
	if (layered)
		return cua_layers_load(ld, j, prefix, spec);

	if ((rc = cua_loader_member(ld, j, prefix, "shape", true, &shape)) != CUA_OK)
		return rc;
	cua_loader_join(f, prefix, "shape");
	if (!cJSON_IsArray(shape))
		return cua_loader_fail(ld, f, "must be an array of expressions");
	int n = cJSON_GetArraySize(shape);
	if (n < 1 || n > CUA_MAX_DIMS)
		return cua_loader_fail(ld, f, "must have 1 to %d dims (has %d)", CUA_MAX_DIMS, n);
	const cJSON *e = shape->child;
	for (int k = 0; k < n; k++, e = e->next) {
		cua_loader_indexed(g, f, k);
		if (cJSON_IsString(e))
			spec->shape[k] = cua_xstrdup(e->valuestring);
		else if (cJSON_IsNumber(e) && cua_loader_is_integral(e->valuedouble))
			spec->shape[k] = cua_loader_strf("%.0f", e->valuedouble);
		else
			return cua_loader_fail(ld, g,
			                       "must be an expression (a string) or an integer");
		spec->ndim = k + 1;
	}
	if (is_input)
		return load_init(ld, j, prefix, &spec->init);
	return CUA_OK;
}

static enum cua_status load_tensors(struct cua_loader *ld, const cJSON *root, bool is_input)
{
	const char *key = is_input ? "inputs" : "outputs";
	struct cua_tensor_spec *specs = is_input ? ld->t->inputs : ld->t->outputs;
	int *count = is_input ? &ld->t->n_inputs : &ld->t->n_outputs;
	char f[CUA_FIELD_LEN];
	const cJSON *arr;
	enum cua_status rc = cua_loader_get_array(ld, root, key, true, 1, CUA_MAX_TENSORS, &arr);
	if (rc != CUA_OK)
		return rc;
	int i = 0;
	for (const cJSON *j = arr->child; j; j = j->next, i++) {
		*count = i + 1;  /* counted first so that the free path sees the strings */
		if ((rc = load_tensor(ld, j, cua_loader_indexed(f, key, i), is_input,
		                      &specs[i])) != CUA_OK)
			return rc;
	}
	return CUA_OK;
}

static enum cua_status load_shape_set(struct cua_loader *ld, const cJSON *j, const char *prefix,
                                      int index)
{
	static const char *const keys[] = {"name", "timed", "dims", NULL};
	struct cua_shape_set *set = &ld->t->shapes[index];
	char f[CUA_FIELD_LEN], s[CUA_SHOWN_LEN + 1];
	const char *name;
	const cJSON *m;
	enum cua_status rc;

	if (!cJSON_IsObject(j))
		return cua_loader_fail(ld, prefix, "must be an object");
	if ((rc = cua_loader_check_keys(ld, j, prefix, keys)) != CUA_OK)
		return rc;

	if ((rc = cua_loader_get_string(ld, j, prefix, "name", true, &name)) != CUA_OK)
		return rc;
	cua_loader_join(f, prefix, "name");
	if (strlen(name) >= CUA_NAME_LEN || !is_plain_word(name, strlen(name), true))
		return cua_loader_fail(ld, f, "'%s' must be 1 to %d characters of [A-Za-z0-9_-]",
		                       cua_loader_shown(name, s, sizeof(s)), CUA_NAME_LEN - 1);
	for (int i = 0; i < index; i++)
		if (strcmp(ld->t->shapes[i].name, name) == 0)
			return cua_loader_fail(ld, f, "'%s' is already used by shapes[%d]", name,
			                       i);
	snprintf(set->name, sizeof(set->name), "%s", name);

	if ((rc = cua_loader_member(ld, j, prefix, "timed", false, &m)) != CUA_OK)
		return rc;
	if (m && !cJSON_IsBool(m))
		return cua_loader_fail(ld, cua_loader_join(f, prefix, "timed"),
		                       "must be true or false");
	set->timed = m && cJSON_IsTrue(m);

	if ((rc = cua_loader_member(ld, j, prefix, "dims", true, &m)) != CUA_OK)
		return rc;
	char dprefix[CUA_FIELD_LEN];
	cua_loader_join(dprefix, prefix, "dims");
	if (!cJSON_IsObject(m))
		return cua_loader_fail(ld, dprefix, "must be an object of named dims");
	if ((rc = cua_loader_check_keys(ld, m, dprefix, NULL)) != CUA_OK)
		return rc;
	int n = cJSON_GetArraySize(m);
	if (n < 1 || n > CUA_MAX_NAMED)
		return cua_loader_fail(ld, dprefix, "must name 1 to %d dims (has %d)",
		                       CUA_MAX_NAMED, n);
	for (const cJSON *d = m->child; d; d = d->next) {
		cua_loader_join(f, dprefix, d->string);
		if (!cua_loader_is_identifier(d->string))
			return cua_loader_fail(ld, f, "name is not a C identifier of at most %d "
			                       "characters", CUA_NAME_LEN - 1);
		if (cua_loader_find_param(ld->t, d->string, strlen(d->string)))
			return cua_loader_fail(ld, f, "'%s' is also a param", d->string);
		if (!cJSON_IsNumber(d) || !cua_loader_is_integral(d->valuedouble) ||
		    d->valuedouble < 1)
			return cua_loader_fail(ld, f, "must be a positive integer");
		struct cua_named *nd = &set->dims[set->n_dims++];
		snprintf(nd->name, sizeof(nd->name), "%s", d->string);
		nd->value = (int64_t)d->valuedouble;
	}
	return CUA_OK;
}

static enum cua_status load_shapes(struct cua_loader *ld, const cJSON *root)
{
	char f[CUA_FIELD_LEN];
	const cJSON *arr;
	enum cua_status rc = cua_loader_get_array(ld, root, "shapes", true, 1, CUA_MAX_SHAPES,
	                                          &arr);
	if (rc != CUA_OK)
		return rc;
	int i = 0, n_timed = 0, first = -1, second = -1;
	for (const cJSON *j = arr->child; j; j = j->next, i++) {
		if ((rc = load_shape_set(ld, j, cua_loader_indexed(f, "shapes", i), i)) != CUA_OK)
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
		return cua_loader_fail(ld, "shapes", "no shape set is timed; exactly one must be");
	if (n_timed > 1)
		return cua_loader_fail(ld, "shapes",
		                       "%d shape sets are timed (shapes[%d], shapes[%d]); "
		                       "exactly one must be", n_timed, first, second);
	if (ld->t->n_shapes < 2)
		return cua_loader_fail(ld, "shapes",
		                       "needs at least one check shape set besides the timed one");
	return CUA_OK;
}

static enum cua_status load_tolerance(struct cua_loader *ld, const cJSON *root)
{
	static const char *const keys[] = {"atol", "rtol", NULL};
	const cJSON *tol;
	enum cua_status rc = cua_loader_member(ld, root, NULL, "tolerance", true, &tol);
	if (rc != CUA_OK)
		return rc;
	if (!cJSON_IsObject(tol))
		return cua_loader_fail(ld, "tolerance", "must be an object with atol and rtol");
	if ((rc = cua_loader_check_keys(ld, tol, "tolerance", keys)) != CUA_OK ||
	    (rc = cua_loader_get_number(ld, tol, "tolerance", "atol", &ld->t->atol)) != CUA_OK ||
	    (rc = cua_loader_get_number(ld, tol, "tolerance", "rtol", &ld->t->rtol)) != CUA_OK)
		return rc;
	if (ld->t->atol < 0)
		return cua_loader_fail(ld, "tolerance.atol", "must be >= 0 (is %g)", ld->t->atol);
	if (ld->t->rtol < 0)
		return cua_loader_fail(ld, "tolerance.rtol", "must be >= 0 (is %g)", ld->t->rtol);
	return CUA_OK;
}

static enum cua_status load_baselines(struct cua_loader *ld, const cJSON *root)
{
	char f[CUA_FIELD_LEN], s[CUA_SHOWN_LEN + 1];
	const cJSON *arr;
	enum cua_status rc = cua_loader_get_array(ld, root, "baselines", false, 0,
	                                          CUA_MAX_BASELINES, &arr);
	if (rc != CUA_OK || !arr)
		return rc;
	int i = 0;
	for (const cJSON *j = arr->child; j; j = j->next, i++) {
		cua_loader_indexed(f, "baselines", i);
		if (!cJSON_IsString(j))
			return cua_loader_fail(ld, f, "must be a string \"<library>/<slug>\"");
		const char *b = j->valuestring, *slash = strchr(b, '/');
		if (!slash || !is_plain_word(b, (size_t)(slash - b), false) ||
		    !is_plain_word(slash + 1, strlen(slash + 1), false))
			return cua_loader_fail(ld, f, "'%s' is not \"<library>/<slug>\" "
			                       "(lower-case, digits, - and _)",
			                       cua_loader_shown(b, s, sizeof(s)));
		for (int k = 0; k < i; k++)
			if (strcmp(ld->t->baselines[k], b) == 0)
				return cua_loader_fail(ld, f, "'%s' is listed twice", b);
		ld->t->baselines[i] = cua_xstrdup(b);
		ld->t->n_baselines = i + 1;
	}
	return CUA_OK;
}

static enum cua_status load_libraries(struct cua_loader *ld, const cJSON *root)
{
	char f[CUA_FIELD_LEN], s[CUA_SHOWN_LEN + 1];
	const cJSON *arr;
	enum cua_status rc = cua_loader_get_array(ld, root, "libraries", false, 0, CUA_MAX_LIBS,
	                                          &arr);
	if (rc != CUA_OK || !arr)
		return rc;
	int i = 0;
	for (const cJSON *j = arr->child; j; j = j->next, i++) {
		cua_loader_indexed(f, "libraries", i);
		if (!cJSON_IsString(j))
			return cua_loader_fail(ld, f, "must be a string");
		if (cua_loader_lookup(j->valuestring, library_names,
		                      CUA_ARRAY_LEN(library_names)) < 0)
			return cua_loader_fail(ld, f, "unknown library '%s' (cublas, cudnn)",
			                       cua_loader_shown(j->valuestring, s, sizeof(s)));
		for (int k = 0; k < i; k++)
			if (strcmp(ld->t->libraries[k], j->valuestring) == 0)
				return cua_loader_fail(ld, f, "'%s' is listed twice",
				                       j->valuestring);
		ld->t->libraries[i] = cua_xstrdup(j->valuestring);
		ld->t->n_libraries = i + 1;
	}
	return CUA_OK;
}

/* memory_mb: peak device MiB of one evaluation; required from Level 3 and for
 * any layered input (a network's weights, activations and the judge's copies
 * can exceed a device, and the harness refuses such a task up front). */
static enum cua_status load_memory(struct cua_loader *ld, const cJSON *root)
{
	struct cua_task *t = ld->t;
	const cJSON *j;
	bool layered = false;
	double v;
	enum cua_status rc = cua_loader_member(ld, root, NULL, "memory_mb", false, &j);
	if (rc != CUA_OK)
		return rc;
	for (int i = 0; i < t->n_inputs; i++)
		layered |= t->inputs[i].n_segments > 0;
	if (!j) {
		if (t->level >= 3 || layered)
			return cua_loader_fail(ld, "memory_mb",
			                       "required field is missing (a Level 3 task or one "
			                       "with a layered input states its peak device memory "
			                       "in MiB)");
		return CUA_OK;
	}
	if ((rc = cua_loader_get_integer(ld, root, NULL, "memory_mb", &v)) != CUA_OK)
		return rc;
	if (v < 1 || v > 16 * 1024 * 1024)
		return cua_loader_fail(ld, "memory_mb", "must be 1 to 16777216 MiB (is %g)", v);
	t->memory_mb = (int64_t)v;
	return CUA_OK;
}

/* A version label: 1 to 40 characters of [A-Za-z0-9._-] ("v0.1", a commit). */
static bool is_version(const char *s)
{
	size_t n = strlen(s);
	if (n < 1 || n > 40)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!(isalnum((unsigned char)s[i]) || s[i] == '.' || s[i] == '_' || s[i] == '-'))
			return false;
	return true;
}

/* Parses "level<L>/<N>_<Name>.py" (KernelBench's file names: N and L decimal,
 * Name of [A-Za-z0-9_]); false when file is not of that form. */
static bool parse_kernelbench_file(const char *file, int *level, int *number)
{
	const char *p = file;
	long l = 0, n = 0;
	if (strncmp(p, "level", 5) != 0)
		return false;
	p += 5;
	if (!isdigit((unsigned char)*p))
		return false;
	for (; isdigit((unsigned char)*p) && l < 1000; p++)
		l = l * 10 + (*p - '0');
	if (*p++ != '/' || !isdigit((unsigned char)*p))
		return false;
	for (; isdigit((unsigned char)*p) && n < 100000; p++)
		n = n * 10 + (*p - '0');
	if (*p++ != '_')
		return false;
	const char *name = p;
	while (isalnum((unsigned char)*p) || *p == '_')
		p++;
	if (p == name || strcmp(p, ".py") != 0)
		return false;
	*level = (int)l;
	*number = (int)n;
	return true;
}

/* source: {"kernelbench": VERSION, "file": "level<L>/<N>_<Name>.py"}, the
 * KernelBench problem this task is. L must be the task's level; N is checked
 * against the folder's number in check_place (task NNN is problem NNN). */
static enum cua_status load_source(struct cua_loader *ld, const cJSON *root)
{
	static const char *const keys[] = {"kernelbench", "file", NULL};
	struct cua_task *t = ld->t;
	char s[CUA_SHOWN_LEN + 1];
	const char *version, *file;
	const cJSON *src;
	int level, number;
	enum cua_status rc = cua_loader_member(ld, root, NULL, "source", false, &src);
	if (rc != CUA_OK || !src)
		return rc;
	if (!cJSON_IsObject(src))
		return cua_loader_fail(ld, "source", "must be an object {\"kernelbench\": VERSION, "
		                       "\"file\": \"level<L>/<N>_<Name>.py\"}");
	if ((rc = cua_loader_check_keys(ld, src, "source", keys)) != CUA_OK ||
	    (rc = cua_loader_get_string(ld, src, "source", "kernelbench", true, &version)) != CUA_OK ||
	    (rc = cua_loader_get_string(ld, src, "source", "file", true, &file)) != CUA_OK)
		return rc;
	if (!is_version(version))
		return cua_loader_fail(ld, "source.kernelbench", "'%s' is not a version label "
		                       "(1 to 40 characters of [A-Za-z0-9._-], e.g. v0.1)",
		                       cua_loader_shown(version, s, sizeof(s)));
	if (!parse_kernelbench_file(file, &level, &number))
		return cua_loader_fail(ld, "source.file", "'%s' is not a KernelBench problem file "
		                       "\"level<L>/<N>_<Name>.py\"",
		                       cua_loader_shown(file, s, sizeof(s)));
	if (level != t->level && t->level == 0)
		return cua_loader_fail(ld, "source.file", "is a level %d problem but the task is in "
		                       "the extra set " CUA_EXTRA_SET, level);
	if (level != t->level)
		return cua_loader_fail(ld, "source.file", "is a level %d problem but the task is "
		                       "level %d", level, t->level);
	t->source_version = cua_xstrdup(version);
	t->source_file = cua_xstrdup(file);
	t->source_problem = number;
	return CUA_OK;
}

/* Every field of task.json into ld->t, each checked on its own. */
static enum cua_status load_fields(struct cua_loader *ld, const cJSON *root)
{
	static const char *const keys[] = {
		"title", "level", "description", "params", "inputs", "outputs", "shapes",
		"precision", "tolerance", "flops", "bytes", "sol", "baselines",
		"libraries", "torch", "memory_mb", "source", NULL,
	};
	struct cua_task *t = ld->t;
	char s[CUA_SHOWN_LEN + 1];
	const char *str;
	double level;
	enum cua_status rc;

	if ((rc = cua_loader_check_keys(ld, root, NULL, keys)) != CUA_OK)
		return rc;
	if ((rc = cua_loader_dup_string(ld, root, "title", true, &t->title)) != CUA_OK)
		return rc;
	if (strchr(t->title, '\n'))
		return cua_loader_fail(ld, "title", "must be one line");
	if ((rc = cua_loader_get_integer(ld, root, NULL, "level", &level)) != CUA_OK)
		return rc;
	if (level < 0 || level > 9)
		return cua_loader_fail(ld, "level", "must be 1 to 9, or 0 for the extra set "
		                       "(tasks/" CUA_EXTRA_SET "/) (is %g)", level);
	t->level = (int)level;
	if ((rc = cua_loader_dup_string(ld, root, "description", true,
	                                &t->description)) != CUA_OK ||
	    (rc = load_params(ld, root)) != CUA_OK ||
	    (rc = load_tensors(ld, root, true)) != CUA_OK ||
	    (rc = load_tensors(ld, root, false)) != CUA_OK ||
	    (rc = load_shapes(ld, root)) != CUA_OK)
		return rc;

	if ((rc = cua_loader_get_string(ld, root, NULL, "precision", false, &str)) != CUA_OK)
		return rc;
	if (str) {
		int p = cua_loader_lookup(str, precision_names, CUA_ARRAY_LEN(precision_names));
		if (p < 0)
			return cua_loader_fail(ld, "precision",
			                       "unknown precision '%s' (fp32-strict, tf32-allowed, "
			                       "half-allowed)",
			                       cua_loader_shown(str, s, sizeof(s)));
		t->precision = (enum cua_precision)p;
	}
	if ((rc = cua_loader_get_string(ld, root, NULL, "sol", false, &str)) != CUA_OK)
		return rc;
	if (str && strcmp(str, "bytes") == 0)
		t->sol_bytes_only = true;
	else if (str && strcmp(str, "flops+bytes") != 0)
		return cua_loader_fail(ld, "sol",
		                       "must be \"flops+bytes\" (default) or \"bytes\", not '%s'",
		                       cua_loader_shown(str, s, sizeof(s)));
	if ((rc = load_tolerance(ld, root)) != CUA_OK ||
	    (rc = cua_loader_dup_string(ld, root, "flops", true, &t->flops)) != CUA_OK ||
	    (rc = cua_loader_dup_string(ld, root, "bytes", true, &t->bytes)) != CUA_OK ||
	    (rc = load_baselines(ld, root)) != CUA_OK ||
	    (rc = load_libraries(ld, root)) != CUA_OK ||
	    (rc = cua_loader_dup_string(ld, root, "torch", false, &t->torch)) != CUA_OK ||
	    (rc = load_memory(ld, root)) != CUA_OK ||
	    (rc = load_source(ld, root)) != CUA_OK)
		return rc;
	return CUA_OK;
}

/* The id from where the folder is (its parent must be L<level>), and every
 * baseline's file when root/baselines exists. abs is the folder's real path,
 * root/tasks/L<level>/<folder>. */
static enum cua_status check_place(struct cua_loader *ld, const char *abs)
{
	struct cua_task *t = ld->t;
	enum cua_status rc = CUA_OK;
	char f[CUA_FIELD_LEN], s[CUA_SHOWN_LEN + 1], level_dir[16];
	char *root = cua_xstrdup(abs), *dir = NULL, *file = NULL;
	char *parts[3] = {NULL, NULL, NULL};   /* folder, level folder, "tasks" */
	for (int i = 0; i < 3; i++) {          /* peel components off the end */
		char *slash = strrchr(root, '/');
		if (!slash)
			break;
		*slash = '\0';
		parts[i] = slash + 1;
	}
	const char *folder = parts[0] ? parts[0] : root;
	const char *parent = parts[1] ? parts[1] : "";

	if (t->level)
		snprintf(level_dir, sizeof(level_dir), "L%d", t->level);
	else
		snprintf(level_dir, sizeof(level_dir), "%s", CUA_EXTRA_SET);
	if (strcmp(parent, level_dir) != 0) {
		rc = cua_loader_fail(ld, "level",
		                     "is %d but the task folder is in '%s' (expected '%s')",
		                     t->level, cua_loader_shown(parent, s, sizeof(s)), level_dir);
		goto out;
	}
	if (strlen(level_dir) + 1 + strlen(folder) > CUA_TASK_ID_MAX) {
		rc = cua_loader_fail(ld, "level", "the id %s/%s is longer than %d characters",
		                     level_dir, cua_loader_shown(folder, s, sizeof(s)),
		                     CUA_TASK_ID_MAX);
		goto out;
	}
	if (t->source_file) {
		long number = -1;
		if (isdigit((unsigned char)folder[0]))
			number = strtol(folder, NULL, 10);
		if (number != t->source_problem) {
			rc = cua_loader_fail(ld, "source.file",
			                     "is problem %d but the task folder is '%s' (task NNN "
			                     "is problem NNN)", t->source_problem,
			                     cua_loader_shown(folder, s, sizeof(s)));
			goto out;
		}
	}
	t->id = cua_loader_strf("%s/%s", level_dir, folder);
	if (!parts[2])
		goto out;                          /* no root above tasks/: nothing to check */
	dir = cua_loader_strf("%s/baselines", root);
	if (!cua_loader_is_dir(dir))
		goto out;
	for (int i = 0; i < t->n_baselines; i++) {
		free(file);
		file = cua_loader_strf("%s/%s.cu", dir, t->baselines[i]);
		if (!is_file(file)) {
			rc = cua_loader_fail(ld, cua_loader_indexed(f, "baselines", i),
			                     "no file baselines/%s.cu", t->baselines[i]);
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
static enum cua_status check_param_use(struct cua_loader *ld, const char *field, const char *expr)
{
	const char *p = expr;
	while (*p) {
		if (isdigit((unsigned char)*p)) {
			while (cua_loader_is_name_char(*p))
				p++;
			continue;
		}
		if (!cua_loader_is_name_start(*p)) {
			p++;
			continue;
		}
		const char *start = p;
		while (cua_loader_is_name_char(*p))
			p++;
		const struct cua_param *q = cua_loader_find_param(ld->t, start,
		                                                  (size_t)(p - start));
		if (q && !q->is_int)
			return cua_loader_fail(ld, field,
			                       "column %d: param '%s' is not an integer (%g)",
			                       (int)(start - expr) + 1, q->name, q->value);
	}
	return CUA_OK;
}

/* expr evaluates to >= min in every shape set. */
static enum cua_status check_expr(struct cua_loader *ld, const char *field, const char *expr,
                                  int64_t min)
{
	const struct cua_task *t = ld->t;
	char msg[CUA_ERR_LEN];
	enum cua_status rc = check_param_use(ld, field, expr);
	for (int s = 0; rc == CUA_OK && s < t->n_shapes; s++) {
		int64_t v;
		if (cua_task_eval(t, s, expr, &v, msg, sizeof(msg)) != CUA_OK)
			return cua_loader_fail(ld, field, "%s (shape set '%s')", msg,
			                       t->shapes[s].name);
		if (v < min)
			return cua_loader_fail(ld, field,
			                       "is %lld in shape set '%s' (must be >= %lld)",
			                       (long long)v, t->shapes[s].name, (long long)min);
	}
	return rc;
}

static enum cua_status check_tensor_exprs(struct cua_loader *ld, const char *key,
                                          const struct cua_tensor_spec *specs, int n)
{
	char f[CUA_FIELD_LEN], g[CUA_FIELD_LEN], msg[CUA_ERR_LEN];
	enum cua_status rc;
	for (int i = 0; i < n; i++) {
		const struct cua_tensor_spec *spec = &specs[i];
		cua_loader_indexed(f, key, i);
		for (int k = 0; k < spec->ndim; k++) {
			cua_loader_pathf(g, "%s.shape[%d]", f, k);
			if ((rc = check_expr(ld, g, spec->shape[k], 1)) != CUA_OK)
				return rc;
		}
		cua_loader_pathf(g, "%s.shape", f);
		for (int s = 0; s < ld->t->n_shapes; s++) {
			int64_t dims[CUA_MAX_DIMS], bytes = (int64_t)cua_dtype_size(spec->dtype);
			rc = cua_task_tensor_shape(ld->t, s, spec, dims, msg, sizeof(msg));
			if (rc != CUA_OK)
				return cua_loader_fail(ld, g, "%s", msg);
			for (int k = 0; k < spec->ndim; k++)
				if (__builtin_mul_overflow(bytes, dims[k], &bytes))
					return cua_loader_fail(ld, g, "more than 2^63 bytes in "
					                       "shape set '%s'",
					                       ld->t->shapes[s].name);
		}
	}
	return CUA_OK;
}

/* Every expression resolves in every shape set: tensor dims >= 1, flops >= 0,
 * bytes >= 1. */
static enum cua_status check_exprs(struct cua_loader *ld)
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
	file = cua_loader_strf("%.*s/" CUA_TASK_FILE, (int)dlen, dir);
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
	t = cua_xcalloc(1, sizeof(*t));
	t->dir = cua_xstrdup(dir);
	struct cua_loader ld = {.file = file, .err = err, .errlen = errlen, .t = t};
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
		free(specs[i].ignored);
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
	free(t->source_version);
	free(t->source_file);
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
