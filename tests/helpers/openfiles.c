/* openfiles.c — sandbox test child: opens /dev/null until it fails and prints
 * "opened N" (RLIMIT_NOFILE bounds N). */
#include <fcntl.h>
#include <stdio.h>

int main(void)
{
	int n = 0;

	while (n < 100000 && open("/dev/null", O_RDONLY) >= 0)
		n++;
	printf("opened %d\n", n);
	return 0;
}
