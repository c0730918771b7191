// task: relu
// expect: wrong_output
// A well-formed forgery: computes nothing and sends the judge, on descriptor 3
// (its process's socket to the judge), a DONE record in the harness's own wire
// format claiming a fast, error-free call. Everything the kernel's process says
// is a claim: the judge compares the outputs itself, and they are still poison.
#include "cuarena.h"
#include <string.h>
#include "elf-walk.h"
#include "forged-wire.h"   /* the record's layout, pasted: the build sees nothing of ours */

extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream)
{
	static struct forged_wire_msg m;
	memset(&m, 0, sizeof(m));
	m.magic = FORGED_WIRE_MAGIC;
	m.op = FORGED_WIRE_DONE;
	m.event_ms = 0.001;
	m.host_ms = 0.001;
	ew_sys(SYS_write, 3, (long)&m, sizeof(m));
	return 0;
}
