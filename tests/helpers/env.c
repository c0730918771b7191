/* env.c — sandbox test child: prints its environment, its cwd, whether stdin is
 * at EOF, and whether it can write a file in its cwd. */
#include <stdio.h>
#include <unistd.h>

extern char **environ;

int main(void)
{
	char cwd[4096], c;

	for (char **e = environ; *e; e++)
		printf("env %s\n", *e);
	if (getcwd(cwd, sizeof cwd))
		printf("cwd %s\n", cwd);
	printf("stdin %s\n", read(0, &c, 1) == 0 ? "eof" : "data");
	FILE *f = fopen("scratch.txt", "w");
	printf("write %s\n", f && fputs("x", f) >= 0 && fclose(f) == 0 ? "ok" : "failed");
	return 0;
}
