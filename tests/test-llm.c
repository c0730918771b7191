/* test-llm.c — the `llm` agent backend (agents/llm.c) against a fake
 * OpenAI-compatible server on 127.0.0.1 (an ephemeral port, a thread of this
 * test) serving scripted replies: code extraction, retries and backoff, timeouts,
 * broken bodies, fatal statuses, the conversation and its trimming, the API key,
 * config validation. (Code-block extraction: test-extract.c; the prompt helpers:
 * test-prompts.c.) */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <cjson/cJSON.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "episode/agent.h"
#include "cuarena-test.h"

/* ---- the fake server ------------------------------------------------------ */

/* One scripted answer. Request i gets step i (the last step once they run out). */
struct step {
	int status;                  /* 0: close the connection without answering */
	const char *headers;         /* extra header lines, each ending in \r\n (or NULL) */
	const char *body;
	double delay_s;              /* before answering; cut short if the client leaves */
	long extra_length;           /* Content-Length claims this many bytes more than sent */
};

#define MAX_REQ 32

static struct fake {
	int lfd, port;
	pthread_t thread;
	bool running;
	atomic_int stop;
	const struct step *steps;
	int nsteps;
	pthread_mutex_t mu;
	int nreq;
	char *head[MAX_REQ], *body[MAX_REQ];
	double at[MAX_REQ];
	int active, peak;            /* requests being answered now, and the most at once */
	pthread_t conn[MAX_REQ];     /* one thread per connection */
	int nconn;
} srv;

/* Reads one request: headers, then Content-Length bytes of body. */
static bool read_request(int c, char **head, char **body)
{
	size_t cap = 65536, len = 0, need = 0;
	char *buf = malloc(cap + 1), *hend = NULL;

	*head = *body = NULL;
	for (;;) {
		if (hend && len >= need)
			break;
		if (len == cap) {
			cap *= 2;
			buf = realloc(buf, cap + 1);
		}
		ssize_t r = recv(c, buf + len, cap - len, 0);
		if (r <= 0) {
			free(buf);
			return false;
		}
		len += (size_t)r;
		buf[len] = '\0';
		if (!hend && (hend = strstr(buf, "\r\n\r\n"))) {
			const char *cl = strcasestr(buf, "\r\ncontent-length:");
			size_t hl = (size_t)(hend - buf) + 4;
			need = hl + (cl && cl < hend ? strtoul(cl + 17, NULL, 10) : 0);
			if (need > cap) {
				size_t off = (size_t)(hend - buf);
				cap = need;
				buf = realloc(buf, cap + 1);
				hend = buf + off;
			}
		}
	}
	size_t hl = (size_t)(hend - buf) + 4;
	*head = strndup(buf, hl);
	*body = strndup(buf + hl, need - hl);
	free(buf);
	return true;
}

static void serve(int c)
{
	char *head, *body;

	if (!read_request(c, &head, &body))
		return;
	pthread_mutex_lock(&srv.mu);
	int i = srv.nreq++;
	if (i < MAX_REQ) {
		srv.head[i] = head;
		srv.body[i] = body;
		srv.at[i] = cua_now();
	} else {
		free(head);
		free(body);
	}
	const struct step *s = &srv.steps[i < srv.nsteps ? i : srv.nsteps - 1];
	if (++srv.active > srv.peak)
		srv.peak = srv.active;
	pthread_mutex_unlock(&srv.mu);

	bool gone = false;
	for (double until = cua_now() + s->delay_s; cua_now() < until && !srv.stop && !gone;) {
		struct pollfd p = { .fd = c, .events = POLLIN };
		gone = poll(&p, 1, 20) > 0;          /* the client gave up */
	}
	pthread_mutex_lock(&srv.mu);
	srv.active--;
	pthread_mutex_unlock(&srv.mu);
	if (gone || s->status == 0)
		return;
	char hdr[1024];
	size_t bl = strlen(s->body);
	int hl = snprintf(hdr, sizeof hdr,
	                  "HTTP/1.1 %d Scripted\r\nContent-Type: application/json\r\n"
	                  "Content-Length: %zu\r\nConnection: close\r\n%s\r\n",
	                  s->status, bl + (size_t)s->extra_length, s->headers ? s->headers : "");
	send(c, hdr, (size_t)hl, MSG_NOSIGNAL);
	send(c, s->body, bl, MSG_NOSIGNAL);
}

static void *conn_main(void *arg)
{
	int c = (int)(intptr_t)arg;
	serve(c);
	close(c);
	return NULL;
}

