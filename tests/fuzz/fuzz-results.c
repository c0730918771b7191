/* fuzz-results.c — libFuzzer target: the results loader (harness/results/results.c).
 * The input is split at 0x1e (record separator) bytes into run.json,
 * evals.jsonl, baselines.jsonl and trajectories.jsonl of a results folder;
 * whatever loads must also be scorable. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/results.h"

static char dir[256];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const files[] = {"run.json", "evals.jsonl", "baselines.jsonl",
	                                    "trajectories.jsonl"};
	char path[400], err[CUA_ERR_LEN];

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/cuarena-fuzz-results-XXXXXX");
		if (!mkdtemp(dir))
			abort();
	}
	size_t start = 0;
	for (int f = 0; f < 4; f++) {
		size_t end = start;
		while (end < size && data[end] != 0x1e)
			end++;
		snprintf(path, sizeof(path), "%s/%s", dir, files[f]);
		FILE *fp = fopen(path, "wb");
		if (!fp)
			abort();
		if (end > start)
			fwrite(data + start, 1, end - start, fp);
		fclose(fp);
		start = end < size ? end + 1 : size;
	}
	struct cua_results *run = NULL;
	err[0] = '\0';
	if (cua_results_load(dir, &run, err, sizeof(err)) != CUA_OK) {
		if (run || !err[0])
			__builtin_trap();   /* a failed load returns nothing and says why */
		return 0;
	}
	for (int i = 0; i < run->n_tasks; i++) {
		const struct cua_rec *b = cua_results_scored(&run->tasks[i], "nvcc", CUA_PICK_BEST);
		const struct cua_rec *f = cua_results_scored(&run->tasks[i], "nvcc", CUA_PICK_FINAL);
		if (b)
			(void)cua_rec_speedup(b, "nvcc");
		if (f)
			(void)cua_rec_speedup(f, CUA_BASELINE_LIBRARY);
		free(cua_results_code(run, &run->tasks[i], 1));
	}
	int levels[16];
	(void)cua_results_levels(run, levels, 16);
	cua_results_free(run);
	return 0;
}
