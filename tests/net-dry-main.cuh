/* net-dry-main.cuh — the driver shared by the shape-only network walks that take
 * several inputs and outputs (net-dry-seq.cu, net-dry-vit.cu): argv is a task
 * folder, its input shapes, "--", its output shapes ("d0xd1x..."); prints "ok",
 * "error N" or "unknown". The includer defines NET_DRY_NAME and, before this,
 * the table nets[] of { folder, dry_fn }. */
#ifndef NET_DRY_MAIN_CUH
#define NET_DRY_MAIN_CUH

static int usage(void)
{
	fprintf(stderr, "usage: " NET_DRY_NAME " FOLDER IN0 IN1 ... -- OUT0 ...  (shapes d0xd1x...)\n");
	return 2;
}

/* "d0xd1x..." into t (f32, a fake data pointer); 0 or -1. */
static int parse_shape(const char *s, struct cua_tensor *t, void *fake)
{
	memset(t, 0, sizeof(*t));
	t->data = fake;
	t->dtype = CUA_F32;
	while (*s) {
		char *end;
		long long v = strtoll(s, &end, 10);
		if (end == s || v < 1 || t->ndim == CUA_MAX_DIMS)
			return -1;
		t->shape[t->ndim++] = v;
		if (*end == 'x')
			end++;
		else if (*end)
			return -1;
		s = end;
	}
	return t->ndim > 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	static float fake;            /* a non-NULL data pointer, never dereferenced */
	struct cua_tensor in[16], out[16];
	int n_in = 0, n_out = 0, i = 2;
	dry_fn fn = NULL;
	if (argc < 4)
		return usage();
	for (size_t k = 0; k < sizeof(nets) / sizeof(nets[0]); k++)
		if (!strcmp(nets[k].folder, argv[1]))
			fn = nets[k].fn;
	if (!fn) {
		printf("unknown\n");
		return 3;
	}
	for (; i < argc && strcmp(argv[i], "--"); i++)
		if (n_in == 16 || parse_shape(argv[i], &in[n_in++], &fake))
			return usage();
	for (i++; i < argc; i++)
		if (n_out == 16 || parse_shape(argv[i], &out[n_out++], &fake))
			return usage();
	cua_net_dry b;
	memset((cua_net_base *)&b, 0, sizeof(cua_net_base));
	int rc = fn(b, in, n_in, out, n_out);
	if (rc) {
		printf("error %d\n", rc);
		return 1;
	}
	printf("ok\n");
	return 0;
}

#endif /* NET_DRY_MAIN_CUH */