static void *server_main(void *arg)
{
	while (!srv.stop) {
		struct pollfd p = { .fd = srv.lfd, .events = POLLIN };
		if (poll(&p, 1, 20) <= 0)
			continue;
		int c = accept4(srv.lfd, NULL, NULL, SOCK_CLOEXEC);
		if (c < 0)
			continue;
		if (srv.nconn == MAX_REQ ||
		    pthread_create(&srv.conn[srv.nconn], NULL, conn_main, (void *)(intptr_t)c)) {
			close(c);
			continue;
		}
		srv.nconn++;
	}
	for (int i = 0; i < srv.nconn; i++)
		pthread_join(srv.conn[i], NULL);
	return NULL;
}

static void serve_steps(const struct step *steps, int n)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t al = sizeof a;

	srv.steps = steps;
	srv.nsteps = n;
	srv.lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	cr_assert_geq(srv.lfd, 0);
	cr_assert_eq(bind(srv.lfd, (struct sockaddr *)&a, sizeof a), 0, "%s", strerror(errno));
	cr_assert_eq(listen(srv.lfd, 16), 0);
	cr_assert_eq(getsockname(srv.lfd, (struct sockaddr *)&a, &al), 0);
	srv.port = ntohs(a.sin_port);
	cr_assert_eq(pthread_create(&srv.thread, NULL, server_main, NULL), 0);
	srv.running = true;
}

static void server_stop(void)
{
	if (srv.running) {
		srv.stop = 1;
		pthread_join(srv.thread, NULL);
		close(srv.lfd);
	}
	for (int i = 0; i < srv.nreq && i < MAX_REQ; i++) {
		free(srv.head[i]);
		free(srv.body[i]);
	}
	pthread_mutex_destroy(&srv.mu);
	memset(&srv, 0, sizeof srv);
}

static int requests(void)
{
	pthread_mutex_lock(&srv.mu);
	int n = srv.nreq;
	pthread_mutex_unlock(&srv.mu);
	return n;
}

/* ---- fixtures ---------------------------------------------------------------- */

static const struct cua_agent_i *ag;
static void *agent, *episode;
static struct cua_action act;
static char err[CUA_ERR_LEN];
static char *bodies[8];                  /* reply bodies built by ok_body() */
static int nbodies;

static void setup(void)
{
	ag = cua_agent_find("llm");
	cr_assert_not_null(ag, "the llm backend is not registered");
	memset(&srv, 0, sizeof srv);
	pthread_mutex_init(&srv.mu, NULL);
	agent = episode = NULL;
	memset(&act, 0, sizeof act);
	err[0] = '\0';
	tmp_make();                      /* for prompt files */
	/* Loopback must not go through a proxy from the environment. */
	setenv("NO_PROXY", "127.0.0.1", 1);
	setenv("no_proxy", "127.0.0.1", 1);
}

static void teardown(void)
{
	cua_action_clear(&act);
	if (episode)
		ag->end(agent, episode);
	if (agent)
		ag->free(agent);
	server_stop();
	for (int i = 0; i < nbodies; i++)
		free(bodies[i]);
	nbodies = 0;
	tmp_remove();
}

TestSuite(llm, .init = setup, .fini = teardown, .timeout = 20);

/* A successful chat completion with this content and usage (kept until teardown). */
static const char *ok_body(const char *content, int pt, int ct, const char *finish)
{
	cJSON *o = cJSON_CreateObject(), *choices = cJSON_AddArrayToObject(o, "choices");
	cJSON *c = cJSON_CreateObject(), *m = cJSON_AddObjectToObject(c, "message");
	cJSON_AddStringToObject(m, "role", "assistant");
	cJSON_AddStringToObject(m, "content", content);
	cJSON_AddStringToObject(c, "finish_reason", finish ? finish : "stop");
	cJSON_AddItemToArray(choices, c);
	cJSON *u = cJSON_AddObjectToObject(o, "usage");
	cJSON_AddNumberToObject(u, "prompt_tokens", pt);
	cJSON_AddNumberToObject(u, "completion_tokens", ct);
	cr_assert_lt(nbodies, 8);
	bodies[nbodies] = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return bodies[nbodies++];
}

/* init with base_url pointing at the fake server, fixed test templates, short
 * backoff and timeouts, and extra fields (a JSON fragment, or NULL) that
 * replace or add to those. */
static enum cua_status init_with(const char *fmt, ...)
{
	char extra[2048] = "", json[4096], more[2100];
	va_list ap;
	cJSON *c, *x, *f;

	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(extra, sizeof extra, fmt, ap);
		va_end(ap);
	}
	snprintf(json, sizeof json,
	         "{\"base_url\": \"http://127.0.0.1:%d/v1/\", \"model\": \"test-model\", "
	         "\"system_prompt\": \"%s\", \"turn_prompt\": \"%s\", \"backoff_base_s\": 0.01, "
	         "\"timeout_s\": 5, \"connect_timeout_s\": 2}",
	         srv.port, tmp_write("system.md", "SYS"),
	         tmp_write("turn.md", "T{{turn}}/{{max_turns}} {{task}}: {{observation}}"));
	snprintf(more, sizeof more, "{%s}", extra);
	c = cJSON_Parse(json);
	x = cJSON_Parse(more);
	cr_assert(c && x, "bad test config: %s", more);
	while ((f = x->child)) {
		cJSON_DetachItemViaPointer(x, f);
		cJSON_DeleteItemFromObjectCaseSensitive(c, f->string);
		cJSON_AddItemToObject(c, f->string, f);
	}
	cJSON_Delete(x);
	enum cua_status st = ag->init(c, &agent, err, sizeof err);
	cJSON_Delete(c);
	return st;
}

