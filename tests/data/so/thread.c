/* thread.c — a candidate that starts a thread (work escaping the timed call). */
#include <pthread.h>

static void *work(void *arg)
{
	return arg;
}

int cua_solve(const void *in, int n_in, void *out, int n_out, void *stream)
{
	pthread_t t;
	return pthread_create(&t, 0, work, out);
}
