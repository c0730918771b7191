/* cmd-serve.c — `cuarena serve`: the reward service for RL trainers over HTTP
 * (docs/SERVE.md); runs until SIGINT or SIGTERM. */
#include "cli/cli.h"
#include "compile/compile.h"
#include "episode/serve.h"

#include <signal.h>
#include <string.h>

static void on_signal(int sig)
{
	(void)sig;
	cua_serve_stop();
}

static bool to_int(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (*end || end == s || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

int cmd_serve(struct cua_cli *cli, int argc, char **argv)
{
	struct cua_serve_opts o;
	char err[CUA_ERR_LEN];
	long n = 0;
	const char *store_dir = NULL;
	bool fresh = false;
	struct cua_bstore *store = NULL;

	cua_serve_opts_init(&o, cli->root, cli->self, cli->cache);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		bool ok = v != NULL;
		if (!strcmp(a, "--listen") && ok)
			o.listen = argv[++i];
		else if (!strcmp(a, "--gpus") && ok)
			o.gpus = argv[++i];
		else if (!strcmp(a, "--token-file") && ok)
			o.token_file = argv[++i];
		else if (!strcmp(a, "--results") && ok)
			o.results = argv[++i];
		else if (!strcmp(a, "--port-file") && ok)
			o.port_file = argv[++i];
		else if (!strcmp(a, "--queue") && ok && (ok = to_int(argv[++i], 1, 1000000, &n)))
			o.queue = (int)n;
		else if (!strcmp(a, "--jobs") && ok && (ok = to_int(argv[++i], 1, 256, &n)))
			o.jobs = (int)n;
		else if (!strcmp(a, "--max-episodes") && ok &&
		         (ok = to_int(argv[++i], 1, 1000000, &n)))
			o.max_episodes = (int)n;
		else if (!strcmp(a, "--max-connections") && ok &&
		         (ok = to_int(argv[++i], 16, 1000000, &n)))
			o.max_connections = (int)n;
		else if (!strcmp(a, "--max-per-client") && ok &&
		         (ok = to_int(argv[++i], 1, 1000000, &n)))
			o.max_per_client = (int)n;
		else if (!strcmp(a, "--client-timeout-s") && ok &&
		         (ok = to_int(argv[++i], 1, 3600, &n)))
			o.client_timeout_s = (int)n;
		else if (!strcmp(a, "--max-body") && ok &&
		         (ok = to_int(argv[++i], 1024, 64L << 20, &n)))
			o.max_body = (size_t)n;
		else if (!strcmp(a, "--max-time-s") && ok) {
			char *end;
			o.eval.max_time_s = strtod(argv[++i], &end);
			ok = !*end && o.eval.max_time_s > 0 && o.eval.max_time_s <= 600;
		} else if (!strcmp(a, "--baseline-store") && ok)
			store_dir = argv[++i];
		else if (!strcmp(a, "--fresh-baselines"))
			ok = fresh = true;
		else if (!strcmp(a, "--compile-timeout-s") && ok) {
			char *end;
			o.eval.build.timeout_s = strtod(argv[++i], &end);
			ok = !*end && o.eval.build.timeout_s > 0 && o.eval.build.timeout_s <= 3600;
		} else
			ok = false;
		if (!ok) {
			fprintf(stderr, "cuarena serve: bad option or value: %s\n", a);
			return cua_cli_usage("serve");
		}
	}
	/* a server takes code from anyone who reaches it: never builds it unjailed */
	if (!cua_build_jail_available(err, sizeof(err))) {
		fprintf(stderr, "cuarena serve: nvcc cannot be jailed here (%s): not serving "
		        "(docs/SECURITY.md; `cuarena doctor` says more)\n", err);
		return CUA_EXIT_ENV;
	}
	o.eval.build.jail = CUA_BUILD_JAIL_REQUIRE;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	int rc = cua_cli_bstore(cli, "serve", store_dir, fresh, &store);
	if (rc != CUA_EXIT_OK)
		return rc;
	o.eval.bstore = store;
	enum cua_status st = cua_serve(&o, err, sizeof(err));
	cua_cli_bstore_summary("serve", store);
	cua_bstore_free(store);
	if (st != CUA_OK) {
		fprintf(stderr, "cuarena serve: %s\n", err);
		return st == CUA_E_USAGE || st == CUA_E_PARSE ? CUA_EXIT_USAGE : CUA_EXIT_ENV;
	}
	return CUA_EXIT_OK;
}