static void start(const char *fmt, ...)
{
	char extra[2048] = "";
	va_list ap;

	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(extra, sizeof extra, fmt, ap);
		va_end(ap);
	}
	cr_assert_eq(init_with(extra[0] ? "%s" : NULL, extra), CUA_OK, "init: %s", err);
	cr_assert_eq(ag->begin(agent, "L1/019-relu", root(), &episode, err, sizeof err), CUA_OK,
	             "begin: %s", err);
}

static enum cua_status turn(int t, const char *text)
{
	struct cua_observation obs = { .task_id = "L1/019-relu", .turn = t, .max_turns = 8,
	                               .text = text };
	cua_action_clear(&act);
	err[0] = '\0';
	return ag->propose(agent, episode, &obs, &act, err, sizeof err);
}

/* The messages of request i as [role, content] pairs. */
static cJSON *request_json(int i)
{
	cr_assert_lt(i, requests());
	cJSON *j = cJSON_Parse(srv.body[i]);
	cr_assert_not_null(j, "request %d is not JSON: %s", i, srv.body[i]);
	return j;
}

static void expect_message(const cJSON *msgs, int i, const char *role, const char *content)
{
	const cJSON *m = cJSON_GetArrayItem(msgs, i);
	cr_assert_not_null(m, "no message %d", i);
	cr_expect_str_eq(cJSON_GetObjectItem(m, "role")->valuestring, role, "message %d", i);
	cr_expect_str_eq(cJSON_GetObjectItem(m, "content")->valuestring, content, "message %d", i);
}

#define KERNEL "#include \"cuarena.h\"\n\nint cua_solve(const struct cua_tensor *in, int n_in,\n" \
	"              struct cua_tensor *out, int n_out, cudaStream_t stream)\n{\n\treturn 0;\n}\n"

/* ---- replies --------------------------------------------------------------- */

Test(llm, a_good_reply_yields_the_code_exactly_and_records_tokens)
{
	struct step s[] = { { .status = 200, NULL, ok_body("Here is a kernel.\n\n```cuda\n" KERNEL
	                                        "```\nIt is fast.", 1234, 567, NULL) } };
	serve_steps(s, 1);
	start(NULL);
	cr_assert_eq(turn(1, "the task"), CUA_OK, "%s", err);
	cr_expect_not(act.stop);
	cr_expect_str_eq(act.code, KERNEL);
	cr_expect_str_eq(act.reply, "Here is a kernel.\n\n```cuda\n" KERNEL "```\nIt is fast.");
	cr_expect_eq(act.prompt_tokens, 1234);
	cr_expect_eq(act.completion_tokens, 567);
	cr_expect_gt(act.latency_s, 0);
	cr_expect_str_eq(act.note, "");
	cr_expect_eq(requests(), 1);

	/* The request: path, headers, body. */
	cr_expect(!strncmp(srv.head[0], "POST /v1/chat/completions HTTP/1.1\r\n", 36), "%s",
	          srv.head[0]);
	cr_expect(strcasestr(srv.head[0], "\r\nContent-Type: application/json\r\n"));
	cr_expect_null(strcasestr(srv.head[0], "Authorization:"), "no key configured");
	cJSON *j = request_json(0);
	cr_expect_str_eq(cJSON_GetObjectItem(j, "model")->valuestring, "test-model");
	cr_expect_float_eq(cJSON_GetObjectItem(j, "temperature")->valuedouble, 0.7, 1e-9);
	cr_expect_eq(cJSON_GetObjectItem(j, "max_tokens")->valueint, 8192);
	const cJSON *msgs = cJSON_GetObjectItem(j, "messages");
	cr_expect_eq(cJSON_GetArraySize(msgs), 2);
	expect_message(msgs, 0, "system", "SYS");
	expect_message(msgs, 1, "user", "T1/8 L1/019-relu: the task");
	cJSON_Delete(j);
}

Test(llm, a_reply_without_a_code_block_is_not_an_error)
{
	struct step s[] = { { .status = 200, NULL, ok_body("I think we should use shared memory.", 10, 5,
	                                         NULL) } };
	serve_steps(s, 1);
	start(NULL);
	cr_assert_eq(turn(1, "the task"), CUA_OK, "%s", err);
	cr_expect_null(act.code);
	cr_expect_not(act.stop);
	cr_expect_str_eq(act.note, "the reply had no fenced code block");
	cr_expect_str_eq(act.reply, "I think we should use shared memory.");
	cr_expect_eq(act.completion_tokens, 5);
}

