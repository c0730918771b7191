/* fuzz-task.c — libFuzzer target: the task.json loader (harness/catalogue/task.c), fed
 * through a real file in a fake catalogue root so the whole path is exercised:
 * JSON parsing, every field's validation, shape expressions in every shape set. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalogue/task.h"

static char dir[256];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[400], err[CUA_ERR_LEN];
	struct cua_task *t = NULL;

	if (!dir[0]) {
		char root[] = "/tmp/cuarena-fuzz-task-XXXXXX";
		if (!mkdtemp(root))
			abort();
		snprintf(dir, sizeof(dir), "%s/tasks/L1/001-fuzz", root);
		if (cua_mkdirs(dir, err, sizeof(err)) != CUA_OK)
			abort();
	}
	snprintf(path, sizeof(path), "%s/task.json", dir);
	FILE *f = fopen(path, "wb");
	if (!f)
		abort();
	fwrite(data, 1, size, f);
	fclose(f);
	enum cua_status st = cua_task_load(dir, &t, err, sizeof(err));
	if (st == CUA_OK) {
		/* a loaded task must be usable: every shape of every tensor resolves */
		int64_t dims[CUA_MAX_DIMS];
		for (int s = 0; s < t->n_shapes; s++)
			for (int i = 0; i < t->n_inputs; i++)
				if (cua_task_tensor_shape(t, s, &t->inputs[i], dims, err, sizeof(err)))
					__builtin_trap();
		if (cua_task_timed_shape(t) < 0)
			__builtin_trap();
	} else if (!strstr(err, "task.json")) {
		__builtin_trap();   /* every error names the file */
	}
	cua_task_free(t);
	return 0;
}
