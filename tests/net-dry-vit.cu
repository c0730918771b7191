/* net-dry-vit.cu — the net-vit.cuh Level 3 references whose inputs are not `{x, params}`
 * (Mamba2, L3/048 and 049: X, A, B, C and no weights) walked on a dry backend, as
 * tests/net-dry.cu does for the others: shapes only, no device. net-vit.cuh's ops launch
 * nothing where vit_runs<B> is false; each checks and allocates extents, and the forward
 * must accept every shape set's inputs and produce every output's element count.
 *
 *     build/net-dry-vit FOLDER IN0 IN1 ... -- OUT0 ...     # each a shape "d0xd1x..."
 *                                                         # (a layered input: its P);
 *                                                         # prints "ok" or the error
 *
 * tests/net-dry-vit.sh feeds it every shape set of every task in the table below.
 * Build: nvcc -std=c++17 -Iinclude -Itasks/common -o build/net-dry-vit tests/net-dry-vit.cu */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuarena.h"
#include "net-vit.cuh"

#include "net-dry-backend.cuh"

template <>
struct vit_runs<cua_net_dry> {
	static const bool value = false;
};

typedef int (*dry_fn)(cua_net_dry &, const struct cua_tensor *, int, struct cua_tensor *, int);

#undef CUA_NET_ENTRY_POINTS
#define CUA_NET_ENTRY_POINTS(FORWARD)                                                     \
	static int dry(cua_net_dry &b, const struct cua_tensor *in, int n_in,                 \
	               struct cua_tensor *out, int n_out)                                     \
	{                                                                                     \
		return FORWARD(b, in, n_in, out, n_out);                                          \
	}

namespace t048 {
#include "../tasks/L3/048-mamba2-return-y/reference.cu"
}
namespace t049 {
#include "../tasks/L3/049-mamba2-return-final-state/reference.cu"
}

static const struct {
	const char *folder;
	dry_fn fn;
} nets[] = {
	{"048-mamba2-return-y", t048::dry},
	{"049-mamba2-return-final-state", t049::dry},
};

#define NET_DRY_NAME "net-dry-vit"
#include "net-dry-main.cuh"
