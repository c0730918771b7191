/* fuzz-extract.c — libFuzzer target: the LLM reply parser that finds the kernel in
 * a model's free text (harness/episode/extract.c). Either code or a reason, never both. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "episode/extract.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char note[256];
	char *reply = malloc(size + 1);
	if (!reply)
		return 0;
	memcpy(reply, data, size);
	reply[size] = '\0';
	note[0] = '\0';
	char *code = cua_extract_code(reply, note, sizeof(note));
	if (code) {
		/* the code is a substring's worth of the reply: never longer */
		if (strlen(code) > size)
			__builtin_trap();
		(void)cua_extract_defines_solve(code, strlen(code));
		free(code);
	} else if (!note[0]) {
		__builtin_trap();   /* no code must come with a reason */
	}
	(void)cua_extract_defines_solve(reply, size);
	free(reply);
	return 0;
}
