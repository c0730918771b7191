/* loader.h — what the task.json loader's files share (task.c, layers.c, and
 * catalogue.c for the text helpers): the state of loading one task.json, its
 * field readers, whose errors read "FILE: FIELD: what is wrong", and helpers
 * for untrusted text. Internal to harness/catalogue/: nothing outside includes it. */
#ifndef CUA_LOADER_H
#define CUA_LOADER_H

#include "catalogue/task.h"

#include <cjson/cJSON.h>

#define CUA_TASK_FILE "task.json"
#define CUA_FIELD_LEN 160        /* a JSON path such as shapes[2].dims.N */
#define CUA_SHOWN_LEN 64         /* longest untrusted string quoted back */

/* One task.json being loaded; every failure is reported through it. */
struct cua_loader {
	const char *file;   /* "DIR/task.json": the prefix of every message */
	char *err;
	size_t errlen;
	struct cua_task *t;
};

/* ---- text ---------------------------------------------------------------- */

/* Heap sprintf (never NULL: out of memory is fatal). */
char *cua_loader_strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Copies untrusted text into buf for an error message: at most CUA_SHOWN_LEN
 * characters, anything unprintable as '?', so one error stays one line. */
const char *cua_loader_shown(const char *s, char *buf, size_t len);

bool cua_loader_is_name_start(char c);  /* [A-Za-z_] */
bool cua_loader_is_name_char(char c);   /* [A-Za-z0-9_] */

/* A C identifier that fits a name[CUA_NAME_LEN] field. */
bool cua_loader_is_identifier(const char *s);

/* The index of s in names[0..n) (NULL entries skipped), or -1. */
int cua_loader_lookup(const char *s, const char *const *names, size_t n);

/* A finite whole number that a double holds exactly (|v| <= 2^53). */
bool cua_loader_is_integral(double v);

bool cua_loader_is_dir(const char *path);   /* follows links */

/* ---- errors and field paths ---------------------------------------------- */

/* "FILE: FIELD: what is wrong"; returns CUA_E_PARSE. */
enum cua_status cua_loader_fail(struct cua_loader *ld, const char *field, const char *fmt,
                                ...) __attribute__((format(printf, 3, 4)));


/* Formats a field path; a path too long for CUA_FIELD_LEN is cut, not an error. */
const char *cua_loader_pathf(char field[CUA_FIELD_LEN], const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* field = prefix.key (or key at the top level), the key made printable. */
const char *cua_loader_join(char field[CUA_FIELD_LEN], const char *prefix, const char *key);

/* field = prefix[i]. */
const char *cua_loader_indexed(char field[CUA_FIELD_LEN], const char *prefix, int i);

/* ---- field readers: obj is at prefix (NULL or "" at the top level) ------- */

/* Rejects members given twice and, when allowed (NULL-terminated) is not
 * NULL, members it does not list: typos must not pass silently. */
enum cua_status cua_loader_check_keys(struct cua_loader *ld, const cJSON *obj,
                                      const char *prefix, const char *const *allowed);

/* The member key of obj; *out is NULL when it is absent and optional. */
enum cua_status cua_loader_member(struct cua_loader *ld, const cJSON *obj, const char *prefix,
                                  const char *key, bool required, const cJSON **out);

/* A string member, borrowed from obj; *out is NULL when absent and optional. */
enum cua_status cua_loader_get_string(struct cua_loader *ld, const cJSON *obj,
                                      const char *prefix, const char *key, bool required,
                                      const char **out);

/* A required member that is a finite number. */
enum cua_status cua_loader_get_number(struct cua_loader *ld, const cJSON *obj,
                                      const char *prefix, const char *key, double *out);

/* A required member that is an integer (cua_loader_is_integral). */
enum cua_status cua_loader_get_integer(struct cua_loader *ld, const cJSON *obj,
                                       const char *prefix, const char *key, double *out);

/* A heap copy of a top-level string member, non-empty when required; *out is
 * left alone when the member is absent and optional. */
enum cua_status cua_loader_dup_string(struct cua_loader *ld, const cJSON *obj,
                                      const char *key, bool required, char **out);

/* A top-level array member with at most max elements (min when present). */
enum cua_status cua_loader_get_array(struct cua_loader *ld, const cJSON *obj,
                                     const char *key, bool required, int min, int max,
                                     const cJSON **out);

/* The init object obj.key (e.g. inputs[0].init, or a layer's bias_init), required. */
enum cua_status cua_loader_init_key(struct cua_loader *ld, const cJSON *obj,
                                    const char *prefix, const char *key,
                                    struct cua_init *init);

/* The param of t named by name[0..len), or NULL. */
const struct cua_param *cua_loader_find_param(const struct cua_task *t, const char *name,
                                              size_t len);

#endif /* CUA_LOADER_H */
