/* wire.h — the judge ⇄ candidate-process messages: fixed-size records on an
 * AF_UNIX SOCK_SEQPACKET socket, device buffers passed as descriptors
 * (SCM_RIGHTS). Everything the candidate's process sends is a claim; the judge
 * checks what it can and trusts nothing else (docs/SECURITY.md). */
#ifndef CUA_WIRE_H
#define CUA_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CUA_WIRE_MAGIC 0x63756177u    /* "cuaw" */
#define CUA_WIRE_MAX_T 16             /* tensors in one MAP */
#define CUA_WIRE_MAX_SLOTS 16

enum cua_wire_op {
	/* judge → candidate */
	CUA_WIRE_MAP = 1,     /* slot, n_in, n_out, t[] + one fd per tensor */
	CUA_WIRE_EMPTY = 2,   /* slot: run the harness's empty kernel (calibration) */
	CUA_WIRE_LOAD = 3,    /* text = shared object; flags: CUA_WIRE_TRUSTED */
	CUA_WIRE_RUN = 4,     /* slot: call cua_solve on it */
	CUA_WIRE_QUIT = 5,
	CUA_WIRE_WAKE = 6,    /* no reply: a timed RUN follows within milliseconds */
	CUA_WIRE_UNMAP = 7,   /* slot: unmap its buffers (the judge frees them) */
	/* candidate → judge */
	CUA_WIRE_READY = 16,  /* after start-up, MAP, LOAD */
	CUA_WIRE_DONE = 17,   /* after EMPTY, RUN: rc, cuda_err, claims */
	CUA_WIRE_FAIL = 18,   /* text says why; rc/cuda_err may say more */
};

#define CUA_WIRE_TRUSTED 1u   /* LOAD: the harness's own kernel: no filter, no view */
#define CUA_WIRE_VIEW 2u      /* LOAD: the process is root in namespaces of its own:
                               * confine its file system before the kernel comes */
#define CUA_WIRE_LIB_CUBLAS 4u /* LOAD: the task allows cuBLAS (loaded before the view) */
#define CUA_WIRE_LIB_CUDNN 8u  /* LOAD: the task allows cuDNN (every part of it, likewise) */

struct cua_wire_tensor {
	uint64_t size;        /* bytes of the mapping (the shared allocation) */
	uint64_t offset;      /* data pointer = mapping + offset */
	int32_t dtype, ndim;
	int64_t shape[8];
};

struct cua_wire_msg {
	uint32_t magic, op, seq, slot, flags, n_in, n_out;
	int32_t rc;           /* DONE: cua_solve's return value */
	int32_t cuda_err;     /* DONE/FAIL: first CUDA error seen (cudaError_t), 0 none */
	int32_t where;        /* DONE: 1 launch (cudaGetLastError), 2 sync */
	double event_ms;      /* DONE: the process's own events around the call */
	double host_ms;       /* DONE: its host clock, command in → device idle */
	struct cua_wire_tensor t[CUA_WIRE_MAX_T];
	char text[512];
};

/* Sends m with n_fds descriptors attached. Returns 0, or -1 with errno. */
int cua_wire_send(int sock, const struct cua_wire_msg *m, const int *fds, int n_fds);

/* Receives one message into m, and up to max_fds descriptors into fds (*n_fds
 * set; extras are closed). Busy-polls until spin_until (no sleeping wake-up in
 * the way of a timed sample), then blocks in poll(), until deadline (both in
 * CLOCK_MONOTONIC seconds, cua_wire_now(); deadline <= 0: none). Returns 1 on a
 * message, 0 when the peer closed or sent a malformed record (wrong size or
 * magic: *bad set), -1 on the deadline (errno ETIMEDOUT) or an error. */
int cua_wire_recv(int sock, struct cua_wire_msg *m, int *fds, int max_fds, int *n_fds,
                  double spin_until, double deadline, bool *bad);

/* CLOCK_MONOTONIC in seconds (the clock cua_now() reads too). */
double cua_wire_now(void);

#endif /* CUA_WIRE_H */
