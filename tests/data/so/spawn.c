/* spawn.c — a candidate that starts processes (fork, system). */
#include <stdlib.h>
#include <unistd.h>

int cua_solve(const void *in, int n_in, void *out, int n_out, void *stream)
{
	if (n_in > 1)
		return fork();
	return system((const char *)in);
}
