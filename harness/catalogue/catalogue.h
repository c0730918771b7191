/* catalogue.h — the catalogue: every task folder under root/tasks/L<n>/, scanned
 * (there is no list), hashed, and found by name. One task is catalogue/task.h. */
#ifndef CUA_CATALOGUE_H
#define CUA_CATALOGUE_H

#include "catalogue/task.h"

struct cua_catalogue {
	int n;
	struct cua_task **tasks;     /* sorted by id */
	char hash[65];               /* SHA-256 over every file under root/tasks */
	int n_bad;                   /* folders that failed to load */
	char *errors;                /* one line per bad task, NULL if none */
};

/* Loads every task. Bad tasks do not stop the scan: each is reported in
 * cat->errors and the call returns CUA_E_PARSE with the good ones loaded. */
enum cua_status cua_catalogue_load(const char *root, struct cua_catalogue *cat,
                                   char *err, size_t errlen);
void cua_catalogue_clear(struct cua_catalogue *cat);

/* Finds a task by exact id ("L1/020-relu"), folder name ("020-relu"), slug
 * ("relu") or number ("20": the lowest level's task 20; "L2/20": Level 2's). NULL if none or
 * ambiguous (err says which). */
const struct cua_task *cua_catalogue_find(const struct cua_catalogue *cat,
                                          const char *name, char *err,
                                          size_t errlen);

#endif /* CUA_CATALOGUE_H */
