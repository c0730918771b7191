/* catalogue.h — the catalogue: every task folder under root/tasks/L<n>/ and the
 * extra set root/tasks/X/, scanned (there is no list), hashed, and found by
 * name. One task is catalogue/task.h. */
#ifndef CUA_CATALOGUE_H
#define CUA_CATALOGUE_H

#include "catalogue/task.h"

struct cua_catalogue {
	int n;
	struct cua_task **tasks;     /* sorted by id */
	char hash[65];               /* SHA-256 over every file under root/tasks */
	int version;                 /* tasks/VERSION (1 without it): see below */
	int n_bad;                   /* folders that failed to load */
	char *errors;                /* one line per bad task, NULL if none */
};

/* Loads every task. Bad tasks do not stop the scan: each is reported in
 * cat->errors and the call returns CUA_E_PARSE with the good ones loaded. */
enum cua_status cua_catalogue_load(const char *root, struct cua_catalogue *cat,
                                   char *err, size_t errlen);
void cua_catalogue_clear(struct cua_catalogue *cat);

/* Finds a task by exact id ("L1/019-relu"), folder name ("019-relu"), slug
 * ("relu") or number ("19": the lowest level's task 19; "L2/19": Level 2's;
 * "X/2": the extra set's, which a bare number never names). NULL if none or
 * ambiguous (err says which). */
const struct cua_task *cua_catalogue_find(const struct cua_catalogue *cat,
                                          const char *name, char *err,
                                          size_t errlen);

/* What a catalogue's version (tasks/VERSION; run.json "catalogue_version",
 * docs/RESULTS-FORMAT.md) says: 2 = Level 1 is KernelBench v0.1's Level 1, task
 * NNN its problem NNN, and the extra set tasks/X/ (since 2026-12-02); 1 = the
 * Level 1 before it (L1/001-sgemm … L1/100-sdpa): a catalogue without the file,
 * and what runs without the field were made with. */

/* SHA-256 of one task's folder (every regular file in it, as the catalogue
 * hash takes them: relative path, NUL, contents, in path order): what a
 * selftest entry records, so a changed task reads as not yet validated. */
enum cua_status cua_catalogue_task_hash(const struct cua_task *t, char out[65], char *err,
                                        size_t errlen);

#endif /* CUA_CATALOGUE_H */
