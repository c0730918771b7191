/* symcheck.h — static check of a compiled candidate (.so) before it runs.
 *
 * Reads the ELF dynamic symbol table itself (no nm/binutils needed) and checks
 * every undefined symbol against an allowlist (CUDA runtime minus the
 * dangerous calls, libc math/memory/stdio, the C++ runtime), and every defined
 * symbol against names the harness relies on (no interposing timers, events or
 * CUDA calls). cuBLAS/cuDNN symbols pass only when the policy allows them. */
#ifndef CUA_SYMCHECK_H
#define CUA_SYMCHECK_H

#include "common.h"

#define CUA_SYMCHECK_MAX 32

struct cua_symcheck_policy {
	bool allow_cublas;      /* cublas*, cublasLt* */
	bool allow_cudnn;       /* cudnn* */
};

struct cua_violation {
	char symbol[128];
	char reason[128];       /* "dynamic loading is forbidden" */
};

struct cua_symcheck_result {
	int n;                  /* number of violations (may exceed the kept ones) */
	struct cua_violation v[CUA_SYMCHECK_MAX];
	bool has_entry;         /* defines cua_solve */
};

/* Checks the ELF shared object at path. Returns CUA_E_PARSE if it is not a
 * readable 64-bit ELF shared object (err names the file), CUA_E_NOT_FOUND /
 * CUA_E_IO if it cannot be opened or mapped; violations are results, not
 * errors. has_entry is set only for a defined function named cua_solve. */
enum cua_status cua_symcheck_file(const char *path,
                                  const struct cua_symcheck_policy *policy,
                                  struct cua_symcheck_result *res, char *err,
                                  size_t errlen);

/* Classifies one symbol name: NULL if allowed, else the reason. `defined`
 * says whether the object defines it (vs. imports it). */
const char *cua_symcheck_symbol(const char *name, bool defined,
                                const struct cua_symcheck_policy *policy);

/* What to change for a violating symbol whose usual cause is known ("return
 * non-zero from cua_solve ..."), or NULL. */
const char *cua_symcheck_advice(const char *symbol);

#endif /* CUA_SYMCHECK_H */
