/* runner-forge.c — stands in for `cuarena __runner` as a candidate that got
 * hold of the report channel (fd 3): writes a passing verdict with plausible
 * timings in the runner's own JSON shape, without the channel's seal. */
#include <string.h>
#include <unistd.h>

int main(void)
{
	const char *lines =
	    "{\"event\":\"timing\",\"event_ms\":{\"n\":30,\"median\":0.001}}\n"
	    "{\"event\":\"result\",\"verdict\":\"ok\",\"message\":\"\"}\n";
	(void)!write(3, lines, strlen(lines));
	return 0;
}
