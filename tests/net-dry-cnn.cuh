/* net-dry-cnn.cuh — the dry backend (tests/net-dry.cu) for the ops of the CNN family
 * (tasks/common/net-cnn.cuh) and net.cuh's concat: each checks and allocates extents
 * as the real op does, nothing runs. Included by net-dry.cu after cua_net_dry. */
#ifndef TESTS_NET_DRY_CNN_CUH
#define TESTS_NET_DRY_CNN_CUH

static int cua_net_concat(cua_net_dry &b, const dact *xs, int n, dact *y)
{
	if (n < 1)
		return CUA_CHECK_E_COUNT;
	int64_t s[4];
	memcpy(s, xs[0].s, sizeof(s));
	s[1] = 0;
	for (int i = 0; i < n; i++) {
		if (xs[i].nd != xs[0].nd || xs[i].s[0] != xs[0].s[0] || xs[i].hw() != xs[0].hw())
			return CUA_CHECK_E_SHAPE;
		s[1] += xs[i].s[1];
	}
	return cua_net_alloc(b, xs[0].nd, s, y);
}

static int cua_cnn_shuffle(cua_net_dry &b, const dact &x, int64_t groups, dact *y)
{
	if (x.nd != 4)
		return CUA_CHECK_E_NDIM;
	if (groups < 1 || x.s[1] % groups != 0)
		return CUA_CHECK_E_PARAM;
	return cua_net_alloc(b, 4, x.s, y);
}

static int cua_cnn_sigmoid(cua_net_dry &b, dact *a)
{
	return cua_net_own(b, a);
}

static int cua_cnn_maxpool_ceil(cua_net_dry &b, const dact &x, int64_t k, int64_t s, int64_t p,
                                dact *y)
{
	if (x.nd != 4)
		return CUA_CHECK_E_NDIM;
	if (k < 1 || s < 1 || p < 0 || 2 * p > k)
		return CUA_CHECK_E_PARAM;
	const int64_t oh = cua_cnn_ceil_out(x.s[2], k, s, p), ow = cua_cnn_ceil_out(x.s[3], k, s, p);
	if (oh < 1 || ow < 1)
		return CUA_CHECK_E_SHAPE;
	return cua_net_alloc4(b, x.s[0], x.s[1], oh, ow, y);
}

#endif /* TESTS_NET_DRY_CNN_CUH */
