/* dlopen.c — a candidate that loads code at run time (dlopen + dlsym). */
#include <dlfcn.h>

int cua_solve(const void *in, int n_in, void *out, int n_out, void *stream)
{
	void *h = dlopen((const char *)in, RTLD_NOW);
	int (*f)(void) = h ? (int (*)(void))dlsym(h, "f") : 0;
	return f ? f() : 1;
}
