/* net-dry-backend.cuh — the dry backend the net-dry walks share: its type and the
 * three ops every network calls (allocate, own, hand over an output), which check
 * extents and allocate nothing. Included after the tasks/common/net-*.cuh headers a
 * walk needs; family-specific ops stay in each tests/net-dry*.cu. */
#ifndef CUA_NET_DRY_BACKEND_CUH
#define CUA_NET_DRY_BACKEND_CUH

#include <string.h>
#include "cuarena.h"

struct cua_net_dry : cua_net_base {
	typedef float T;
};

typedef cua_act<float> dact;

static inline int cua_net_alloc(cua_net_dry &b, int nd, const int64_t *s, dact *a)
{
	memset(a, 0, sizeof(*a));
	if (nd < 1 || nd > 4)
		return CUA_CHECK_E_NDIM;
	a->nd = nd;
	for (int i = 0; i < nd; i++) {
		if (s[i] < 1)
			return CUA_CHECK_E_SHAPE;
		a->s[i] = s[i];
	}
	a->owned = true;          /* p stays NULL: cua_net_free has nothing to free */
	return 0;
}

static inline int cua_net_own(cua_net_dry &b, dact *a)
{
	a->owned = true;
	return 0;
}

static inline int cua_net_output(cua_net_dry &b, const dact &a, struct cua_tensor *t)
{
	if (t->dtype != CUA_F32)
		return CUA_CHECK_E_DTYPE;
	return cua_numel(t) == a.numel() ? 0 : CUA_CHECK_E_SHAPE;
}

#endif /* CUA_NET_DRY_BACKEND_CUH */
