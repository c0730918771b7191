/* spin.c — sandbox test child: burns CPU forever (RLIMIT_CPU or the deadline stop it). */
int main(void)
{
	volatile unsigned long x = 0;
	for (;;)
		x++;
}
