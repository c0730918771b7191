/* driver.c — a candidate that reaches for the CUDA driver API and host callbacks. */
extern int cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz,
                          unsigned bx, unsigned by, unsigned bz, unsigned sh,
                          void *st, void **args, void **extra);
extern int cudaLaunchHostFunc(void *st, void (*fn)(void *), void *data);

static void cb(void *data)
{
	*(int *)data = 1;
}

int cua_solve(const void *in, int n_in, void *out, int n_out, void *stream)
{
	if (cudaLaunchHostFunc(stream, cb, out))
		return 1;
	return cuLaunchKernel((void *)in, 1, 1, 1, 1, 1, 1, 0, stream, 0, 0);
}
