/* forged-wire.h — the judge's DONE record as an attacker would paste it: a copy of
 * harness/judge/wire.h's layout under other names, since a candidate's build sees
 * cuarena.h and nothing else of ours (its jail: docs/SECURITY.md). tests/test-wire.c
 * checks that it still matches the real record field by field. */
#ifndef FORGED_WIRE_H
#define FORGED_WIRE_H

#include <stdint.h>

#define FORGED_WIRE_MAGIC 0x63756177u   /* "cuaw" */
#define FORGED_WIRE_DONE 17

struct forged_wire_tensor {
	uint64_t size, offset;
	int32_t dtype, ndim;
	int64_t shape[8];
};

struct forged_wire_msg {
	uint32_t magic, op, seq, slot, flags, n_in, n_out;
	int32_t rc, cuda_err, where;
	double event_ms, host_ms;
	struct forged_wire_tensor t[16];
	char text[512];
};

#endif
