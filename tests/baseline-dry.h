/* baseline-dry.h — the counting shim of tests/baseline-dry.c: the CUDA runtime, cuDNN,
 * cuBLAS and cuBLASLt calls a library baseline makes, answered on the CPU with no device
 * (tests/baseline-dry-shim.c: the calls whose answers matter; tests/baseline-dry-stubs.c:
 * the rest), and the per-call host work among them counted. */
#ifndef CUA_TESTS_BASELINE_DRY_H
#define CUA_TESTS_BASELINE_DRY_H

#include <stddef.h>
#include <stdint.h>

/* What a call after the first at its shape must not do. */
enum shim_kind {
	SHIM_ALLOC,        /* cudaMalloc, cudaMallocHost...: device or pinned memory from the driver */
	SHIM_FREE,         /* cudaFree, cudaFreeHost (and the device synchronisation of cudaFree) */
	SHIM_POOL_GROW,    /* cudaMallocAsync the pool cannot serve from memory it holds: mapped anew */
	SHIM_SYNC,         /* cudaDeviceSynchronize, cudaStreamSynchronize, cudaEventSynchronize,
	                    * cudaMemcpy, cudaMemset: the host waits for the device */
	SHIM_CREATE,       /* a handle, descriptor, plan, event or stream created or destroyed */
	SHIM_SEARCH,       /* cudnnFind*, cublasLtMatmulAlgoGetHeuristic: an algorithm chosen */
	SHIM_STREAM,       /* work (a kernel, a copy, a library call) on another stream than the
	                    * call's */
	SHIM_KINDS
};

/* Forgets every handle, descriptor, allocation and the pool: a new baseline's process. */
void shim_reset(void);

/* A call of cua_solve on stream begins: the counts start from 0. */
void shim_call_begin(void *stream);

/* The call returned: the device synchronisation the kernel's process does after each call
 * (the pool gives back what it holds above its release threshold), then the count of
 * each kind in counts[SHIM_KINDS] and the first call of each kind named in what[k]. */
void shim_call_end(int counts[SHIM_KINDS], const char *what[SHIM_KINDS]);

/* The name of a kind: "alloc", "free", "pool growth", ... */
const char *shim_kind_name(enum shim_kind k);

/* For the generic stubs (baseline-dry-stubs.c): a call of name counted as kind (-1: not
 * counted), and a library call on handle h (its stream must be the call's). 0 = success. */
int shim_plain(const char *name, int kind);
int shim_lib(const void *h, const char *name);

#endif /* CUA_TESTS_BASELINE_DRY_H */
