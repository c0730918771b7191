/* loader.c — the field readers and text helpers of the task.json loader
 * (contracts in loader.h): every error names the file and the JSON field. */
#include "catalogue/loader.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>

#define EXACT_INT_MAX 9007199254740992.0  /* 2^53: doubles beyond skip integers */

static const char *const dist_names[] = {
	[CUA_DIST_UNIFORM] = "uniform", [CUA_DIST_NORMAL] = "normal",
	[CUA_DIST_INT] = "int", [CUA_DIST_BERNOULLI] = "bernoulli", [CUA_DIST_CONST] = "const",
};

/* ---- text ---------------------------------------------------------------- */

char *cua_loader_strf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	va_start(ap, fmt);
	int n = vasprintf(&s, fmt, ap);
	va_end(ap);
	return cua_xcheck(n < 0 ? NULL : s);
}

const char *cua_loader_shown(const char *s, char *buf, size_t len)
{
	size_t i = 0, max = len - 1 < CUA_SHOWN_LEN ? len - 1 : CUA_SHOWN_LEN;
	for (; s[i] && i < max; i++)
		buf[i] = isprint((unsigned char)s[i]) ? s[i] : '?';
	buf[i] = '\0';
	if (s[i] && i >= 3)
		memcpy(buf + i - 3, "...", 3);
	return buf;
}

bool cua_loader_is_name_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

bool cua_loader_is_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

bool cua_loader_is_identifier(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n >= CUA_NAME_LEN || !cua_loader_is_name_start(s[0]))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!cua_loader_is_name_char(s[i]))
			return false;
	return true;
}

int cua_loader_lookup(const char *s, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (names[i] && strcmp(s, names[i]) == 0)
			return (int)i;
	return -1;
}

bool cua_loader_is_integral(double v)
{
	return isfinite(v) && v == floor(v) && fabs(v) <= EXACT_INT_MAX;
}

bool cua_loader_is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* ---- errors and field paths ---------------------------------------------- */

enum cua_status cua_loader_fail(struct cua_loader *ld, const char *field, const char *fmt,
                                ...) __attribute__((format(printf, 3, 4)));
enum cua_status cua_loader_fail(struct cua_loader *ld, const char *field, const char *fmt, ...)
{
	char msg[CUA_ERR_LEN];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cua_errf(ld->err, ld->errlen, "%s: %s: %s", ld->file, field, msg);
	return CUA_E_PARSE;
}


const char *cua_loader_pathf(char field[CUA_FIELD_LEN], const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(field, CUA_FIELD_LEN, fmt, ap);
	va_end(ap);
	return field;
}

const char *cua_loader_join(char field[CUA_FIELD_LEN], const char *prefix, const char *key)
{
	char k[CUA_SHOWN_LEN + 1];
	cua_loader_shown(key, k, sizeof(k));
	if (prefix && *prefix)
		return cua_loader_pathf(field, "%s.%s", prefix, k);
	return cua_loader_pathf(field, "%s", k);
}

const char *cua_loader_indexed(char field[CUA_FIELD_LEN], const char *prefix, int i)
{
	return cua_loader_pathf(field, "%s[%d]", prefix, i);
}

/* ---- field readers ------------------------------------------------------- */

enum cua_status cua_loader_check_keys(struct cua_loader *ld, const cJSON *obj, const char *prefix,
                                      const char *const *allowed)
{
	char f[CUA_FIELD_LEN];
	for (const cJSON *m = obj->child; m; m = m->next) {
		bool known = !allowed;
		for (const char *const *a = allowed; a && *a && !known; a++)
			known = strcmp(*a, m->string) == 0;
		if (!known)
			return cua_loader_fail(ld, cua_loader_join(f, prefix, m->string),
			                       "unknown field");
		for (const cJSON *p = obj->child; p != m; p = p->next)
			if (strcmp(p->string, m->string) == 0)
				return cua_loader_fail(ld, cua_loader_join(f, prefix, m->string),
				                       "duplicate field");
	}
	return CUA_OK;
}

enum cua_status cua_loader_member(struct cua_loader *ld, const cJSON *obj, const char *prefix,
                                  const char *key, bool required, const cJSON **out)
{
	char f[CUA_FIELD_LEN];
	*out = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!*out && required)
		return cua_loader_fail(ld, cua_loader_join(f, prefix, key),
		                       "required field is missing");
	return CUA_OK;
}

enum cua_status cua_loader_get_string(struct cua_loader *ld, const cJSON *obj, const char *prefix,
                                      const char *key, bool required, const char **out)
{
	char f[CUA_FIELD_LEN];
	const cJSON *j;
	enum cua_status rc = cua_loader_member(ld, obj, prefix, key, required, &j);
	*out = NULL;
	if (rc != CUA_OK || !j)
		return rc;
	if (!cJSON_IsString(j))
		return cua_loader_fail(ld, cua_loader_join(f, prefix, key), "must be a string");
	*out = j->valuestring;
	return CUA_OK;
}

enum cua_status cua_loader_get_number(struct cua_loader *ld, const cJSON *obj, const char *prefix,
                                      const char *key, double *out)
{
	char f[CUA_FIELD_LEN];
	const cJSON *j;
	enum cua_status rc = cua_loader_member(ld, obj, prefix, key, true, &j);
	if (rc != CUA_OK)
		return rc;
	if (!cJSON_IsNumber(j) || !isfinite(j->valuedouble))
		return cua_loader_fail(ld, cua_loader_join(f, prefix, key),
		                       "must be a finite number");
	*out = j->valuedouble;
	return CUA_OK;
}

