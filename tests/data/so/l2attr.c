/* l2attr.c — a candidate that sets a persisting-L2 access policy on its stream. */
extern int cudaStreamSetAttribute(void *stream, int attr, const void *value);

int cua_solve(const void *in, int n_in, void *out, int n_out, void *stream)
{
	char policy[64] = { 0 };
	return cudaStreamSetAttribute(stream, 1, policy);
}
