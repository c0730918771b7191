/* cmd-list.c — `cuarena list [--level N] [--json]`: the catalogue, one task a line. */
#include "cli/cli.h"
#include "results/results.h"

#include <math.h>
#include <string.h>
#include <cjson/cJSON.h>

int cmd_list(struct cua_cli *cli, int argc, char **argv)
{
	struct cua_catalogue cat;
	char err[CUA_ERR_LEN];
	int level = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--level") && i + 1 < argc) {
			char *end;
			long v = strtol(argv[++i], &end, 10);
			if (*end || v < 1 || v > 9) {
				fprintf(stderr, "cuarena list: --level takes 1..9, not '%s'\n", argv[i]);
				return CUA_EXIT_USAGE;
			}
			level = (int)v;
		} else
			return cua_cli_usage("list");
	}
	enum cua_status st = cua_catalogue_load(cli->root, &cat, err, sizeof(err));
	if (st != CUA_OK && st != CUA_E_PARSE) {
		fprintf(stderr, "cuarena list: %s\n", err);
		return CUA_EXIT_ENV;
	}
	if (cli->json) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "catalogue_hash", cat.hash);
		cJSON_AddNumberToObject(o, "catalogue_version", cat.version);
		cJSON *a = cJSON_AddArrayToObject(o, "tasks");
		for (int i = 0; i < cat.n; i++) {
			const struct cua_task *t = cat.tasks[i];
			if (level && t->level != level)
				continue;
			cJSON *j = cJSON_CreateObject();
			cJSON_AddStringToObject(j, "id", t->id);
			cJSON_AddNumberToObject(j, "level", t->level);
			cJSON_AddStringToObject(j, "title", t->title);
			cJSON_AddStringToObject(j, "precision", cua_precision_name(t->precision));
			char th[65];
			if (cua_catalogue_task_hash(t, th, err, sizeof(err)) == CUA_OK)
				cJSON_AddStringToObject(j, "task_hash", th);
			if (t->source_file) {
				cJSON *src = cJSON_AddObjectToObject(j, "source");
				cJSON_AddStringToObject(src, "kernelbench", t->source_version);
				cJSON_AddStringToObject(src, "file", t->source_file);
			}
			/* at the timed shape, as a run's baselines.jsonl records them */
			double flops, bytes;
			cua_results_task_work(t, &flops, &bytes);
			if (isnan(flops))
				cJSON_AddNullToObject(j, "flops");
			else
				cJSON_AddNumberToObject(j, "flops", flops);
			if (isnan(bytes))
				cJSON_AddNullToObject(j, "bytes");
			else
				cJSON_AddNumberToObject(j, "bytes", bytes);
			cJSON *b = cJSON_AddArrayToObject(j, "baselines");
			cJSON_AddItemToArray(b, cJSON_CreateString("nvcc"));
			for (int k = 0; k < t->n_baselines; k++)
				cJSON_AddItemToArray(b, cJSON_CreateString(t->baselines[k]));
			cJSON_AddItemToArray(a, j);
		}
		cJSON *e = cJSON_AddArrayToObject(o, "errors");
		if (cat.errors) {
			char *dup = strdup(cat.errors), *save = NULL;
			for (char *line = strtok_r(dup, "\n", &save); line;
			     line = strtok_r(NULL, "\n", &save))
				cJSON_AddItemToArray(e, cJSON_CreateString(line));
			free(dup);
		}
		cua_cli_print_json(o);
	} else {
		for (int i = 0; i < cat.n; i++) {
			const struct cua_task *t = cat.tasks[i];
			if (level && t->level != level)
				continue;
			printf("%-26s %-13s %s\n", t->id, cua_precision_name(t->precision),
			       t->title);
		}
		if (cat.errors)
			fprintf(stderr, "%d task(s) failed to load:\n%s", cat.n_bad, cat.errors);
	}
	int rc = cat.n_bad ? CUA_EXIT_FAILED : CUA_EXIT_OK;
	cua_catalogue_clear(&cat);
	return rc;
}
