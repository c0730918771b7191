/* fake-gpu.c — a stand-in for `cuarena __probe` and `cuarena __judge --serve` that
 * needs no GPU, for the baseline store's run-level tests (tests/test-bstore.c): the
 * probe prints a fixed H200-like device; the judge answers every job (runner.h:
 * jobs on stdin, sealed lines on --fd) with that device, a timing whose median is
 * fixed by the job's --subject (the same on every run, so a drift check passes),
 * and an ok result. Nothing is compiled or run: only the parent's plumbing is real. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fake-wire.h"

#define DEVICE "\"name\":\"NVIDIA H200 (fake)\",\"cc_major\":9,\"cc_minor\":0,\"sms\":132," \
               "\"l2_bytes\":62914560,\"mem_bytes\":150000000000,\"driver_version\":"   \
               "\"580.0\",\"driver\":13000,\"runtime\":13000,\"sm_clock_peak_mhz\":1980," \
               "\"mem_clock_peak_mhz\":3201"

int main(int argc, char **argv)
{
	static char payload[CUA_JOB_MAX];
	if (argc > 1 && !strcmp(argv[1], "__probe")) {
		printf("{" DEVICE "}\n");
		return 0;
	}
	for (int i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--fd"))
			fd = atoi(argv[i + 1]);
	if (argc < 3 || strcmp(argv[1], "__judge") || strcmp(argv[2], "--serve") || fd < 0)
		return 2;
	for (;;) {
		uint32_t hdr[2];
		if (!read_full(hdr, sizeof hdr))
			return 0;
		if (hdr[0] != CUA_JOB_MAGIC || hdr[1] >= sizeof payload || !read_full(payload, hdr[1]))
			return 2;
		payload[hdr[1]] = '\0';
		const char *subject = "?", *prev = "";
		for (char *p = payload; p < payload + hdr[1]; p += strlen(p) + 1) {
			if (!strncmp(p, "KEY=", 4))
				cua_channel_key_parse(p + 4, &key);
			else if (!strcmp(prev, "--subject"))
				subject = p;
			prev = p;
		}
		seq = 0;
		line("{\"event\":\"device\"," DEVICE "}");
		double ms = 1.0 + (double)strlen(subject) / 8;
		char t[512];
		snprintf(t, sizeof t, "{\"event\":\"timing\",\"judge_ms\":{\"n\":10,\"median\":%.6f},"
		         "\"event_ms\":{\"n\":10,\"median\":%.6f},\"host_ms\":{\"n\":10,"
		         "\"median\":%.6f}}", ms, ms, ms);
		line(t);
		line("{\"event\":\"result\",\"verdict\":\"ok\",\"message\":\"\",\"last\":false}");
	}
}
