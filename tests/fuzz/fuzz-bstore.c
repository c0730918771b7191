/* fuzz-bstore.c — libFuzzer target: a baseline store entry read back (cua_bstore_get in
 * harness/judge/bstore.c). Whatever the file holds, a hit is a correct, timed
 * evaluation of the subject asked for under exactly the key asked for; anything else
 * is a miss with a warning; nothing leaks or crashes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/bstore.h"

static char dir[64];

static void remove_dir(void)
{
	cua_rmtree(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/cuarena-fuzz-bstore-XXXXXX");
		if (!mkdtemp(dir))
			__builtin_trap();
		atexit(remove_dir);
	}
	struct cua_bstore *s = cua_bstore_new(dir, false, NULL, 0);
	FILE *devnull = fopen("/dev/null", "w");
	s->log = devnull;
	struct cua_bstore_key k = {0};
	cua_bstore_key_set(&k, "task", "L1/019-relu");
	cua_bstore_key_set(&k, "subject", "nvcc");
	char sha[65], path[160];
	cua_bstore_key_sha256(&k, sha);
	snprintf(path, sizeof(path), "%s/%s.json", dir, sha);
	if (cua_write_file(path, data, size, NULL, 0) != CUA_OK)
		__builtin_trap();
	struct cua_eval e;
	if (cua_bstore_get(s, &k, "nvcc", &e)) {
		if (strcmp(e.subject, "nvcc") || e.verdict != CUA_VERDICT_OK || !e.timing.done ||
		    !(cua_timing_stats(&e.timing)->median > 0))
			__builtin_trap();
	}
	cua_eval_clear(&e);
	fclose(devnull);
	cua_bstore_free(s);
	return 0;
}
