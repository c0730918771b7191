/* fake-wire.h — what the fake judges (fake-judge.c, fake-gpu.c) share: the job
 * read whole from stdin, and each line sealed onto the report descriptor under the
 * job's channel key, as the real judge writes them (runner.h, judge/channel.h).
 * Each fake sets fd and key from its job before the first line. */
#ifndef CUA_FAKE_WIRE_H
#define CUA_FAKE_WIRE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/channel.h"
#include "judge/runner.h"

static int fd = -1;
static struct cua_channel_key key;
static uint64_t seq;

static void line(const char *json)
{
	size_t n = 0;
	char *s = cua_channel_seal(&key, seq++, json, strlen(json), &n);
	if (s && write(fd, s, n) != (ssize_t)n)
		_exit(3);
	free(s);
}

static int read_full(void *buf, size_t len)
{
	char *p = buf;
	while (len > 0) {
		ssize_t r = read(0, p, len);
		if (r <= 0)
			return 0;
		p += r;
		len -= (size_t)r;
	}
	return 1;
}

#endif /* CUA_FAKE_WIRE_H */
