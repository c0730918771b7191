/* bigfile.c — sandbox test child: writes a growing file in its cwd (RLIMIT_FSIZE
 * stops it with SIGXFSZ). */
#include <stdio.h>
#include <string.h>

int main(void)
{
	static char buf[4096];
	FILE *f = fopen("big.bin", "w");

	if (!f)
		return 2;
	memset(buf, 'b', sizeof buf);
	for (int i = 0; i < 4096; i++)
		if (fwrite(buf, 1, sizeof buf, f) != sizeof buf || fflush(f))
			return 1;
	return 0;
}