Test(llm, a_reply_cut_off_at_max_tokens_says_so_in_the_note)
{
	struct step s[] = { { .status = 200, NULL, ok_body("```cuda\nint cua_solve(", 10, 5, "length") } };
	serve_steps(s, 1);
	start("\"max_tokens\": 5");
	cr_assert_eq(turn(1, "the task"), CUA_OK, "%s", err);
	cr_expect_null(act.code);
	cr_expect(strstr(act.note, "not closed"), "%s", act.note);
	cr_expect(strstr(act.note, "max_tokens 5"), "%s", act.note);
}

/* ---- retries --------------------------------------------------------------- */

Test(llm, a_429_with_retry_after_is_retried_after_waiting)
{
	struct step s[] = {
		{ .status = 429, "Retry-After: 1\r\n", "{\"error\": {\"message\": \"slow down\"}}" },
		{ .status = 200, NULL, ok_body("```cuda\n" KERNEL "```", 1, 1, NULL) },
	};
	serve_steps(s, 2);
	start(NULL);
	cr_assert_eq(turn(1, "t"), CUA_OK, "%s", err);
	cr_expect_str_eq(act.code, KERNEL);
	cr_assert_eq(requests(), 2, "one retry");
	double waited = srv.at[1] - srv.at[0];
	cr_expect_geq(waited, 0.95, "waited only %.3f s", waited);
	cr_expect_lt(waited, 3.0, "waited %.3f s", waited);
}

Test(llm, retry_after_is_capped_at_backoff_max_s)
{
	struct step s[] = {
		{ .status = 503, "Retry-After: 100\r\n", "busy" },
		{ .status = 200, NULL, ok_body("```cuda\nx\n```", 1, 1, NULL) },
	};
	serve_steps(s, 2);
	start("\"backoff_max_s\": 0.2");
	cr_assert_eq(turn(1, "t"), CUA_OK, "%s", err);
	cr_assert_eq(requests(), 2);
	cr_expect_lt(srv.at[1] - srv.at[0], 1.5);
}

Test(llm, a_500_is_retried_then_succeeds)
{
	struct step s[] = {
		{ .status = 500, NULL, "{\"error\": \"internal\"}" },
		{ .status = 200, NULL, ok_body("```cuda\nx\n```", 1, 1, NULL) },
	};
	serve_steps(s, 2);
	start(NULL);
	cr_assert_eq(turn(1, "t"), CUA_OK, "%s", err);
	cr_expect_str_eq(act.code, "x\n");
	cr_expect_eq(requests(), 2);
}

Test(llm, retries_stop_after_max_retries_with_the_last_error)
{
	struct step s[] = { { .status = 500, NULL, "{\"error\": {\"message\": \"overloaded\"}}" } };
	serve_steps(s, 1);
	start("\"max_retries\": 2");
	cr_assert_neq(turn(1, "t"), CUA_OK);
	cr_expect_str_eq(err, "gave up after 3 attempts: HTTP 500: overloaded");
	cr_expect_eq(requests(), 3);
	cr_expect_null(act.code);
}

Test(llm, a_reply_slower_than_timeout_s_is_retried)
{
	struct step s[] = {
		{ .status = 200, NULL, "{}", 5.0 },
		{ .status = 200, NULL, ok_body("```cuda\nx\n```", 1, 1, NULL) },
	};
	serve_steps(s, 2);
	start("\"timeout_s\": 1");
	double t0 = cua_now();
	cr_assert_eq(turn(1, "t"), CUA_OK, "%s", err);
	cr_expect_eq(requests(), 2);
	cr_expect_geq(cua_now() - t0, 1.0);
	cr_expect_lt(cua_now() - t0, 4.0);
}

Test(llm, a_slow_reply_without_retries_fails_naming_the_timeout)
{
	struct step s[] = { { .status = 200, NULL, "{}", 5.0 } };
	serve_steps(s, 1);
	start("\"timeout_s\": 1, \"max_retries\": 0");
	cr_assert_eq(turn(1, "t"), CUA_E_TIMEOUT);
	cr_expect(strstr(err, "the request timed out (timeout_s 1,") == err, "%s", err);
	cr_expect_eq(requests(), 1);
}

Test(llm, malformed_json_is_retried_then_named)
{
	struct step s[] = { { .status = 200, NULL, "<html>502 Bad Gateway</html>" } };
	serve_steps(s, 1);
	start("\"max_retries\": 1");
	cr_assert_neq(turn(1, "t"), CUA_OK);
	cr_expect_str_eq(err, "gave up after 2 attempts: the response is not valid JSON: "
	                      "<html>502 Bad Gateway</html>");
	cr_expect_eq(requests(), 2);
}

