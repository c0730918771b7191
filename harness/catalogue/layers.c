/* layers.c — a layered input of task.json (Level 3 weights): its "layers" list
 * expanded into named segments of one flat f32 tensor. */
#include "catalogue/layers.h"
#include "catalogue/expr.h"

#include <math.h>
#include <string.h>

/* A layered input is one flat f32 tensor declared by a layer list: each
 * generator expands to named segments (PyTorch state_dict() names and order),
 * laid end to end, each at a multiple of CUA_SEG_ALIGN elements. Numeric fields
 * are integers or expressions over integer params and the enclosing repeats'
 * variables; names may hold {expr}. docs/ADDING-A-TASK.md has the schema. */

#define SEG_MAX_ELEMS ((int64_t)1 << 36)   /* 256 GiB of f32: more than any device */
#define SEG_EXPR_LEN 64                    /* longest {expr} in a name */

struct layers {
	struct cua_loader *ld;
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
	struct cua_expr_binding vars[CUA_MAX_NAMED + CUA_MAX_REPEAT_DEPTH];
	char msg[CUA_ERR_LEN];
	const struct cua_task *t = L->ld->t;
	int n = 0;
	for (int i = 0; i < t->n_params; i++)
		if (t->params[i].is_int)
			vars[n++] = (struct cua_expr_binding){t->params[i].name,
			                                 (int64_t)t->params[i].value};
	for (int i = 0; i < L->depth; i++)
		vars[n++] = (struct cua_expr_binding){L->var[i].name, L->var[i].value};
	if (cua_expr_eval(expr, vars, n, out, msg, sizeof(msg)) != CUA_OK)
		return cua_loader_fail(L->ld, field,
		                       "%s (a layer field may use integer params and repeat "
		                       "variables, not shape-set dims: the layout is one for every "
		                       "shape set)", msg);
	return CUA_OK;
}

/* j (at field) as an integer >= min: a JSON integer or an expression string. */
static enum cua_status layer_value(struct layers *L, const char *field, const cJSON *j,
                                   int64_t min, int64_t *out)
{
	enum cua_status rc;
	if (cJSON_IsNumber(j)) {
		if (!cua_loader_is_integral(j->valuedouble))
			return cua_loader_fail(L->ld, field, "must be an integer or an expression");
		*out = (int64_t)j->valuedouble;
	} else if (cJSON_IsString(j)) {
		if ((rc = layer_eval(L, field, j->valuestring, out)) != CUA_OK)
			return rc;
	} else {
		return cua_loader_fail(L->ld, field,
		                       "must be an integer or an expression (a string)");
	}
	if (*out < min)
		return cua_loader_fail(L->ld, field, "is %lld (must be >= %lld)", (long long)*out,
		                       (long long)min);
	if (*out > SEG_MAX_ELEMS)
		return cua_loader_fail(L->ld, field, "is %lld (at most 2^36)", (long long)*out);
	return CUA_OK;
}

/* obj.key as an integer >= min; def when absent and not required. */
static enum cua_status layer_int(struct layers *L, const cJSON *obj, const char *prefix,
                                 const char *key, bool required, int64_t def, int64_t min,
                                 int64_t *out)
{
	char f[CUA_FIELD_LEN];
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
	cua_loader_join(f, prefix, key);
	*out = def;
	if (!j)
		return required ? cua_loader_fail(L->ld, f, "required field is missing") : CUA_OK;
	return layer_value(L, f, j, min, out);
}

/* obj.key as n sizes >= 1: one integer (every dim) or an array of n. */
static enum cua_status layer_sizes(struct layers *L, const cJSON *obj, const char *prefix,
                                   const char *key, int n, int64_t *out)
{
	char f[CUA_FIELD_LEN], g[CUA_FIELD_LEN];
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
	enum cua_status rc;
	cua_loader_join(f, prefix, key);
	if (!j)
		return cua_loader_fail(L->ld, f, "required field is missing");
	if (!cJSON_IsArray(j)) {
		if ((rc = layer_value(L, f, j, 1, &out[0])) != CUA_OK)
			return rc;
		for (int k = 1; k < n; k++)
			out[k] = out[0];
		return CUA_OK;
	}
	if (cJSON_GetArraySize(j) != n)
		return cua_loader_fail(L->ld, f, "must be one size or an array of %d (has %d)", n,
		                       cJSON_GetArraySize(j));
	const cJSON *e = j->child;
	for (int k = 0; k < n; k++, e = e->next)
		if ((rc = layer_value(L, cua_loader_indexed(g, f, k), e, 1, &out[k])) != CUA_OK)
			return rc;
	return CUA_OK;
}

