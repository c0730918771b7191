/* sleep.c — sandbox test child: sleeps forever (killed at the deadline). */
#include <unistd.h>

int main(void)
{
	for (;;)
		pause();
}
