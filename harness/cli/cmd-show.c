/* cmd-show.c — `cuarena show TASK [--json]`: exactly the prompt an agent gets. */
#include "cli/cli.h"
#include "catalogue/prompts.h"

#include <cjson/cJSON.h>

int cmd_show(struct cua_cli *cli, int argc, char **argv)
{
	struct cua_catalogue cat;
	const struct cua_task *t;

	if (argc != 2)
		return cua_cli_usage("show");
	int rc = cua_cli_task(cli, argv[1], &cat, &t);
	if (rc != CUA_EXIT_OK) {
		cua_catalogue_clear(&cat);
		return rc;
	}
	char *prompt = cua_prompts_render(t, cli->root);
	if (cli->json) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "id", t->id);
		cJSON_AddStringToObject(o, "title", t->title);
		cJSON_AddStringToObject(o, "prompt", prompt);
		cua_cli_print_json(o);
	} else
		cua_fput_term(stdout, prompt);   /* a task's text, escaped like any from outside */
	free(prompt);
	cua_catalogue_clear(&cat);
	return CUA_EXIT_OK;
}
