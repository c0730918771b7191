// task: relu
// expect: forbidden_symbol
// expect-message: threads
// Does its work on a host thread that outlives the call, escaping the timer.
#include "cuarena.h"
#include <pthread.h>

static void *worker(void *arg)
{
	return arg;
}

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	pthread_t t;
	return pthread_create(&t, NULL, worker, NULL);
}
