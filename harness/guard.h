/* guard.h — the system-call guard of the runner: once installed, only code that
 * was mapped executable at that moment may make system calls.
 *
 * The runner installs it after loading the task's oracle and before loading
 * the candidate, so the candidate's own code (its constructors, cua_solve, a
 * thread it starts, code it writes into memory it maps) cannot issue a system
 * call directly: a `syscall` instruction in inline assembly is what the static
 * check of imported symbols cannot see. Calls through libc and the CUDA
 * libraries still work (their code was mapped before), and what a candidate
 * may import from them is the static check's business (symcheck.h).
 *
 * A call from anywhere else raises SIGSYS; the guard's handler passes the
 * system call's number and address to the caller's on_trap, which reports and
 * ends the process. Installing also sets no_new_privs (required) and makes the
 * process non-dumpable (no same-user process may ptrace it or read its memory).
 * Linux on x86-64 and AArch64 only; elsewhere install fails. */
#ifndef CUA_GUARD_H
#define CUA_GUARD_H

#include <stddef.h>
#include <stdint.h>

#include "common.h"

struct cua_guard_range {
	uint64_t lo, hi;   /* [lo, hi) */
};

/* Executable ranges in a /proc/<pid>/maps text, sorted and with touching or
 * overlapping ranges merged. Returns how many were found (at most max; more
 * is an error, -1). */
int cua_guard_parse_maps(const char *maps, struct cua_guard_range *out, int max);

/* The classic-BPF seccomp program allowing system calls whose instruction
 * pointer lies in one of the ranges, trapping every other (and killing the
 * process on a foreign syscall ABI). `prog` must hold at least
 * cua_guard_program_len(r, n) instructions, each 8 bytes (struct sock_filter);
 * returns the length written, or -1 when the program would be too long for
 * the kernel (BPF_MAXINSNS). */
int cua_guard_program_len(const struct cua_guard_range *r, int n);
int cua_guard_program(const struct cua_guard_range *r, int n, void *prog, int cap);

/* Installs the guard for every thread of the process. on_trap runs in the
 * SIGSYS handler (async-signal context) with the offending call's number and
 * address; it must not return (the guard _exits with 125 if it does). */
enum cua_status cua_guard_install(void (*on_trap)(long nr, uintptr_t ip), char *err,
                                  size_t errlen);

#endif /* CUA_GUARD_H */
