/* clean.c — a well-behaved candidate: exports cua_solve, uses malloc/memcpy/expf. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

int cua_solve(const void *in, int n_in, void *out, int n_out, void *stream)
{
	float *tmp = malloc((size_t)n_in * sizeof(float));
	if (!tmp)
		return 1;
	memcpy(tmp, in, (size_t)n_in * sizeof(float));
	for (int i = 0; i < n_in; i++)
		tmp[i] = expf(tmp[i]);
	memcpy(out, tmp, (size_t)n_out * sizeof(float));
	free(tmp);
	return 0;
}
