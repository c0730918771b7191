/* exit3.c — sandbox test child: writes to both streams and exits with status 3. */
#include <stdio.h>

int main(void)
{
	printf("to stdout\n");
	fprintf(stderr, "to stderr\n");
	return 3;
}