enum cua_status cua_loader_get_integer(struct cua_loader *ld, const cJSON *obj, const char *prefix,
                                       const char *key, double *out)
{
	char f[CUA_FIELD_LEN];
	const cJSON *j;
	enum cua_status rc = cua_loader_member(ld, obj, prefix, key, true, &j);
	if (rc != CUA_OK)
		return rc;
	if (!cJSON_IsNumber(j) || !cua_loader_is_integral(j->valuedouble))
		return cua_loader_fail(ld, cua_loader_join(f, prefix, key), "must be an integer");
	*out = j->valuedouble;
	return CUA_OK;
}

enum cua_status cua_loader_dup_string(struct cua_loader *ld, const cJSON *obj, const char *key,
                                      bool required, char **out)
{
	const char *s;
	enum cua_status rc = cua_loader_get_string(ld, obj, NULL, key, required, &s);
	if (rc != CUA_OK || !s)
		return rc;
	if (required && !*s)
		return cua_loader_fail(ld, key, "must not be empty");
	*out = cua_xstrdup(s);
	return CUA_OK;
}

enum cua_status cua_loader_get_array(struct cua_loader *ld, const cJSON *obj, const char *key,
                                     bool required, int min, int max, const cJSON **out)
{
	enum cua_status rc = cua_loader_member(ld, obj, NULL, key, required, out);
	if (rc != CUA_OK || !*out)
		return rc;
	if (!cJSON_IsArray(*out))
		return cua_loader_fail(ld, key, "must be an array");
	int n = cJSON_GetArraySize(*out);
	if (n < min || n > max)
		return cua_loader_fail(ld, key, "must have %d to %d entries (has %d)", min, max, n);
	return CUA_OK;
}

enum cua_status cua_loader_init_key(struct cua_loader *ld, const cJSON *tensor, const char *tprefix,
                                    const char *key, struct cua_init *init)
{
	static const char *const keys[][4] = {
		[CUA_DIST_UNIFORM] = {"dist", "low", "high", NULL},
		[CUA_DIST_NORMAL] = {"dist", "mean", "std", NULL},
		[CUA_DIST_INT] = {"dist", "low", "high", NULL},
		[CUA_DIST_BERNOULLI] = {"dist", "p", NULL, NULL},
		[CUA_DIST_CONST] = {"dist", "value", NULL, NULL},
	};
	char prefix[CUA_FIELD_LEN], f[CUA_FIELD_LEN], s[CUA_SHOWN_LEN + 1];
	const cJSON *j;
	const char *dist;
	enum cua_status rc = cua_loader_member(ld, tensor, tprefix, key, true, &j);
	if (rc != CUA_OK)
		return rc;
	cua_loader_join(prefix, tprefix, key);
	if (!cJSON_IsObject(j))
		return cua_loader_fail(ld, prefix, "must be an object");
	if ((rc = cua_loader_get_string(ld, j, prefix, "dist", true, &dist)) != CUA_OK)
		return rc;
	int d = cua_loader_lookup(dist, dist_names, CUA_ARRAY_LEN(dist_names));
	if (d < 0)
		return cua_loader_fail(ld, cua_loader_join(f, prefix, "dist"),
		                       "unknown distribution '%s' (uniform, normal, int, "
		                       "bernoulli, const)",
		                       cua_loader_shown(dist, s, sizeof(s)));
	if ((rc = cua_loader_check_keys(ld, j, prefix, keys[d])) != CUA_OK)
		return rc;
	init->dist = (enum cua_dist)d;
	switch (init->dist) {
	case CUA_DIST_UNIFORM:
		if ((rc = cua_loader_get_number(ld, j, prefix, "low", &init->a)) != CUA_OK ||
		    (rc = cua_loader_get_number(ld, j, prefix, "high", &init->b)) != CUA_OK)
			return rc;
		if (!(init->b > init->a))
			return cua_loader_fail(ld, cua_loader_join(f, prefix, "high"),
			                       "must be > low (%g <= %g)", init->b, init->a);
		break;
	case CUA_DIST_NORMAL:
		if ((rc = cua_loader_get_number(ld, j, prefix, "mean", &init->a)) != CUA_OK ||
		    (rc = cua_loader_get_number(ld, j, prefix, "std", &init->b)) != CUA_OK)
			return rc;
		if (!(init->b > 0))
			return cua_loader_fail(ld, cua_loader_join(f, prefix, "std"),
			                       "must be > 0 (is %g)", init->b);
		break;
	case CUA_DIST_INT:
		if ((rc = cua_loader_get_integer(ld, j, prefix, "low", &init->a)) != CUA_OK ||
		    (rc = cua_loader_get_integer(ld, j, prefix, "high", &init->b)) != CUA_OK)
			return rc;
		if (init->b < init->a)
			return cua_loader_fail(ld, cua_loader_join(f, prefix, "high"),
			                       "must be >= low (%g < %g)", init->b, init->a);
		break;
	case CUA_DIST_BERNOULLI:
		if ((rc = cua_loader_get_number(ld, j, prefix, "p", &init->a)) != CUA_OK)
			return rc;
		if (!(init->a > 0 && init->a < 1))
			return cua_loader_fail(ld, cua_loader_join(f, prefix, "p"),
			                       "must be strictly between 0 and 1 (is %g)", init->a);
		init->b = 0;
		break;
	case CUA_DIST_CONST:
		if ((rc = cua_loader_get_number(ld, j, prefix, "value", &init->a)) != CUA_OK)
			return rc;
		init->b = 0;
		break;
	}
	return CUA_OK;
}

const struct cua_param *cua_loader_find_param(const struct cua_task *t, const char *name,
                                              size_t len)
{
	for (int i = 0; i < t->n_params; i++)
		if (strlen(t->params[i].name) == len && memcmp(t->params[i].name, name, len) == 0)
			return &t->params[i];
	return NULL;
}
