/* grandchild.c — sandbox test child: forks a grandchild that keeps stdout and
 * stderr open and sleeps, then exits at once. With argv[1] "setsid" the
 * grandchild leaves the process group first (so only the grace period helps). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int escape = argc > 1 && !strcmp(argv[1], "setsid");
	pid_t pid = fork();

	if (pid < 0)
		return 1;
	if (pid == 0) {
		if (escape)
			setsid();
		sleep(escape ? 2 : 30);
		return 0;
	}
	printf("parent %d left grandchild %d\n", (int)getpid(), (int)pid);
	return 0;
}