static enum cua_status layer_bool(struct layers *L, const cJSON *obj, const char *prefix,
                                  const char *key, bool def, bool *out)
{
	char f[CUA_FIELD_LEN];
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
	*out = def;
	if (!j)
		return CUA_OK;
	if (!cJSON_IsBool(j))
		return cua_loader_fail(L->ld, cua_loader_join(f, prefix, key),
		                       "must be true or false");
	*out = cJSON_IsTrue(j);
	return CUA_OK;
}

/* The generator's name (obj.key) with every {expr} replaced by its value. */
static enum cua_status layer_name(struct layers *L, const cJSON *obj, const char *prefix,
                                  const char *key, char out[CUA_SEG_NAME_LEN])
{
	char f[CUA_FIELD_LEN], expr[SEG_EXPR_LEN], s[CUA_SHOWN_LEN + 1];
	const char *tmpl;
	size_t o = 0;
	enum cua_status rc = cua_loader_get_string(L->ld, obj, prefix, key, true, &tmpl);
	if (rc != CUA_OK)
		return rc;
	cua_loader_join(f, prefix, key);
	for (const char *p = tmpl; *p;) {
		int col = (int)(p - tmpl) + 1;
		if (*p == '{') {
			const char *close = strchr(p, '}');
			size_t len = close ? (size_t)(close - p - 1) : 0;
			int64_t v;
			if (!close || len == 0 || len >= sizeof(expr))
				return cua_loader_fail(L->ld, f,
				                       "column %d: '{' must enclose an expression "
				                       "of 1 to %d characters and a '}'", col,
				                       SEG_EXPR_LEN - 1);
			memcpy(expr, p + 1, len);
			expr[len] = '\0';
			if ((rc = layer_eval(L, f, expr, &v)) != CUA_OK)
				return rc;
			int w = snprintf(out + o, CUA_SEG_NAME_LEN - o, "%lld", (long long)v);
			if (w < 0 || o + (size_t)w >= CUA_SEG_NAME_LEN)
				return cua_loader_fail(L->ld, f,
				                       "'%s' expands to more than %d characters",
				                       cua_loader_shown(tmpl, s, sizeof(s)),
				                       CUA_SEG_NAME_LEN - 1);
			o += (size_t)w;
			p = close + 1;
			continue;
		}
		if (!cua_loader_is_name_char(*p) && *p != '.')
			return cua_loader_fail(L->ld, f, "column %d: a segment name holds "
			                       "[A-Za-z0-9_.] and {expr} only", col);
		if (o + 1 >= CUA_SEG_NAME_LEN)
			return cua_loader_fail(L->ld, f, "'%s' expands to more than %d characters",
			                       cua_loader_shown(tmpl, s, sizeof(s)),
			                       CUA_SEG_NAME_LEN - 1);
		out[o++] = *p++;
	}
	out[o] = '\0';
	if (o == 0)
		return cua_loader_fail(L->ld, f, "must not be empty");
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
		return cua_loader_fail(L->ld, field,
		                       "segment name '%s%s%s' is longer than %d characters", base,
		                       suffix ? "." : "", suffix ? suffix : "",
		                       CUA_SEG_NAME_LEN - 1);
	for (int k = 0; k < spec->n_segments; k++)
		if (strcmp(spec->segments[k].name, name) == 0)
			return cua_loader_fail(L->ld, field,
			                       "segment '%s' is already defined (segment %d)", name,
			                       k);
	if (spec->n_segments == CUA_MAX_SEGMENTS)
		return cua_loader_fail(L->ld, field, "more than %d segments", CUA_MAX_SEGMENTS);
	for (int k = 0; k < ndim; k++)
		if (__builtin_mul_overflow(numel, shape[k], &numel) || numel > SEG_MAX_ELEMS)
			return cua_loader_fail(L->ld, field,
			                       "segment '%s' has more than 2^36 elements", name);
	int64_t offset = (L->end + CUA_SEG_ALIGN - 1) / CUA_SEG_ALIGN * CUA_SEG_ALIGN;
	if (offset + numel > SEG_MAX_ELEMS)
		return cua_loader_fail(L->ld, field,
		                       "the layer list holds more than 2^36 elements");
	if (spec->n_segments == L->cap) {
		L->cap = L->cap ? 2 * L->cap : 64;
		spec->segments = cua_xrealloc(spec->segments, (size_t)L->cap * sizeof(*spec->segments));
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
	    (rc = cua_loader_init_key(L->ld, obj, prefix, "init", w)) != CUA_OK)
		return rc;
	if (cJSON_GetObjectItemCaseSensitive(obj, "bias_init") &&
	    (rc = cua_loader_init_key(L->ld, obj, prefix, "bias_init", b)) != CUA_OK)
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
	char f[CUA_FIELD_LEN];
	enum cua_status rc;
	if ((rc = layer_int(L, obj, prefix, "in", true, 0, 1, &in)) != CUA_OK ||
	    (rc = layer_int(L, obj, prefix, "out", true, 0, 1, &out)) != CUA_OK ||
	    (rc = layer_int(L, obj, prefix, "groups", false, 1, 1, &groups)) != CUA_OK ||
	    (rc = layer_sizes(L, obj, prefix, "k", d, shape + 2)) != CUA_OK)
		return rc;
	if (in % groups || out % groups)
		return cua_loader_fail(L->ld, cua_loader_join(f, prefix, "groups"),
		                       "%lld does not divide in (%lld) and out (%lld)",
		                       (long long)groups, (long long)in, (long long)out);
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
	char f[CUA_FIELD_LEN], g[CUA_FIELD_LEN];
	const cJSON *sh = cJSON_GetObjectItemCaseSensitive(obj, "shape");
	enum cua_status rc;
	if (!layernorm || !sh) {
		if ((rc = layer_int(L, obj, prefix, "c", true, 0, 1, &shape[0])) != CUA_OK)
			return rc;
	} else {
		if (cJSON_GetObjectItemCaseSensitive(obj, "c"))
			return cua_loader_fail(L->ld, cua_loader_join(f, prefix, "c"),
			                       "give either c or shape, not both");
		cua_loader_join(f, prefix, "shape");
		if (!cJSON_IsArray(sh) || cJSON_GetArraySize(sh) < 1 ||
		    cJSON_GetArraySize(sh) > CUA_MAX_DIMS)
			return cua_loader_fail(L->ld, f, "must be an array of 1 to %d sizes",
			                       CUA_MAX_DIMS);
		ndim = 0;
		for (const cJSON *e = sh->child; e; e = e->next, ndim++)
			if ((rc = layer_value(L, cua_loader_indexed(g, f, ndim), e, 1,
			                      &shape[ndim])) != CUA_OK)
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
		return cua_loader_fail(L->ld, prefix, "more than 1024 layers");
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
	char f[CUA_FIELD_LEN], g[CUA_FIELD_LEN];
	int64_t shape[CUA_MAX_DIMS];
	struct cua_init init;
	const cJSON *sh;
	int ndim = 0;
	enum cua_status rc = cua_loader_member(L->ld, obj, prefix, "shape", true, &sh);
	if (rc != CUA_OK)
		return rc;
	cua_loader_join(f, prefix, "shape");
	if (!cJSON_IsArray(sh) || cJSON_GetArraySize(sh) < 1 ||
	    cJSON_GetArraySize(sh) > CUA_MAX_DIMS)
		return cua_loader_fail(L->ld, f, "must be an array of 1 to %d sizes", CUA_MAX_DIMS);
	for (const cJSON *e = sh->child; e; e = e->next, ndim++)
		if ((rc = layer_value(L, cua_loader_indexed(g, f, ndim), e, 1,
		                      &shape[ndim])) != CUA_OK)
			return rc;
	if ((rc = cua_loader_init_key(L->ld, obj, prefix, "init", &init)) != CUA_OK)
		return rc;
	return add_segment(L, prefix, name, NULL, ndim, shape, &init);
}

static enum cua_status layer_list(struct layers *L, const cJSON *arr, const char *prefix);

static enum cua_status gen_repeat(struct layers *L, const cJSON *obj, const char *prefix)
{
	char f[CUA_FIELD_LEN], s[CUA_SHOWN_LEN + 1];
	const char *var = NULL;
	const cJSON *body;
	int64_t count;
	enum cua_status rc;
	if ((rc = layer_int(L, obj, prefix, "repeat", true, 0, 0, &count)) != CUA_OK ||
	    (rc = cua_loader_get_string(L->ld, obj, prefix, "var", false, &var)) != CUA_OK ||
	    (rc = cua_loader_member(L->ld, obj, prefix, "layers", true, &body)) != CUA_OK)
		return rc;
	if (count > CUA_MAX_SEGMENTS)
		return cua_loader_fail(L->ld, cua_loader_join(f, prefix, "repeat"),
		                       "is %lld (at most %d)", (long long)count, CUA_MAX_SEGMENTS);
	if (L->depth == CUA_MAX_REPEAT_DEPTH)
		return cua_loader_fail(L->ld, prefix, "repeats nest deeper than %d",
		                       CUA_MAX_REPEAT_DEPTH);
	cua_loader_join(f, prefix, "var");
	if (var) {
		if (!cua_loader_is_identifier(var))
			return cua_loader_fail(L->ld, f, "'%s' is not a C identifier of at most "
			                       "%d characters", cua_loader_shown(var, s, sizeof(s)),
			                       CUA_NAME_LEN - 1);
		if (cua_loader_find_param(L->ld->t, var, strlen(var)))
			return cua_loader_fail(L->ld, f, "'%s' is also a param", var);
		for (int i = 0; i < L->depth; i++)
			if (strcmp(L->var[i].name, var) == 0)
				return cua_loader_fail(L->ld, f,
				                       "'%s' is already the variable of an "
				                       "enclosing repeat", var);
	}
	cua_loader_join(f, prefix, "layers");
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
		return cua_loader_fail(L->ld, prefix, "must be an object");
	for (const cJSON *m = obj->child; m; m = m->next) {
		int g = cua_loader_lookup(m->string, gen_names, N_GEN);
		if (g >= 0 && n_gen++ == 0)
			gen = g;
	}
	if (n_gen != 1)
		return cua_loader_fail(L->ld, prefix,
		                       "must hold exactly one generator key (linear, conv1d, "
		                       "conv2d, conv3d, conv_transpose1d, conv_transpose2d, "
		                       "conv_transpose3d, bn, layernorm, lstm, gru, rnn, tensor, "
		                       "repeat); it has %d", n_gen);
	if ((rc = cua_loader_check_keys(L->ld, obj, prefix, keys[gen])) != CUA_OK)
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
	char f[CUA_FIELD_LEN];
	enum cua_status rc;
	if (!cJSON_IsArray(arr))
		return cua_loader_fail(L->ld, prefix, "must be an array of layers");
	int i = 0;
	for (const cJSON *j = arr->child; j; j = j->next, i++)
		if ((rc = layer_entry(L, j, cua_loader_indexed(f, prefix, i))) != CUA_OK)
			return rc;
	return CUA_OK;
}

enum cua_status cua_layers_load(struct cua_loader *ld, const cJSON *j, const char *prefix,
                                struct cua_tensor_spec *spec)
{
	char f[CUA_FIELD_LEN];
	const cJSON *arr;
	struct layers L = {.ld = ld, .spec = spec,
	                   .input = (uint32_t)(spec - ld->t->inputs)};
	enum cua_status rc = cua_loader_member(ld, j, prefix, "layers", true, &arr);
	if (rc != CUA_OK)
		return rc;
	cua_loader_join(f, prefix, "layers");
	if (spec->dtype != CUA_F32)
		return cua_loader_fail(ld, cua_loader_join(f, prefix, "dtype"),
		                       "a layered input is f32");
	cua_loader_join(f, prefix, "layers");
	if ((rc = layer_list(&L, arr, f)) != CUA_OK)
		return rc;
	if (spec->n_segments == 0)
		return cua_loader_fail(ld, f, "declares no segment");
	spec->init = (struct cua_init){.dist = CUA_DIST_CONST};
	spec->shape[0] = cua_loader_strf("%lld", (long long)L.end);
	spec->ndim = 1;
	return CUA_OK;
}
