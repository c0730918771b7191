/* net.c — sandbox test child: lists the network interfaces of its own network
 * namespace (/proc/self/net/dev) as "if NAME" lines, then "count N". */
#include <stdio.h>
#include <string.h>

int main(void)
{
	FILE *f = fopen("/proc/self/net/dev", "r");
	char line[512];
	int n = 0;

	if (!f)
		return 2;
	while (fgets(line, sizeof line, f)) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;           /* the two header lines */
		*colon = '\0';
		char *name = line + strspn(line, " ");
		printf("if %s\n", name);
		n++;
	}
	fclose(f);
	printf("count %d\n", n);
	return 0;
}
