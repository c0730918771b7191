/* interposer.c — a candidate that defines the harness's timers (to fake timings). */
#include <time.h>

int clock_gettime(clockid_t clk, struct timespec *ts)
{
	ts->tv_sec = 0;
	ts->tv_nsec = 1;
	return 0;
}

int cudaEventElapsedTime(float *ms, void *start, void *end)
{
	*ms = 0.001f;
	return 0;
}

int cua_solve(const void *in, int n_in, void *out, int n_out, void *stream)
{
	return 0;
}
