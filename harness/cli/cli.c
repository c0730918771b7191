/* cli.c — helpers shared by the cmd-*.c files. */
#include "cli/cli.h"

#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>

int cua_cli_task(struct cua_cli *cli, const char *name, struct cua_catalogue *cat,
                 const struct cua_task **t)
{
	char err[CUA_ERR_LEN];

	*t = NULL;
	enum cua_status st = cua_catalogue_load(cli->root, cat, err, sizeof(err));
	if (st != CUA_OK && st != CUA_E_PARSE) {
		fprintf(stderr, "cuarena: %s\n", err);
		return CUA_EXIT_ENV;
	}
	*t = cua_catalogue_find(cat, name, err, sizeof(err));
	if (!*t) {
		/* A task that failed to load is reported with its own error. */
		if (cat->errors && strstr(cat->errors, name))
			fprintf(stderr, "cuarena: %s", cat->errors);
		else
			fprintf(stderr, "cuarena: %s\n", err);
		return CUA_EXIT_USAGE;
	}
	return CUA_EXIT_OK;
}

void cua_cli_eval_opts(struct cua_cli *cli, struct cua_eval_opts *o,
                       struct cua_ceilings *ceil)
{
	cua_eval_opts_init(o, cli->root, cli->self, cli->cache);
	o->ceilings = ceil && ceil->known ? ceil : NULL;
}

int cua_cli_bstore(struct cua_cli *cli, const char *cmd, const char *dir, bool fresh,
                   struct cua_bstore **out)
{
	char path[CUA_PATH_BUF], err[CUA_ERR_LEN];
	*out = NULL;
	if (!dir)
		dir = getenv("CUARENA_BASELINE_STORE");
	if (dir && !strcmp(dir, "off"))
		return CUA_EXIT_OK;
	if (!dir || !dir[0]) {
		snprintf(path, sizeof(path), "%s/baselines", cli->cache);
		dir = path;
	}
	*out = cua_bstore_new(dir, fresh, err, sizeof(err));
	if (!*out) {
		fprintf(stderr, "cuarena %s: %s\n", cmd, err);
		return CUA_EXIT_USAGE;
	}
	return CUA_EXIT_OK;
}

void cua_cli_bstore_summary(const char *cmd, const struct cua_bstore *s)
{
	if (s && (s->measured || s->reused))
		fprintf(stderr, "cuarena %s: baselines: %d measured, %d reused, %d stored (store "
		        "%s%s)\n", cmd, s->measured, s->reused, s->stored, s->dir,
		        s->fresh ? ", --fresh-baselines" : "");
}

void cua_cli_print_json(cJSON *o)
{
	char *s = cJSON_Print(o);
	if (s)
		printf("%s\n", s);
	free(s);
	cJSON_Delete(o);
}
