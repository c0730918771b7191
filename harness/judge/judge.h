/* judge.h — what the judge's files share in plain C: the end of a job and the
 * paths it builds. The judge's state is one struct cua_judge (judge.cuh, for
 * its .cu files); the C side (cand-ctl.c) only holds a pointer to it. */
#ifndef CUA_JUDGE_H
#define CUA_JUDGE_H

#include <stddef.h>

#include "judge/verdict.h"

#ifdef __cplusplus
extern "C" {
#endif

struct cua_judge;

/* Emits the job's final result line (verdict v, the message formatted) and
 * ends the job: the kernel's process is killed first and its output copied to
 * our stderr; a serving judge frees what the job held and goes on to the next
 * job (judge.cu says how), a one-shot judge exits. Never returns. */
void cua_judge_finish(struct cua_judge *j, enum cua_verdict v, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 3, 4)));

/* A path built under one of ours (common.h's rule: a CUA_PATH_BUF, never cut):
 * one that would not fit ends the job as the harness's error, named. */
void cua_judge_pathf(struct cua_judge *j, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#ifdef __cplusplus
}
#endif

#ifdef __CUDACC__
/* A CUDA call of the harness itself failed outside the candidate's call: the
 * job ends as the harness's error. */
#define HARNESS_TRY(j, call)                                                       \
	do {                                                                           \
		cudaError_t e_ = (call);                                                   \
		if (e_ != cudaSuccess)                                                     \
			cua_judge_finish((j), CUA_VERDICT_HARNESS_ERROR, "%s failed: %s (%s)",  \
			                 #call, cudaGetErrorString(e_), cudaGetErrorName(e_));  \
	} while (0)

/* The statement (a launch) once per element type, T the type; a dtype the
 * judge does not handle ends the job. */
#define DISPATCH_TYPES(j, dtype, ...)                                         \
	switch (dtype) {                                                           \
	case CUA_F32: { typedef float T; __VA_ARGS__; } break;                            \
	case CUA_F64: { typedef double T; __VA_ARGS__; } break;                           \
	case CUA_I32: { typedef int32_t T; __VA_ARGS__; } break;                          \
	case CUA_I64: { typedef int64_t T; __VA_ARGS__; } break;                          \
	case CUA_U8: { typedef uint8_t T; __VA_ARGS__; } break;                           \
	default:                                                                   \
		cua_judge_finish((j), CUA_VERDICT_HARNESS_ERROR, "dtype %s is not supported " \
		                 "yet", cua_dtype_name(dtype));                        \
	}
#endif

#endif /* CUA_JUDGE_H */