Test(llm, malformed_json_then_a_good_reply_succeeds)
{
	struct step s[] = {
		{ .status = 200, NULL, "{\"choices\": [" },
		{ .status = 200, NULL, ok_body("```cuda\nx\n```", 1, 1, NULL) },
	};
	serve_steps(s, 2);
	start(NULL);
	cr_assert_eq(turn(1, "t"), CUA_OK, "%s", err);
	cr_expect_eq(requests(), 2);
}

Test(llm, a_reply_without_message_content_is_retried_then_named)
{
	struct step s[] = { { .status = 200, NULL, "{\"choices\": [{\"message\": {\"role\": \"assistant\", "
	                                 "\"content\": null}}]}" } };
	serve_steps(s, 1);
	start("\"max_retries\": 1");
	cr_assert_neq(turn(1, "t"), CUA_OK);
	cr_expect_str_eq(err, "gave up after 2 attempts: the response has no "
	                      "choices[0].message.content");
	cr_expect_eq(requests(), 2);
}

Test(llm, a_truncated_body_is_retried)
{
	struct step s[] = {
		{ .status = 200, NULL, "{\"choices\": [{\"message\"", 0, 500 },
		{ .status = 200, NULL, ok_body("```cuda\nx\n```", 1, 1, NULL) },
	};
	serve_steps(s, 2);
	start(NULL);
	cr_assert_eq(turn(1, "t"), CUA_OK, "%s", err);
	cr_expect_str_eq(act.code, "x\n");
	cr_expect_eq(requests(), 2);
}

Test(llm, a_truncated_body_without_retries_is_named)
{
	struct step s[] = { { .status = 200, NULL, "{\"choices\": [{\"message\"", 0, 500 } };
	serve_steps(s, 1);
	start("\"max_retries\": 0");
	cr_assert_neq(turn(1, "t"), CUA_OK);
	cr_expect(strstr(err, "the response body was cut off") == err, "%s", err);
}

Test(llm, a_401_fails_at_once_with_the_servers_message)
{
	struct step s[] = { { .status = 401, NULL, "{\"error\": {\"message\": \"Invalid token\", "
	                                 "\"type\": \"auth\"}}" } };
	serve_steps(s, 1);
	start(NULL);
	cr_assert_eq(turn(1, "t"), CUA_E_SYSTEM);
	cr_expect_str_eq(err, "HTTP 401: Invalid token");
	cr_expect_eq(requests(), 1, "no retry on 401");
}

Test(llm, a_400_with_a_plain_body_quotes_the_body)
{
	struct step s[] = { { .status = 400, NULL, "context length exceeded" } };
	serve_steps(s, 1);
	start(NULL);
	cr_assert_eq(turn(1, "t"), CUA_E_SYSTEM);
	cr_expect_str_eq(err, "HTTP 400: context length exceeded");
	cr_expect_eq(requests(), 1);
}

Test(llm, a_refused_connection_is_retried_then_named)
{
	/* A port that was just free: nothing listens there. */
	struct step s[] = { { .status = 200, NULL, "{}" } };
	serve_steps(s, 1);
	srv.stop = 1;
	pthread_join(srv.thread, NULL);
	close(srv.lfd);
	srv.running = false;
	start("\"max_retries\": 1");
	cr_assert_neq(turn(1, "t"), CUA_OK);
	cr_expect(strstr(err, "gave up after 2 attempts: Couldn't connect") == err, "%s", err);
}

struct worker {
	void *episode;
	enum cua_status st;
	struct cua_action act;
	char err[CUA_ERR_LEN];
};

static void *propose_main(void *arg)
{
	struct worker *w = arg;
	struct cua_observation obs = { .task_id = "L1/019-relu", .turn = 1, .max_turns = 8,
	                               .text = "t" };
	w->st = ag->propose(agent, w->episode, &obs, &w->act, w->err, sizeof w->err);
	return NULL;
}

Test(llm, max_concurrent_bounds_the_requests_in_flight_across_episodes)
{
	struct step s[] = { { .status = 200, NULL, ok_body("```cuda\nx\n```", 1, 1, NULL), 0.4 } };
	struct worker w[4];
	pthread_t th[4];
	serve_steps(s, 1);
	cr_assert_eq(init_with("\"max_concurrent\": 2"), CUA_OK, "%s", err);
	memset(w, 0, sizeof w);
	double t0 = cua_now();
	for (int i = 0; i < 4; i++) {
		cr_assert_eq(ag->begin(agent, "L1/019-relu", root(), &w[i].episode, err, sizeof err),
		             CUA_OK, "%s", err);
		cr_assert_eq(pthread_create(&th[i], NULL, propose_main, &w[i]), 0);
	}
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	/* Two rounds of >= 0.4 s: every answer, queued or not, took at least a
	 * round less than the whole (waiting for the limit is not latency). */
	double wall = cua_now() - t0;
	for (int i = 0; i < 4; i++) {
		cr_expect_eq(w[i].st, CUA_OK, "%s", w[i].err);
		cr_expect_str_eq(w[i].act.code, "x\n");
		cr_expect_lt(w[i].act.latency_s, wall - 0.3, "latency %.2f s of %.2f s",
		             w[i].act.latency_s, wall);
		cua_action_clear(&w[i].act);
		ag->end(agent, w[i].episode);
	}
	cr_expect_eq(requests(), 4);
	cr_expect_eq(srv.peak, 2, "peak %d requests at once", srv.peak);
}

