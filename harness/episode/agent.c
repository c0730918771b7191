/* agent.c — the registry of agent backends (a linker section) and actions. */
#include "episode/agent.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cjson/cJSON.h>

#define EXCERPT_LEN 120   /* of a bad line shown in an error */

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

enum cua_status cua_config_check_fields(const cJSON *config, const char *who,
                                        const char *const *known, size_t n_known,
                                        char *err, size_t errlen)
{
	const cJSON *f;
	cJSON_ArrayForEach(f, config) {
		bool ok = false;
		for (size_t i = 0; i < n_known; i++)
			ok |= !strcmp(f->string, known[i]);
		for (const cJSON *g = config->child; g != f; g = g->next)
			if (!strcmp(g->string, f->string)) {
				cua_errf(err, errlen, "%s: %s: given twice", who, f->string);
				return CUA_E_INVALID;
			}
		if (!ok) {
			char list[512];
			size_t o = 0;
			list[0] = '\0';
			for (size_t i = 0; i < n_known && o < sizeof(list); i++)
				o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%s", i ? ", " : "",
				                      known[i]);
			cua_errf(err, errlen, "%s: %s: unknown field (known: %s)", who, f->string,
			         list);
			return CUA_E_INVALID;
		}
	}
	return CUA_OK;
}

enum cua_status cua_agent_check_names(const struct cua_agent_i *const *list, size_t n,
                                      char *err, size_t errlen)
{
	for (size_t i = 0; i < n; i++) {
		const char *a = list[i] ? list[i]->name : NULL;
		if (!a || !*a || strspn(a, "abcdefghijklmnopqrstuvwxyz0123456789-_") != strlen(a)) {
			cua_errf(err, errlen, "agent backend %zu has no usable name ('%s': lower-case "
			         "letters, digits, '-' and '_')", i, a ? a : "(null)");
			return CUA_E_INVALID;
		}
		for (size_t k = 0; k < i; k++)
			if (!strcmp(list[k]->name, a)) {
				cua_errf(err, errlen, "two agent backends are named '%s': names pick "
				         "backends, so each must be unique (agents/*.c)", a);
				return CUA_E_INVALID;
			}
	}
	return CUA_OK;
}

enum cua_status cua_agent_registry_check(char *err, size_t errlen)
{
	if (!__start_cua_agents)
		return CUA_OK;
	return cua_agent_check_names(__start_cua_agents,
	                             (size_t)(__stop_cua_agents - __start_cua_agents), err, errlen);
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

/* Printable excerpt of a line for error messages. */
static void excerpt(const char *p, size_t n, char *buf, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < n && o + 5 < len && i < EXCERPT_LEN; i++) {
		unsigned char c = (unsigned char)p[i];
		if (c < 0x20 || c == 0x7f)
			o += (size_t)snprintf(buf + o, len - o, "\\x%02x", c);
		else
			buf[o++] = (char)c;
	}
	if (n > EXCERPT_LEN && o + 4 < len) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = '\0';
}

enum cua_status cua_action_parse(const char *line, size_t n, long lineno,
                                 struct cua_action *act, char *err, size_t errlen)
{
	enum cua_status result = CUA_E_PARSE;
	cJSON *j = cJSON_ParseWithLength(line, n);
	const cJSON *type, *code, *reply, *tokens, *note;
	char ex[EXCERPT_LEN * 4 + 8];
	const char *why = NULL;

	excerpt(line, n, ex, sizeof ex);
	if (!cJSON_IsObject(j)) {
		cua_errf(err, errlen, "line %ld of the agent's output is not a JSON action: %s",
		         lineno, ex);
		goto out;
	}
	type = cJSON_GetObjectItemCaseSensitive(j, "type");
	code = cJSON_GetObjectItemCaseSensitive(j, "code");
	reply = cJSON_GetObjectItemCaseSensitive(j, "reply");
	tokens = cJSON_GetObjectItemCaseSensitive(j, "tokens");
	note = cJSON_GetObjectItemCaseSensitive(j, "note");
	if (!cJSON_IsString(type))
		why = "it has no \"type\" string";
	else if (strcmp(type->valuestring, "action") && strcmp(type->valuestring, "stop"))
		why = "\"type\" is neither \"action\" nor \"stop\"";
	else if (code && !cJSON_IsString(code) && !cJSON_IsNull(code))
		why = "\"code\" is not a string";
	else if (reply && !cJSON_IsString(reply) && !cJSON_IsNull(reply))
		why = "\"reply\" is not a string";
	else if (note && !cJSON_IsString(note) && !cJSON_IsNull(note))
		why = "\"note\" is not a string";
	else if (tokens && !cJSON_IsObject(tokens) && !cJSON_IsNull(tokens))
		why = "\"tokens\" is not an object";
	for (int i = 0; !why && i < 2 && cJSON_IsObject(tokens); i++) {
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(tokens, i ? "completion" : "prompt");
		if (t && (!cJSON_IsNumber(t) || t->valuedouble < 0 || t->valuedouble > INT_MAX ||
		          t->valuedouble != floor(t->valuedouble)))
			why = "\"tokens\" counts must be non-negative integers";
		else if (t)
			*(i ? &act->completion_tokens : &act->prompt_tokens) = t->valueint;
	}
	if (why) {
		cua_errf(err, errlen, "line %ld of the agent's output is not a JSON action: %s: %s",
		         lineno, why, ex);
		goto out;
	}
	if (!strcmp(type->valuestring, "stop")) {
		act->stop = true;
	} else if (cJSON_IsString(code)) {
		act->code = cua_xstrdup(code->valuestring);
	} else {
		cua_errf(act->note, sizeof act->note, "%s",
		         cJSON_IsString(note) && *note->valuestring ? note->valuestring
		                                                    : "the agent's action had no code");
	}
	if (cJSON_IsString(reply))
		act->reply = cua_xstrdup(reply->valuestring);
	result = CUA_OK;
out:
	cJSON_Delete(j);
	return result;
}

