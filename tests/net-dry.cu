/* net-dry.cu — every Level 3 reference's network run on a dry backend: shapes only,
 * no device. It walks the network as cua_solve would, checking each op's extents,
 * that the weights taken from `params` (params.cuh) end exactly at the task's P
 * and that the output has the task's element count: a reference that disagrees
 * with its task.json fails here, on a CPU, instead of at selftest on the GPU.
 *
 *     build/net-dry FOLDER P X0 X1 ... -- Y0 Y1 ...     # prints "ok" or the error
 *
 * tests/net-dry.sh feeds it every shape set of every Level 3 task it knows (the
 * table below; a task's reference is included in its own namespace, its
 * CUA_NET_ENTRY_POINTS turned into a dry entry point). Build:
 *     nvcc -std=c++17 -Iinclude -Itasks/common -o build/net-dry tests/net-dry.cu */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuarena.h"
#include "net-classic.cuh"
#include "net-cnn.cuh"
#include "net-vit.cuh"

/* ---- the dry backend: every op checks and allocates extents, nothing runs ---- */

#include "net-dry-backend.cuh"

/* net-vit.cuh's ops check and allocate, but launch nothing, on this backend */
template <>
struct vit_runs<cua_net_dry> {
	static const bool value = false;
};

static int cua_net_conv2d(cua_net_dry &b, const dact &x, const float *w, const float *bias,
                          const struct cua_conv_p &cp, dact *y)
{
	struct cua_conv_oracle_desc d;
	if (!w)
		return CUA_CHECK_E_NULL;
	CUA_CHECK(cua_net_conv_desc(x, cp, &d));
	return cua_net_alloc4(b, d.N, d.F, d.OH, d.OW, y);
}

static int cua_net_linear(cua_net_dry &b, const dact &x, const float *w, const float *bias,
                          int64_t out, dact *y)
{
	return cua_net_linear_prep(b, x, w, out, y);
}

static int cua_net_activate(cua_net_dry &b, dact *a, int act)
{
	return cua_net_own(b, a);
}

static int cua_net_add(cua_net_dry &b, dact *a, const dact &r, int act = CUA_NET_NONE)
{
	return a->numel() == r.numel() && a->nd == r.nd ? 0 : CUA_CHECK_E_SHAPE;
}

static int cua_net_batchnorm(cua_net_dry &b, dact *x, const float *gamma, const float *beta,
                             int act = CUA_NET_NONE, double eps = 1e-5)
{
	if (!gamma || !beta)
		return CUA_CHECK_E_NULL;
	return x->nd < 2 ? CUA_CHECK_E_NDIM : 0;
}

static int dry_pool(cua_net_dry &b, const dact &x, int64_t k, int64_t s, int64_t p, bool avg,
                    dact *y)
{
	struct cua_pool2d_desc d;
	CUA_CHECK(net_pool_desc(x, k, s, p, avg, &d));
	return cua_net_alloc4(b, d.N, d.C, d.OH, d.OW, y);
}

static int cua_net_maxpool2d(cua_net_dry &b, const dact &x, int64_t k, int64_t s, int64_t p,
                             dact *y)
{
	return dry_pool(b, x, k, s, p, false, y);
}

/* (avg pooling and softmax: for the networks still to come) */
__attribute__((unused)) static int cua_net_avgpool2d(cua_net_dry &b, const dact &x, int64_t k,
                                                     int64_t s, int64_t p, dact *y)
{
	return dry_pool(b, x, k, s, p, true, y);
}

static int cua_net_adaptive_avgpool2d(cua_net_dry &b, const dact &x, int64_t OH, int64_t OW,
                                      dact *y)
{
	if (x.nd != 4)
		return CUA_CHECK_E_NDIM;
	return cua_net_alloc4(b, x.s[0], x.s[1], OH, OW, y);
}

__attribute__((unused)) static int cua_net_softmax(cua_net_dry &b, dact *a)
{
	return 0;
}

#include "net-dry-cnn.cuh"

/* ---- every reference, in its own namespace ----------------------------------- */

typedef int (*dry_fn)(cua_net_dry &, const struct cua_tensor *, int, struct cua_tensor *, int);

#undef CUA_NET_ENTRY_POINTS
#define CUA_NET_ENTRY_POINTS(FORWARD)                                                     \
	static int dry(cua_net_dry &b, const struct cua_tensor *in, int n_in,                 \
	               struct cua_tensor *out, int n_out)                                     \
	{                                                                                     \
		return FORWARD(b, in, n_in, out, n_out);                                          \
	}

namespace t001 {
#include "../tasks/L3/001-mlp/reference.cu"
}
namespace t002 {
#include "../tasks/L3/002-shallow-wide-mlp/reference.cu"
}
namespace t003 {
#include "../tasks/L3/003-deep-narrow-mlp/reference.cu"
}
namespace t004 {
#include "../tasks/L3/004-lenet5/reference.cu"
}
namespace t005 {
#include "../tasks/L3/005-alexnet/reference.cu"
}
namespace t008 {
#include "../tasks/L3/008-resnet-basic-block/reference.cu"
}
namespace t009 {
#include "../tasks/L3/009-resnet18/reference.cu"
}
namespace t010 {
#include "../tasks/L3/010-resnet101/reference.cu"
}
namespace t011 {
#include "../tasks/L3/011-vgg16/reference.cu"
}
namespace t012 {
#include "../tasks/L3/012-vgg19/reference.cu"
}
namespace t028 {
#include "../tasks/L3/028-vision-transformer/reference.cu"
}
namespace t029 {
#include "../tasks/L3/029-swin-mlp/reference.cu"
}
namespace t030 {
#include "../tasks/L3/030-swin-transformer-v2/reference.cu"
}
namespace t032 {
#include "../tasks/L3/032-convolutional-vision-transformer/reference.cu"
}
namespace t045 {
#include "../tasks/L3/045-unet-softmax/reference.cu"
}
namespace t046 {
#include "../tasks/L3/046-netvlad-ghost-clusters/reference.cu"
}
namespace t047 {
#include "../tasks/L3/047-netvlad-no-ghost-clusters/reference.cu"
}

