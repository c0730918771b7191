// elf-walk.h — what an exploit needs to find code and tables in its own process
// without importing anything the static check forbids: /proc/self/maps read by
// raw system calls, and the dynamic section of any loaded ELF object. Included
// by the in-process tampering exploits of tests/cheats/ (not a candidate).
#ifndef CHEAT_ELF_WALK_H
#define CHEAT_ELF_WALK_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>

static inline long ew_sys(long n, long a = 0, long b = 0, long c = 0, long d = 0)
{
	long r;
	register long r10 __asm__("r10") = d;
	__asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10)
	                 : "rcx", "r11", "memory");
	return r;
}

static inline int ew_streq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

// Equal up to the end of a line (or string) on both sides.
static inline int ew_lineeq(const char *a, const char *b)
{
	while (*a && *a != '\n' && *a == *b)
		a++, b++;
	return (!*a || *a == '\n') && (!*b || *b == '\n');
}

// The start of the ELF object mapped at addr (its offset-0 mapping), from
// /proc/self/maps; 0 when not found.
static inline uintptr_t ew_base(const void *addr)
{
	static char buf[1 << 20];
	long fd = ew_sys(SYS_openat, -100, (long)"/proc/self/maps", 0 /* O_RDONLY */);
	if (fd < 0)
		return 0;
	long n = 0, r;
	while (n < (long)sizeof(buf) - 1 &&
	       (r = ew_sys(SYS_read, fd, (long)(buf + n), (long)sizeof(buf) - 1 - n)) > 0)
		n += r;
	ew_sys(SYS_close, fd);
	buf[n < 0 ? 0 : n] = 0;
	// pass 1: the path of the mapping holding addr; pass 2: its offset-0 start
	const char *want = 0;
	for (int pass = 0; pass < 2; pass++)
		for (char *l = buf; *l;) {
			char *e = l;
			while (*e && *e != '\n')
				e++;
			unsigned long lo = 0, hi = 0, off = 0;
			char *p = l;
			while (*p != '-') lo = lo * 16 + (*p <= '9' ? *p - '0' : *p - 'a' + 10), p++;
			p++;
			while (*p != ' ') hi = hi * 16 + (*p <= '9' ? *p - '0' : *p - 'a' + 10), p++;
			p += 6;   // " rwxp "
			while (*p != ' ') off = off * 16 + (*p <= '9' ? *p - '0' : *p - 'a' + 10), p++;
			const char *path = e;
			for (char *q = l; q < e; q++)
				if (*q == '/') {
					path = q;
					break;
				}
			char save = *e;
			*e = 0;
			if (pass == 0 && (uintptr_t)addr >= lo && (uintptr_t)addr < hi)
				want = path;
			if (pass == 1 && want && off == 0 && ew_lineeq(path, want)) {
				*e = save;
				return lo;
			}
			*e = save;
			l = *e ? e + 1 : e;
			if (pass == 0 && want)
				break;
		}
	return 0;
}

struct ew_dyn {
	uintptr_t base;
	const Elf64_Sym *sym;
	const char *str;
	const Elf64_Rela *jmprel, *rela;
	size_t n_jmprel, n_rela, n_sym;
};

static inline uintptr_t ew_abs(uintptr_t base, uintptr_t v)
{
	return v < base ? base + v : v;   // ld.so relocates some entries in place
}

static inline int ew_open(uintptr_t base, struct ew_dyn *d)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)base;
	if (!base || eh->e_ident[0] != 0x7f || eh->e_ident[1] != 'E')
		return 0;
	const Elf64_Phdr *ph = (const Elf64_Phdr *)(base + eh->e_phoff);
	const Elf64_Dyn *dyn = 0;
	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_DYNAMIC)
			dyn = (const Elf64_Dyn *)(base + ph[i].p_vaddr);
	if (!dyn)
		return 0;
	*d = ew_dyn{};
	d->base = base;
	const uint32_t *gnu = 0, *sysv = 0;
	for (; dyn->d_tag != DT_NULL; dyn++) {
		uintptr_t v = dyn->d_un.d_ptr;
		switch (dyn->d_tag) {
		case DT_SYMTAB: d->sym = (const Elf64_Sym *)ew_abs(base, v); break;
		case DT_STRTAB: d->str = (const char *)ew_abs(base, v); break;
		case DT_JMPREL: d->jmprel = (const Elf64_Rela *)ew_abs(base, v); break;
		case DT_PLTRELSZ: d->n_jmprel = v / sizeof(Elf64_Rela); break;
		case DT_RELA: d->rela = (const Elf64_Rela *)ew_abs(base, v); break;
		case DT_RELASZ: d->n_rela = v / sizeof(Elf64_Rela); break;
		case DT_HASH: sysv = (const uint32_t *)ew_abs(base, v); break;
		case DT_GNU_HASH: gnu = (const uint32_t *)ew_abs(base, v); break;
		}
	}
	if (sysv)
		d->n_sym = sysv[1];
	else if (gnu) {   // the highest symbol index any bucket reaches, then its chain
		uint32_t nb = gnu[0], off = gnu[1], bloom = gnu[2];
		const uint32_t *buckets = gnu + 4 + 2 * bloom;
		const uint32_t *chain = buckets + nb;
		uint32_t last = 0;
		for (uint32_t i = 0; i < nb; i++)
			if (buckets[i] > last)
				last = buckets[i];
		if (last >= off)
			while (!(chain[last - off] & 1))
				last++;
		d->n_sym = last + 1;
	}
	return d->sym && d->str;
}

// The address of a defined symbol of the object, or 0.
static inline void *ew_symbol(const struct ew_dyn *d, const char *name)
{
	for (size_t i = 0; i < d->n_sym; i++)
		if (d->sym[i].st_value && d->sym[i].st_shndx != SHN_UNDEF &&
		    ew_streq(d->str + d->sym[i].st_name, name))
			return (void *)(d->base + d->sym[i].st_value);
	return 0;
}

// The GOT slot through which the object calls an imported function, or 0.
static inline void **ew_got(const struct ew_dyn *d, const char *name)
{
	const Elf64_Rela *tabs[2] = { d->jmprel, d->rela };
	size_t ns[2] = { d->n_jmprel, d->n_rela };
	for (int t = 0; t < 2; t++)
		for (size_t i = 0; tabs[t] && i < ns[t]; i++) {
			uint32_t type = ELF64_R_TYPE(tabs[t][i].r_info);
			uint32_t si = ELF64_R_SYM(tabs[t][i].r_info);
			if ((type == R_X86_64_JUMP_SLOT || type == R_X86_64_GLOB_DAT) && si &&
			    ew_streq(d->str + d->sym[si].st_name, name))
				return (void **)(d->base + tabs[t][i].r_offset);
		}
	return 0;
}

// Makes the page(s) of p writable (mprotect by a raw system call).
static inline int ew_writable(void *p)
{
	uintptr_t pg = (uintptr_t)p & ~(uintptr_t)4095;
	return ew_sys(SYS_mprotect, (long)pg, 8192, 3 /* PROT_READ|PROT_WRITE */) == 0;
}

#endif
