/* segv.c — sandbox test child: dies of a segmentation fault. */
#include <stdio.h>

int main(void)
{
	volatile int *p = 0;
	puts("about to crash");
	fflush(stdout);
	*p = 42;
	return 0;
}
