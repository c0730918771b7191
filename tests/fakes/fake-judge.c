/* fake-judge.c — a stand-in for `cuarena __judge --serve` that needs no GPU,
 * for tests/test-judges.c: it speaks the serving protocol (runner.h: jobs on
 * stdin, sealed lines on --fd) and does what each job's one word says:
 *   ok     a phase line and the result, and stays
 *   last   the result with "last": true, then exits
 *   quit   the result (not marked last), then exits: dies between two jobs
 *   die    exits in the middle of the job, no result
 *   hang   never answers
 * Every result's message is "pid N job K" and stderr gets "stderr of job K". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fake-wire.h"

int main(int argc, char **argv)
{
	static char payload[CUA_JOB_MAX];
	for (int i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--fd"))
			fd = atoi(argv[i + 1]);
	for (int job = 0;; job++) {
		uint32_t hdr[2];
		if (!read_full(hdr, sizeof hdr))
			return 0;
		if (hdr[0] != CUA_JOB_MAGIC || hdr[1] >= sizeof payload || !read_full(payload, hdr[1]))
			return 2;
		payload[hdr[1]] = '\0';
		const char *word = "ok";
		for (char *p = payload; p < payload + hdr[1]; p += strlen(p) + 1) {
			if (!strncmp(p, "KEY=", 4))
				cua_channel_key_parse(p + 4, &key);
			else
				word = p;
		}
		seq = 0;
		fprintf(stderr, "stderr of job %d\n", job);
		line("{\"event\":\"phase\",\"what\":\"load\"}");
		if (!strcmp(word, "die"))
			_exit(1);
		if (!strcmp(word, "hang"))
			for (;;)
				pause();
		char res[160];
		snprintf(res, sizeof res, "{\"event\":\"result\",\"verdict\":\"ok\",\"message\":"
		         "\"pid %d job %d\",\"last\":%s}", (int)getpid(), job,
		         !strcmp(word, "last") ? "true" : "false");
		line(res);
		if (!strcmp(word, "last") || !strcmp(word, "quit"))
			return 0;
	}
}
