#include "cuarena.h"
int cua_solve(const struct cua_tensor *i, int a, struct cua_tensor *o, int b, cudaStream_t s)
{ return this is not C; }
