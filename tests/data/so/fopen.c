/* fopen.c — a candidate that opens files (to read the oracle's outputs, say). */
#include <stdio.h>

int cua_solve(const void *in, int n_in, void *out, int n_out, void *stream)
{
	FILE *f = fopen((const char *)in, "rb");
	if (!f)
		return 1;
	size_t n = fread(out, 1, (size_t)n_out, f);
	fclose(f);
	return n == 0;
}