/* ---- the conversation ------------------------------------------------------ */

Test(llm, the_conversation_grows_across_turns)
{
	const char *r1 = ok_body("first try\n```cuda\nA\n```", 1, 1, NULL);
	const char *r2 = ok_body("second try\n```cuda\nB\n```", 1, 1, NULL);
	struct step s[] = { { .status = 200, NULL, r1 }, { .status = 200, NULL, r2 } };
	serve_steps(s, 2);
	start("\"extra_body\": {\"top_p\": 0.9, \"temperature\": 0.1, \"max_tokens\": null}");
	cr_assert_eq(turn(1, "the task"), CUA_OK, "%s", err);
	cr_expect_str_eq(act.code, "A\n");
	cr_assert_eq(turn(2, "compile error"), CUA_OK, "%s", err);
	cr_expect_str_eq(act.code, "B\n");

	cJSON *j = request_json(1);
	const cJSON *msgs = cJSON_GetObjectItem(j, "messages");
	cr_assert_eq(cJSON_GetArraySize(msgs), 4);
	expect_message(msgs, 0, "system", "SYS");
	expect_message(msgs, 1, "user", "T1/8 L1/019-relu: the task");
	expect_message(msgs, 2, "assistant", "first try\n```cuda\nA\n```");
	expect_message(msgs, 3, "user", "T2/8 L1/019-relu: compile error");
	cr_expect_float_eq(cJSON_GetObjectItem(j, "top_p")->valuedouble, 0.9, 1e-9);
	cr_expect_float_eq(cJSON_GetObjectItem(j, "temperature")->valuedouble, 0.1, 1e-9,
	                   "extra_body overrides");
	cr_expect_null(cJSON_GetObjectItem(j, "max_tokens"), "a null in extra_body removes");
	cJSON_Delete(j);
}

/* cuarena run --resume: the turns taken before the restart are replayed into the
 * conversation, so the model sees what it saw (before, a resumed episode started
 * a new conversation from the latest feedback, without the task prompt). */
Test(llm, restored_turns_rebuild_the_conversation)
{
	const char *r3 = ok_body("third try\n```cuda\nC\n```", 1, 1, NULL);
	struct step s[] = { { .status = 200, NULL, r3 } };
	serve_steps(s, 1);
	start(NULL);
	struct cua_observation o1 = { .task_id = "L1/019-relu", .turn = 1, .max_turns = 8,
	                              .text = "the task" };
	struct cua_observation o2 = { .task_id = "L1/019-relu", .turn = 2, .max_turns = 8,
	                              .text = "compile error" };
	cr_assert_eq(ag->restore(agent, episode, &o1, "first try", err, sizeof err), CUA_OK, "%s",
	             err);
	cr_assert_eq(ag->restore(agent, episode, &o2, "", err, sizeof err), CUA_OK, "%s", err);
	cr_expect_eq(requests(), 0, "restoring asks the model nothing");
	cr_assert_eq(turn(3, "wrong output"), CUA_OK, "%s", err);
	cr_expect_str_eq(act.code, "C\n");

	cJSON *j = request_json(0);
	const cJSON *msgs = cJSON_GetObjectItem(j, "messages");
	cr_assert_eq(cJSON_GetArraySize(msgs), 6, "%s", srv.body[0]);
	expect_message(msgs, 0, "system", "SYS");
	expect_message(msgs, 1, "user", "T1/8 L1/019-relu: the task");
	expect_message(msgs, 2, "assistant", "first try");
	expect_message(msgs, 3, "user", "T2/8 L1/019-relu: compile error");
	expect_message(msgs, 4, "assistant", "(this reply was lost when the run was restarted)");
	expect_message(msgs, 5, "user", "T3/8 L1/019-relu: wrong output");
	cJSON_Delete(j);
}

