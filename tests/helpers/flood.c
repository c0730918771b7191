/* flood.c — sandbox test child: writes 50 MB to stdout, then "done" to stderr. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
	static char buf[1 << 16];
	size_t total = 50u << 20;

	memset(buf, 'x', sizeof buf);
	for (size_t done = 0; done < total; ) {
		ssize_t n = write(1, buf, sizeof buf);
		if (n <= 0)
			return 2;
		done += (size_t)n;
	}
	fprintf(stderr, "done\n");
	return 0;
}
