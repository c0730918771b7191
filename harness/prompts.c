/* prompts.c — hashing the prompt templates and filling their placeholders (prompts.h). */
#include "prompts.h"

#include <dirent.h>
#include <string.h>
#include <sys/stat.h>

/* Max size of one template file. */
#define PROMPT_MAX (4u << 20)

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_md(const char *name)
{
	size_t n = strlen(name);
	return n > 3 && name[0] != '.' && !strcmp(name + n - 3, ".md");
}

enum cua_status cua_prompts_hash(const char *root, char out[65], char *err,
                                 size_t errlen)
{
	enum cua_status result = CUA_E_NOMEM;
	char dir[4096], path[8192];
	char **names = NULL, *buf = NULL;
	size_t n = 0, cap = 0;
	struct cua_sha256 *h = NULL;
	struct dirent *de;
	DIR *d;

	out[0] = '\0';
	snprintf(dir, sizeof(dir), "%s/docs/prompts", root ? root : ".");
	d = opendir(dir);
	if (!d) {
		cua_errf(err, errlen, "%s: cannot open the prompt folder", dir);
		return CUA_E_NOT_FOUND;
	}
	while ((de = readdir(d))) {
		struct stat st;
		if (!is_md(de->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 8;
			char **nn = realloc(names, ncap * sizeof(*nn));
			if (!nn)
				goto nomem;
			names = nn;
			cap = ncap;
		}
		if (!(names[n] = strdup(de->d_name)))
			goto nomem;
		n++;
	}
	if (n == 0) {
		result = CUA_E_NOT_FOUND;
		cua_errf(err, errlen, "%s: no .md prompt template", dir);
		goto out;
	}
	qsort(names, n, sizeof(*names), name_cmp);
	if (!(h = cua_sha256_new()))
		goto nomem;
	for (size_t i = 0; i < n; i++) {
		char size[32];
		size_t len;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		result = cua_read_file(path, PROMPT_MAX, &buf, &len, err, errlen);
		if (result != CUA_OK) {
			if (result != CUA_E_NOMEM)
				result = CUA_E_IO;
			goto out;
		}
		snprintf(size, sizeof(size), "%zu", len);
		cua_sha256_update(h, names[i], strlen(names[i]) + 1);
		cua_sha256_update(h, size, strlen(size) + 1);
		cua_sha256_update(h, buf, len);
		free(buf);
		buf = NULL;
	}
	cua_sha256_final(h, out);
	h = NULL;
	result = CUA_OK;
	goto out;
nomem:
	result = CUA_E_NOMEM;
	cua_errf(err, errlen, "%s: out of memory", dir);
out:
	if (h) {
		char scratch[65];
		cua_sha256_final(h, scratch);     /* frees h */
	}
	if (result != CUA_OK)
		out[0] = '\0';
	free(buf);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(d);
	return result;
}

/* The index of the key that `p` (just after "{{") names, up to "}}", or -1. */
static long find_key(const char *p, const char *const *keys, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t kl = strlen(keys[i]);
		if (!strncmp(p, keys[i], kl) && p[kl] == '}' && p[kl + 1] == '}')
			return (long)i;
	}
	return -1;
}

char *cua_prompt_fill(const char *tmpl, const char *const *keys,
                      const char *const *vals, size_t n)
{
	size_t len = 0;
	char *out = NULL, *o = NULL;

	/* Two passes over the same rules: measure, then write. */
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			if (!(out = malloc(len + 1)))
				return NULL;
			o = out;
		}
		for (const char *p = tmpl; *p;) {
			long k = p[0] == '{' && p[1] == '{' ? find_key(p + 2, keys, n) : -1;
			const char *piece = p;
			size_t pl = 1;

			if (k >= 0) {
				piece = vals[k] ? vals[k] : "";
				pl = strlen(piece);
				p += 2 + strlen(keys[k]) + 2;
			} else {
				p++;
			}
			if (pass == 0) {
				len += pl;
			} else {
				memcpy(o, piece, pl);
				o += pl;
			}
		}
	}
	*o = '\0';
	return out;
}