Test(llm, a_tiny_context_budget_drops_the_oldest_reply_and_feedback)
{
	const char *r[3] = { ok_body("reply one", 1, 1, NULL), ok_body("reply two", 1, 1, NULL),
	                     ok_body("reply three", 1, 1, NULL) };
	struct step s[] = { { .status = 200, NULL, r[0] }, { .status = 200, NULL, r[1] }, { .status = 200, NULL, r[2] } };
	serve_steps(s, 3);
	start("\"context_budget_chars\": 10");
	cr_assert_eq(turn(1, "the task"), CUA_OK, "%s", err);
	cr_assert_eq(turn(2, "feedback two"), CUA_OK, "%s", err);
	cr_assert_eq(turn(3, "feedback three"), CUA_OK, "%s", err);

	cJSON *j = request_json(1);     /* nothing to drop yet: one reply */
	cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(j, "messages")), 4);
	cJSON_Delete(j);
	j = request_json(2);
	const cJSON *msgs = cJSON_GetObjectItem(j, "messages");
	cr_assert_eq(cJSON_GetArraySize(msgs), 4, "%s", srv.body[2]);
	expect_message(msgs, 0, "system", "SYS");
	expect_message(msgs, 1, "user", "T1/8 L1/019-relu: the task");
	expect_message(msgs, 2, "assistant", "reply two");
	expect_message(msgs, 3, "user", "T3/8 L1/019-relu: feedback three");
	cJSON_Delete(j);
}

Test(llm, a_large_budget_keeps_everything)
{
	const char *r = ok_body("reply", 1, 1, NULL);
	struct step s[] = { { .status = 200, NULL, r } };
	serve_steps(s, 1);
	start(NULL);
	for (int t = 1; t <= 4; t++)
		cr_assert_eq(turn(t, "obs"), CUA_OK, "%s", err);
	cJSON *j = request_json(3);
	cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(j, "messages")), 8);
	cJSON_Delete(j);
}

Test(llm, the_default_templates_come_from_docs_prompts_under_the_root)
{
	char path[4200], *sys = NULL, e[CUA_ERR_LEN];
	struct step s[] = { { .status = 200, NULL, ok_body("```cuda\nx\n```", 1, 1, NULL) } };
	serve_steps(s, 1);
	char json[512];
	snprintf(json, sizeof json, "{\"base_url\": \"http://127.0.0.1:%d/v1\", \"model\": \"m\"}",
	         srv.port);
	cJSON *c = cJSON_Parse(json);
	cr_assert_eq(ag->init(c, &agent, err, sizeof err), CUA_OK, "%s", err);
	cJSON_Delete(c);
	cr_assert_eq(ag->begin(agent, "L1/019-relu", root(), &episode, err, sizeof err), CUA_OK,
	             "%s", err);
	cr_assert_eq(turn(2, "OBSERVATION-TEXT"), CUA_OK, "%s", err);

	snprintf(path, sizeof path, "%s/data/prompts/system.md", root());
	cr_assert_eq(cua_read_file(path, 1 << 20, &sys, NULL, e, sizeof e), CUA_OK, "%s", e);
	cJSON *j = request_json(0);
	const cJSON *msgs = cJSON_GetObjectItem(j, "messages");
	expect_message(msgs, 0, "system", sys);
	const char *user = cJSON_GetObjectItem(cJSON_GetArrayItem(msgs, 1), "content")->valuestring;
	cr_expect(strstr(user, "OBSERVATION-TEXT"), "%s", user);
	cr_expect(strstr(user, "Turn 2 of 8"), "%s", user);
	cr_expect_null(strstr(user, "{{"), "a placeholder was left: %s", user);
	cJSON_Delete(j);
	free(sys);
}

Test(llm, a_missing_default_template_fails_begin_naming_it)
{
	char json[256];
	snprintf(json, sizeof json, "{\"base_url\": \"http://127.0.0.1:1/v1\", \"model\": \"m\"}");
	cJSON *c = cJSON_Parse(json);
	cr_assert_eq(ag->init(c, &agent, err, sizeof err), CUA_OK, "%s", err);
	cJSON_Delete(c);
	cr_assert_neq(ag->begin(agent, "L1/019-relu", tmp, &episode, err, sizeof err), CUA_OK);
	cr_expect(strstr(err, "system_prompt:") && strstr(err, "/data/prompts/system.md"), "%s",
	          err);
}

/* ---- the API key ----------------------------------------------------------- */

Test(llm, api_key_env_sends_a_bearer_header)
{
	setenv("CUA_TEST_KEY", "sk-test-SECRET-123", 1);
	struct step s[] = { { .status = 200, NULL, ok_body("```cuda\nx\n```", 1, 1, NULL) } };
	serve_steps(s, 1);
	start("\"api_key_env\": \"CUA_TEST_KEY\"");
	cr_assert_eq(turn(1, "t"), CUA_OK, "%s", err);
	cr_expect(strstr(srv.head[0], "\r\nAuthorization: Bearer sk-test-SECRET-123\r\n"), "%s",
	          srv.head[0]);
}

