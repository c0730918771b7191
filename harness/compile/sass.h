/* sass.h — the precision policy at the instruction level: the machine code (SASS)
 * of a built candidate, listed by cuobjdump, must hold no tensor-core or
 * packed-half instruction its task's policy does not allow.
 *
 * What nvcc 13 emits for sm_90a (measured, docs/SECURITY.md "Precision"):
 * wmma/mma on TF32 → HMMA.1684.F32.TF32 / HMMA.1688.F32.TF32; on bf16 →
 * HMMA.16816.F32.BF16; on fp16 → HMMA.16816.F32 (or .F16); wgmma → HGMMA.*;
 * int8 → IMMA.*; __hmul/__hfma2 → HMUL2 / HFMA2.MMA; and in plain fp32 code
 * ptxas uses `HFMA2.MMA Rd, -RZ, RZ, c0, c1` to load a constant and
 * `HADD2.F32 Rd, -RZ, Rs.H0_H0` to widen a half: both exact, both allowed. */
#ifndef CUA_SASS_H
#define CUA_SASS_H

#include "common.h"
#include "catalogue/task.h"

#define CUA_SASS_MAX 16

/* One instruction that a policy may forbid, and the kernel it is in. */
struct cua_sass_insn {
	char opcode[64];         /* with its modifiers: "HMMA.16816.F32.BF16" */
	char kernel[256];        /* mangled, as cuobjdump prints it */
};

struct cua_sass_scan {
	int kernels;             /* functions listed */
	long instructions;       /* instructions read */
	int n;                   /* distinct (opcode, kernel) pairs found; may exceed kept */
	struct cua_sass_insn v[CUA_SASS_MAX];
};

/* Reads a `cuobjdump -sass` listing: keeps each tensor-core or packed-half
 * instruction (distinct opcode and kernel), leaving out the exact idioms above. */
void cua_sass_parse(const char *text, size_t len, struct cua_sass_scan *s);

/* NULL when policy p allows the opcode ("HMMA.1684.F32.TF32"), else why not:
 * "TF32 tensor-core math is not allowed in an fp32-strict task". */
const char *cua_sass_judge(const char *opcode, enum cua_precision p);

/* Path of cuobjdump: $CUARENA_CUOBJDUMP, next to nvcc, $CUDA_HOME/bin,
 * /usr/local/cuda/bin, /opt/cuarena/cuda-tools/bin (tools/deps.sh installs it
 * there), then PATH; NULL if none is executable. nvdisasm must sit beside it. */
const char *cua_find_cuobjdump(const char *nvcc);

/* Lists so_path with cuobjdump (sandboxed, time-limited) and parses it. With
 * cache_path the result is kept there and read back next time (the listing of
 * a cached build does not change). CUA_E_NOT_FOUND when there is no cuobjdump;
 * CUA_E_PARSE when cuobjdump fails on the object. */
enum cua_status cua_sass_scan_file(const char *so_path, const char *cuobjdump,
                                   const char *cache_path, struct cua_sass_scan *s,
                                   char *err, size_t errlen);

/* The first instruction of s that policy p forbids: its index, and in msg a
 * sentence naming it, its kernel (demangled) and what to do; -1 if none. */
int cua_sass_check(const struct cua_sass_scan *s, enum cua_precision p, char *msg,
                   size_t len);

#endif /* CUA_SASS_H */
