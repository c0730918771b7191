/* many-violations.c — imports 40 driver-API-looking names: more violations
 * than CUA_SYMCHECK_MAX keeps. */
#define USE(i) extern int cuForbidden##i(void);
#define CALL(i) s += cuForbidden##i();
#define TEN(M, d) M(d##0) M(d##1) M(d##2) M(d##3) M(d##4) M(d##5) M(d##6) M(d##7) M(d##8) M(d##9)

TEN(USE, 1) TEN(USE, 2) TEN(USE, 3) TEN(USE, 4)

int cua_solve(const void *in, int n_in, void *out, int n_out, void *stream)
{
	int s = 0;
	TEN(CALL, 1) TEN(CALL, 2) TEN(CALL, 3) TEN(CALL, 4)
	return s;
}