namespace t006 {
#include "../tasks/L3/006-googlenet-inception-module/reference.cu"
}
namespace t007 {
#include "../tasks/L3/007-googlenet-inception-v1/reference.cu"
}
namespace t013 {
#include "../tasks/L3/013-densenet121-transition-layer/reference.cu"
}
namespace t014 {
#include "../tasks/L3/014-densenet121-dense-block/reference.cu"
}
namespace t015 {
#include "../tasks/L3/015-densenet121/reference.cu"
}
namespace t016 {
#include "../tasks/L3/016-densenet201/reference.cu"
}
namespace t017 {
#include "../tasks/L3/017-squeezenet-fire-module/reference.cu"
}
namespace t018 {
#include "../tasks/L3/018-squeezenet/reference.cu"
}
namespace t019 {
#include "../tasks/L3/019-mobilenet-v1/reference.cu"
}
namespace t020 {
#include "../tasks/L3/020-mobilenet-v2/reference.cu"
}
namespace t021 {
#include "../tasks/L3/021-efficientnet-mbconv/reference.cu"
}
namespace t022 {
#include "../tasks/L3/022-efficientnet-b0/reference.cu"
}
namespace t023 {
#include "../tasks/L3/023-efficientnet-b1/reference.cu"
}
namespace t024 {
#include "../tasks/L3/024-efficientnet-b2/reference.cu"
}
namespace t025 {
#include "../tasks/L3/025-shufflenet-unit/reference.cu"
}
namespace t026 {
#include "../tasks/L3/026-shufflenet/reference.cu"
}
namespace t027 {
#include "../tasks/L3/027-regnet/reference.cu"
}

static const struct {
	const char *folder;
	dry_fn fn;
} nets[] = {
	{"001-mlp", t001::dry},
	{"002-shallow-wide-mlp", t002::dry},
	{"003-deep-narrow-mlp", t003::dry},
	{"004-lenet5", t004::dry},
	{"005-alexnet", t005::dry},
	{"008-resnet-basic-block", t008::dry},
	{"009-resnet18", t009::dry},
	{"010-resnet101", t010::dry},
	{"011-vgg16", t011::dry},
	{"012-vgg19", t012::dry},
	{"006-googlenet-inception-module", t006::dry},
	{"007-googlenet-inception-v1", t007::dry},
	{"013-densenet121-transition-layer", t013::dry},
	{"014-densenet121-dense-block", t014::dry},
	{"015-densenet121", t015::dry},
	{"016-densenet201", t016::dry},
	{"017-squeezenet-fire-module", t017::dry},
	{"018-squeezenet", t018::dry},
	{"019-mobilenet-v1", t019::dry},
	{"020-mobilenet-v2", t020::dry},
	{"021-efficientnet-mbconv", t021::dry},
	{"022-efficientnet-b0", t022::dry},
	{"023-efficientnet-b1", t023::dry},
	{"024-efficientnet-b2", t024::dry},
	{"025-shufflenet-unit", t025::dry},
	{"026-shufflenet", t026::dry},
	{"027-regnet", t027::dry},
	{"028-vision-transformer", t028::dry},
	{"029-swin-mlp", t029::dry},
	{"030-swin-transformer-v2", t030::dry},
	{"032-convolutional-vision-transformer", t032::dry},
	{"045-unet-softmax", t045::dry},
	{"046-netvlad-ghost-clusters", t046::dry},
	{"047-netvlad-no-ghost-clusters", t047::dry},
};

static int usage(void)
{
	fprintf(stderr, "usage: net-dry FOLDER P X0 X1 ... -- Y0 Y1 ...\n");
	return 2;
}

int main(int argc, char **argv)
{
	static float fake;            /* a non-NULL data pointer, never dereferenced */
	struct cua_tensor in[2], out[1];
	dry_fn fn = NULL;
	if (argc < 5)
		return usage();
	for (size_t i = 0; i < sizeof(nets) / sizeof(nets[0]); i++)
		if (!strcmp(nets[i].folder, argv[1]))
			fn = nets[i].fn;
	if (!fn) {
		printf("unknown\n");
		return 3;
	}
	memset(in, 0, sizeof(in));
	memset(out, 0, sizeof(out));
	in[1].data = &fake;
	in[1].dtype = CUA_F32;
	in[1].ndim = 1;
	in[1].shape[0] = atoll(argv[2]);
	in[0].data = &fake;
	in[0].dtype = CUA_F32;
	out[0].data = &fake;
	out[0].dtype = CUA_F32;
	int i = 3;
	for (; i < argc && strcmp(argv[i], "--"); i++)
		in[0].shape[in[0].ndim++] = atoll(argv[i]);
	if (i == argc || in[0].ndim < 1 || in[0].ndim > 4)
		return usage();
	for (i++; i < argc && out[0].ndim < 4; i++)
		out[0].shape[out[0].ndim++] = atoll(argv[i]);
	cua_net_dry b;
	memset((cua_net_base *)&b, 0, sizeof(cua_net_base));
	int rc = fn(b, in, 2, out, 1);
	if (rc) {
		printf("error %d\n", rc);
		return 1;
	}
	printf("ok\n");
	return 0;
}