Test(llm, the_key_never_appears_in_an_error)
{
	setenv("CUA_TEST_KEY", "sk-test-SECRET-123", 1);
	struct step s[] = { { .status = 401, NULL, "{\"error\": {\"message\": \"Incorrect API key provided: "
	                                 "sk-test-SECRET-123.\"}}" } };
	serve_steps(s, 1);
	start("\"api_key_env\": \"CUA_TEST_KEY\"");
	cr_assert_eq(turn(1, "t"), CUA_E_SYSTEM);
	cr_expect_null(strstr(err, "SECRET"), "%s", err);
	cr_expect_str_eq(err, "HTTP 401: Incorrect API key provided: ***.");
}

/* ---- config ------------------------------------------------------------------ */

/* Strings are arrays: Criterion hands parameters to another process. */
struct config_case {
	char json[112];              /* fields after base_url, model, and the test templates */
	char err[96];                /* expected error (prefix) */
};

static struct config_case config_cases[] = {
	{ "\"temperature\": 3", "llm config: temperature: must be a number in [0, 2]" },
	{ "\"temperature\": \"hot\"", "llm config: temperature:" },
	{ "\"max_tokens\": 0", "llm config: max_tokens: must be an integer" },
	{ "\"max_tokens\": 1.5", "llm config: max_tokens: must be an integer" },
	{ "\"timeout_s\": 0", "llm config: timeout_s:" },
	{ "\"connect_timeout_s\": \"x\"", "llm config: connect_timeout_s:" },
	{ "\"max_concurrent\": 0", "llm config: max_concurrent:" },
	{ "\"max_retries\": -1", "llm config: max_retries:" },
	{ "\"backoff_base_s\": -1", "llm config: backoff_base_s:" },
	{ "\"backoff_max_s\": null", "llm config: backoff_max_s:" },
	{ "\"context_budget_chars\": 0", "llm config: context_budget_chars:" },
	{ "\"api_key_env\": \"CUA_TEST_NO_SUCH_VAR\"",
	  "llm config: api_key_env: the environment variable CUA_TEST_NO_SUCH_VAR is not set" },
	{ "\"api_key_env\": 7", "llm config: api_key_env: must be a non-empty string" },
	{ "\"extra_body\": [1]", "llm config: extra_body: must be an object" },
	{ "\"extra_body\": {\"messages\": []}", "llm config: extra_body: must not set" },
	{ "\"temprature\": 0.5", "llm config: temprature: unknown field" },
};

ParameterizedTestParameters(llm, config_errors_name_the_field)
{
	return cr_make_param_array(struct config_case, config_cases, CUA_ARRAY_LEN(config_cases));
}

ParameterizedTest(struct config_case *c, llm, config_errors_name_the_field)
{
	unsetenv("CUA_TEST_NO_SUCH_VAR");
	cr_assert_neq(init_with("%s", c->json), CUA_OK, "%s was accepted", c->json);
	cr_expect_null(agent);
	cr_expect(!strncmp(err, c->err, strlen(c->err)), "%s\n  want: %s\n  got:  %s", c->json,
	          c->err, err);
}

static struct config_case whole_cases[] = {
	{ "{}", "llm config: base_url: required" },
	{ "[]", "llm config: must be a JSON object" },
	{ "{\"base_url\": \"ftp://x\", \"model\": \"m\"}",
	  "llm config: base_url: must start with http:// or https://" },
	{ "{\"base_url\": \"http://x\"}", "llm config: model: required" },
	{ "{\"base_url\": \"http://x\", \"model\": \"m\", \"model\": \"n\"}",
	  "llm config: model: given twice" },
	{ "{\"base_url\": \"http://x\", \"model\": \"\"}", "llm config: model: must be a non-empty" },
	{ "{\"base_url\": \"http://x\", \"model\": \"m\", \"system_prompt\": \"/nonexistent/s.md\"}",
	  "llm config: system_prompt: /nonexistent/s.md: cannot open" },
	{ "{\"base_url\": \"http://x\", \"model\": \"m\", \"turn_prompt\": 5}",
	  "llm config: turn_prompt: must be a non-empty string" },
};

ParameterizedTestParameters(llm, whole_config_errors_name_the_field)
{
	return cr_make_param_array(struct config_case, whole_cases, CUA_ARRAY_LEN(whole_cases));
}

ParameterizedTest(struct config_case *c, llm, whole_config_errors_name_the_field)
{
	cJSON *j = cJSON_Parse(c->json);
	cr_assert_not_null(j, "%s", c->json);
	cr_assert_neq(ag->init(j, &agent, err, sizeof err), CUA_OK, "%s was accepted", c->json);
	cJSON_Delete(j);
	cr_expect_null(agent);
	cr_expect(!strncmp(err, c->err, strlen(c->err)), "%s\n  want: %s\n  got:  %s", c->json,
	          c->err, err);
}

Test(llm, no_config_is_an_error_naming_base_url)
{
	cr_assert_eq(ag->init(NULL, &agent, err, sizeof err), CUA_E_INVALID);
	cr_expect(strstr(err, "base_url"), "%s", err);
}
