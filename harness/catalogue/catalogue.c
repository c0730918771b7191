/* catalogue.c — the catalogue of tasks under root/tasks/L<level>/ and the
 * extra set root/tasks/X/: the scan, the hash of the tree (and of one task's
 * folder) and finding a task by name. */
#include "catalogue/catalogue.h"
#include "catalogue/loader.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_TREE_DEPTH 32                 /* folders below root/tasks that are hashed */

struct strvec {
	char **v;
	int n, cap;
};

/* Appends s (taken over). */
static void strvec_push(struct strvec *sv, char *s)
{
	if (sv->n == sv->cap) {
		sv->cap = sv->cap ? 2 * sv->cap : 16;
		sv->v = cua_xrealloc(sv->v, (size_t)sv->cap * sizeof(*sv->v));
	}
	sv->v[sv->n++] = s;
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
	DIR *d = opendir(path);
	if (!d) {
		cua_errf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return errno == ENOENT ? CUA_E_NOT_FOUND : CUA_E_IO;
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		strvec_push(out, cua_xstrdup(e->d_name));
	}
	closedir(d);
	qsort(out->v, (size_t)out->n, sizeof(*out->v), cmp_str);
	return CUA_OK;
}

/* Relative paths (from base) of every regular file under base/rel. Symbolic
 * links are not followed and not hashed. */
static enum cua_status collect_files(const char *base, const char *rel, int depth,
                                     struct strvec *files, char *err, size_t errlen)
{
	enum cua_status rc;
	struct strvec names = {0};
	char *dir = rel ? cua_loader_strf("%s/%s", base, rel) : cua_xstrdup(base);
	if (depth > MAX_TREE_DEPTH) {
		cua_errf(err, errlen, "%s: folders nest deeper than %d", dir, MAX_TREE_DEPTH);
		rc = CUA_E_INVALID;
		goto out;
	}
	if ((rc = list_dir(dir, &names, err, errlen)) != CUA_OK)
		goto out;
	for (int i = 0; i < names.n; i++) {
		struct stat st;
		char *path = cua_loader_strf("%s/%s", dir, names.v[i]);
		char *sub = rel ? cua_loader_strf("%s/%s", rel, names.v[i]) : cua_xstrdup(names.v[i]);
		int r = lstat(path, &st);
		int saved = errno;
		free(path);
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
			strvec_push(files, sub);
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
/* tasks/VERSION: the catalogue's version, a whole number on one line (run.json
 * "catalogue_version"); a catalogue without the file is version 1, the one made
 * before the file existed. A --root of an earlier catalogue is then labelled by
 * its own version, not this harness's. */
static enum cua_status read_version(const char *tasks_dir, int *version, char *err,
                                    size_t errlen)
{
	char *path = cua_loader_strf("%s/VERSION", tasks_dir), *txt = NULL, *end;
	size_t len = 0;
	enum cua_status rc = CUA_OK;

	*version = 1;
	if (access(path, F_OK) != 0)
		goto out;
	if ((rc = cua_read_file(path, 64, &txt, &len, err, errlen)) != CUA_OK)
		goto out;
	long v = strtol(txt, &end, 10);
	while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')
		end++;
	if (end == txt || *end || v < 1 || v > 1000) {
		cua_errf(err, errlen, "%s: want the catalogue's version, a whole number from 1 "
		         "(one line), got \"%.*s\"", path, (int)strcspn(txt, "\r\n") < 40 ?
		         (int)strcspn(txt, "\r\n") : 40, txt);
		rc = CUA_E_INVALID;   /* the whole catalogue, not one task: not a partial load */
		goto out;
	}
	*version = (int)v;
out:
	free(txt);
	free(path);
	return rc;
}

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
	h = cua_sha256_new();
	for (int i = 0; i < files.n; i++) {
		char chunk[1 << 14];
		size_t n;
		free(path);
		path = cua_loader_strf("%s/%s", dir, files.v[i]);
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

/* "L" followed by digits only, or the extra set's folder. */
static bool is_level_dir(const char *name)
{
	if (!strcmp(name, CUA_EXTRA_SET))
		return true;
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
static void append_line(char **buf, const char *line)
{
	size_t old = *buf ? strlen(*buf) : 0, n = strlen(line);
	char *p = cua_xrealloc(*buf, old + n + 2);
	memcpy(p + old, line, n);
	p[old + n] = '\n';
	p[old + n + 1] = '\0';
	*buf = p;
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
		dir = cua_loader_strf("%s/%s", level_dir, names.v[i]);
		file = cua_loader_strf("%s/" CUA_TASK_FILE, dir);
		if (!cua_loader_is_dir(dir) || access(file, F_OK) != 0)
			continue;
		struct cua_task *t;
		if (cua_task_load(dir, &t, msg, sizeof(msg)) != CUA_OK) {
			cat->n_bad++;
			if (!*first_err)
				*first_err = cua_xstrdup(msg);
			append_line(&cat->errors, msg);
			continue;
		}
		if (cat->n == *cap) {
			*cap = *cap ? 2 * *cap : 16;
			cat->tasks = cua_xrealloc(cat->tasks, (size_t)*cap * sizeof(*cat->tasks));
		}
		cat->tasks[cat->n++] = t;
	}
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
	tasks_dir = cua_loader_strf("%s/tasks", root);
	if ((rc = list_dir(tasks_dir, &levels, err, errlen)) != CUA_OK)
		goto out;
	if ((rc = read_version(tasks_dir, &cat->version, err, errlen)) != CUA_OK)
		goto out;
	for (int i = 0; i < levels.n; i++) {
		if (!is_level_dir(levels.v[i]))
			continue;
		free(level_dir);
		level_dir = cua_loader_strf("%s/%s", tasks_dir, levels.v[i]);
		if (!cua_loader_is_dir(level_dir))
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

enum cua_status cua_catalogue_task_hash(const struct cua_task *t, char out[65], char *err,
                                        size_t errlen)
{
	out[0] = '\0';
	return hash_tree(t->dir, out, err, errlen);
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
		/* "L2/21" or "L2/021": that level's task; "X/3": the extra set's; a
		 * bare number: any level's (cua_catalogue_find prefers the lowest),
		 * never the extra set's */
		int level = -1;
		const char *p = name;
		if ((p[0] == 'L' || p[0] == 'l') && isdigit((unsigned char)p[1]) && p[2] == '/') {
			level = p[1] - '0';
			p += 3;
		} else if ((p[0] == 'X' || p[0] == 'x') && p[1] == '/') {
			level = 0;
			p += 2;
		}
		const char *digits = p;
		for (; *p; p++) {
			if (!isdigit((unsigned char)*p) || p - digits >= 8)
				return false;
			want = want * 10 + (*p - '0');
		}
		return *digits && number >= 0 && number == want &&
		       (level < 0 ? t->level > 0 : t->level == level);
	}
	default:
		return false;
	}
}

const struct cua_task *cua_catalogue_find(const struct cua_catalogue *cat,
                                          const char *name, char *err,
                                          size_t errlen)
{
	char s[CUA_SHOWN_LEN + 1];
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
			cua_errf(err, errlen, "task '%s' is ambiguous: %s",
			         cua_loader_shown(name, s, sizeof(s)), list);
			return NULL;
		}
	}
	cua_errf(err, errlen, "no task '%s'", cua_loader_shown(name, s, sizeof(s)));
	return NULL;
}
