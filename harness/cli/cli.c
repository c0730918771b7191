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

void cua_cli_print_json(cJSON *o)
{
	char *s = cJSON_Print(o);
	if (s)
		printf("%s\n", s);
	free(s);
	cJSON_Delete(o);
}
