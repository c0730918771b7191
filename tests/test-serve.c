/* test-serve.c — what `cuarena serve` and `cuarena env` read before any work:
 * --listen addresses (harness/episode/serve-http.c) and reset requests (harness/episode/envproto.c).
 * The server itself is tested over loopback by tests/serve_test.py. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "episode/envproto.h"
#include "episode/serve.h"
#include "cuarena-test.h"

struct listen_case {
	const char *in, *host;
	int port;                  /* -1: refused */
};

Test(serve, listen_addresses_parse_or_are_refused)
{
	static const struct listen_case cases[] = {
		{"127.0.0.1:8177", "127.0.0.1", 8177},
		{"0.0.0.0:0", "0.0.0.0", 0},
		{"[::1]:9000", "::1", 9000},
		{"localhost:80", "localhost", 80},
		{"localhost", NULL, -1},          /* no port */
		{":8177", NULL, -1},              /* no host */
		{"::1:8177", NULL, -1},           /* a v6 address needs brackets */
		{"[::1]8177", NULL, -1},
		{"127.0.0.1:65536", NULL, -1},
		{"127.0.0.1:80x", NULL, -1},
		{"127.0.0.1:", NULL, -1},
		{"", NULL, -1},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct listen_case *c = &cases[i];
		char host[256] = "", err[CUA_ERR_LEN] = "";
		int port = -7;
		int rc = cua_serve_parse_listen(c->in, host, sizeof(host), &port, err, sizeof(err));
		if (c->port < 0) {
			cr_expect_eq(rc, -1, "'%s' was accepted", c->in);
			cr_expect(strstr(err, "HOST:PORT") && strstr(err, c->in), "'%s': %s", c->in,
			          err);
		} else {
			cr_expect_eq(rc, 0, "'%s': %s", c->in, err);
			cr_expect_str_eq(host, c->host);
			cr_expect_eq(port, c->port);
		}
	}
}

static struct cua_catalogue cat;

static void load(void)
{
	char err[CUA_ERR_LEN];
	enum cua_status st = cua_catalogue_load(root(), &cat, err, sizeof(err));
	cr_assert(st == CUA_OK || st == CUA_E_PARSE, "%s", err);
}

Test(envproto, a_reset_takes_its_defaults_and_checks_each_field, .init = load)
{
	struct { const char *json, *error; } cases[] = {
		{"{\"task\":\"relu\"}", NULL},
		{"{}", "\"task\" (a string) is required"},
		{"{\"task\":\"relu\",\"turns\":0}", "\"turns\" must be a number from 1 to 64"},
		{"{\"task\":\"relu\",\"turns\":\"8\"}", "\"turns\""},
		{"{\"task\":\"relu\",\"reward\":\"best\"}", "cuda-agent, kevin or log-speedup"},
		{"{\"task\":\"relu\",\"remeasure\":1}", "\"remeasure\" must be true or false"},
		{"{\"task\":\"nosuchtask\"}", "nosuchtask"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cJSON *req = cJSON_Parse(cases[i].json);
		struct cua_env_reset r;
		char err[CUA_ERR_LEN] = "";
		enum cua_status st = cua_env_parse_reset(&cat, req, &r, err, sizeof(err));
		if (!cases[i].error) {
			cr_expect_eq(st, CUA_OK, "%s: %s", cases[i].json, err);
			cr_expect_str_eq(r.task->id, "L1/019-relu");
			cr_expect_eq(r.turns, 8);
			cr_expect_eq(r.reward, CUA_REWARD_CUDA_AGENT);
			cr_expect_not(r.remeasure);
		} else {
			cr_expect_neq(st, CUA_OK, "%s was accepted", cases[i].json);
			cr_expect(strstr(err, cases[i].error), "%s: %s", cases[i].json, err);
		}
		cJSON_Delete(req);
	}
	cua_catalogue_clear(&cat);
}
