/* raw-syscall.c — system calls a static check of imported symbols cannot see:
 * getpid(2) issued by a `syscall`/`svc` instruction in this object's own code,
 * and by code it writes into memory it maps; and getpid through libc. */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

long fixture_raw_getpid(void)
{
#if defined(__x86_64__)
	long r;
	__asm__ volatile("syscall" : "=a"(r) : "a"(39L) : "rcx", "r11", "memory");
	return r;
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = 172;
	register long x0 __asm__("x0");
	__asm__ volatile("svc #0" : "=r"(x0) : "r"(x8) : "memory");
	return x0;
#else
	return -1;
#endif
}

long fixture_libc_getpid(void)
{
	return getpid();
}

long fixture_jit_getpid(void)
{
#if defined(__x86_64__)
	static const unsigned char code[] = { 0xb8, 39, 0, 0, 0, 0x0f, 0x05, 0xc3 };
#elif defined(__aarch64__)
	static const unsigned int code[] = { 0xd2801588, 0xd4000001, 0xd65f03c0 };
#else
	static const unsigned char code[] = { 0 };
#endif
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
	               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -2;
	memcpy(p, code, sizeof(code));
	__builtin___clear_cache((char *)p, (char *)p + sizeof(code));
	return ((long (*)(void))p)();
}
