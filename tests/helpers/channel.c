/* channel.c — sandbox test child: writes "hello" to the fd named by argv[1],
 * then prints its open fds (expected: 0 1 2 and that fd) to stdout. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	int fd = atoi(argv[1]);
	if (write(fd, "hello", 5) != 5)
		return 1;
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || atoi(e->d_name) == dirfd(d))
			continue;
		printf("%s ", e->d_name);
	}
	printf("\n");
	closedir(d);
	return 0;
}
