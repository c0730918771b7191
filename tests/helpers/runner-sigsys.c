/* runner-sigsys.c — stands in for `cuarena __runner` stopped by its
 * system-call guard: a line on stderr, then death by SIGSYS. */
#include <signal.h>
#include <stdio.h>

int main(void)
{
	fprintf(stderr, "cuarena: system call 1 made directly from the candidate's own code\n");
	fflush(stderr);
	raise(SIGSYS);
	return 0;
}
