/* fuzz-action.c — libFuzzer target: the exec protocol's action line parser
 * (cua_action_parse in harness/episode/agent.c). Every line is an action, a stop, or an
 * error that says why; nothing leaks. */
#include <stdint.h>
#include <string.h>

#include "episode/agent.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cua_action act;
	char err[CUA_ERR_LEN];

	memset(&act, 0, sizeof(act));
	err[0] = '\0';
	enum cua_status st = cua_action_parse((const char *)data, size, 1, &act, err,
	                                      sizeof(err));
	if (st != CUA_OK && !err[0])
		__builtin_trap();
	if (st == CUA_OK && act.stop && act.code)
		__builtin_trap();
	cua_action_clear(&act);
	return 0;
}
