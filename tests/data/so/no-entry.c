/* no-entry.c — a shared object that forgot to define cua_solve. */
int cua_solve_typo(const void *in, int n_in, void *out, int n_out, void *stream)
{
	return 0;
}
