/* agent.c — the registry of agent backends (a linker section) and actions. */
#include "agent.h"

#include <string.h>

/* Defined by the linker around the "cua_agents" section. */
extern const struct cua_agent_i *const __start_cua_agents[] __attribute__((weak));
extern const struct cua_agent_i *const __stop_cua_agents[] __attribute__((weak));

void cua_action_clear(struct cua_action *a)
{
	if (!a)
		return;
	free(a->code);
	free(a->reply);
	memset(a, 0, sizeof(*a));
}

const struct cua_agent_i *cua_agent_find(const char *name)
{
	if (!name || !__start_cua_agents)
		return NULL;
	for (const struct cua_agent_i *const *p = __start_cua_agents; p < __stop_cua_agents; p++)
		if (!strcmp((*p)->name, name))
			return *p;
	return NULL;
}

const char *const *cua_agent_names(void)
{
	static const char *names[64];
	int n = 0;
	if (__start_cua_agents)
		for (const struct cua_agent_i *const *p = __start_cua_agents;
		     p < __stop_cua_agents && n < 63; p++)
			names[n++] = (*p)->name;
	names[n] = NULL;
	return names;
}
