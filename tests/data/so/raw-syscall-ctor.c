/* raw-syscall-ctor.c — a constructor (run by dlopen, before any cua_solve)
 * that issues getpid(2) with a `syscall`/`svc` instruction of its own. */
long fixture_ctor_ran;

__attribute__((constructor)) static void at_load(void)
{
#if defined(__x86_64__)
	long r;
	__asm__ volatile("syscall" : "=a"(r) : "a"(39L) : "rcx", "r11", "memory");
	fixture_ctor_ran = r;
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = 172;
	register long x0 __asm__("x0");
	__asm__ volatile("svc #0" : "=r"(x0) : "r"(x8) : "memory");
	fixture_ctor_ran = x0;
#endif
}
