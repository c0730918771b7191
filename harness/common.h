/* common.h — status codes, error buffers and small helpers shared by the harness. */
#ifndef CUA_COMMON_H
#define CUA_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* One error enum for the whole harness. Values are appended, never renumbered.
 * A failing *candidate* is not an error: it is a verdict (verdict.h). */
enum cua_status {
	CUA_OK = 0,
	CUA_E_USAGE = 1,      /* bad command line */
	CUA_E_IO = 2,         /* a file could not be read or written */
	CUA_E_PARSE = 3,      /* a file is not what it should be (names file/field/line) */
	CUA_E_INVALID = 4,    /* a value is out of range or inconsistent */
	CUA_E_NOMEM = 5,
	CUA_E_SYSTEM = 6,     /* fork, pipe, mkdtemp ... failed */
	CUA_E_NO_GPU = 7,     /* no usable CUDA device */
	CUA_E_NOT_FOUND = 8,  /* no such task, baseline, file */
	CUA_E_TIMEOUT = 9,
};

/* The harness's version, and the commit it was built from (set by the Makefile). */
#define CUA_VERSION "0.2.0"
#ifndef CUA_GIT_SHA
#define CUA_GIT_SHA "unknown"
#endif

/* Size of every caller-provided error buffer. */
#define CUA_ERR_LEN 1024

/* Formats into err (may be NULL). Always NUL-terminates. */
void cua_errf(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Reads a whole file into a NUL-terminated heap buffer; *len excludes the NUL.
 * max_bytes bounds what is accepted (larger files fail with CUA_E_INVALID). */
enum cua_status cua_read_file(const char *path, size_t max_bytes, char **out,
                              size_t *len, char *err, size_t errlen);

/* Writes buf to path atomically (temp file + rename), creating parent dirs. */
enum cua_status cua_write_file(const char *path, const void *buf, size_t len,
                               char *err, size_t errlen);

/* mkdir -p. */
enum cua_status cua_mkdirs(const char *path, char *err, size_t errlen);

/* Removes a directory tree (used for private temp dirs). Missing is fine. */
void cua_rmtree(const char *path);

/* A growing heap string (prompts, feedback). Start zeroed; s is NULL until the
 * first append; the caller frees s. */
struct cua_buf {
	char *s;
	size_t len, cap;
};

/* Appends printf-style text. */
void cua_buf_printf(struct cua_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The NVIDIA kernel module's version ("580.159.04"), or "" when unknown. */
void cua_driver_version(char *buf, size_t len);

/* Monotonic clock in seconds. */
double cua_now(void);

/* SHA-256 of a buffer as 64 lowercase hex chars + NUL. */
void cua_sha256_hex(const void *buf, size_t len, char out[65]);

/* Incremental SHA-256 (OpenSSL EVP underneath). */
struct cua_sha256;
struct cua_sha256 *cua_sha256_new(void);
void cua_sha256_update(struct cua_sha256 *h, const void *buf, size_t len);
void cua_sha256_final(struct cua_sha256 *h, char out[65]); /* also frees h */

/* Conversions of untrusted JSON numbers (doubles) to integers: NaN and values
 * below the range give the low end (0 for unsigned), values above it the high
 * end. A plain cast of an out-of-range double is undefined behaviour. */
static inline uint64_t cua_to_u64(double v)
{
	if (!(v > 0))
		return 0;
	return v >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)v;
}

static inline int64_t cua_to_i64(double v)
{
	if (v != v)
		return 0;
	if (v <= -9223372036854775808.0)
		return INT64_MIN;
	return v >= 9223372036854775808.0 ? INT64_MAX : (int64_t)v;
}

static inline int cua_to_int(double v)
{
	if (v != v)
		return 0;
	if (v <= -2147483648.0)
		return -2147483647 - 1;
	return v >= 2147483647.0 ? 2147483647 : (int)v;
}

/* Invariant check for programmer errors only; user input never reaches it. */
#define CUA_ASSERT(x)                                                          \
	do {                                                                       \
		if (!(x)) {                                                            \
			fprintf(stderr, "cuarena: internal error: %s (%s:%d)\n", #x,      \
			        __FILE__, __LINE__);                                       \
			abort();                                                           \
		}                                                                      \
	} while (0)

#define CUA_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#endif /* CUA_COMMON_H */
