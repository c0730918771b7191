/* llm.c — the `llm` agent backend: a chat model behind an OpenAI-compatible
 * POST {base_url}/chat/completions (vLLM, SGLang, llama.cpp server, Ollama,
 * hosted APIs), over libcurl.
 *
 * One conversation per episode: the system prompt, then the task prompt and
 * each turn's feedback as user messages (data/prompts/turn.md filled in), the
 * model's replies as assistant messages; trimmed to a character budget by
 * dropping the oldest (reply, feedback) pairs. The kernel is the reply's fenced
 * code block (harness/episode/extract.h). Transient failures (429, 408, 5xx, timeouts,
 * lost connections, bodies that are cut off or not the expected JSON) are
 * retried with exponential backoff and full jitter, honouring Retry-After; a
 * semaphore bounds the requests in flight across episodes. The API key is read
 * from the environment variable the config names and never appears in an
 * error message. */
#include "episode/agent.h"
#include "episode/extract.h"
#include "catalogue/prompts.h"

#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define RESPONSE_MAX (32u << 20)          /* bytes of one response body */
#define PROMPT_FILE_MAX (4u << 20)
#define MESSAGE_SHOWN 300                 /* of a server's error message */

struct llm_agent {
	char *url;                   /* {base_url}/chat/completions */
	char *model;
	char *api_key;               /* NULL: no Authorization header */
	double temperature;
	long max_tokens;
	double timeout_s, connect_timeout_s;
	int max_retries;
	double backoff_base_s, backoff_max_s;
	long context_budget;         /* chars of all messages' contents */
	cJSON *extra_body;           /* merged into each request (may be NULL) */
	char *system, *turn;         /* the templates; NULL until loaded */
	pthread_mutex_t load_mu;     /* guards loading default templates in begin() */

	pthread_mutex_t mu;          /* the request semaphore */
	pthread_cond_t cv;
	int in_flight, max_concurrent;
};

struct message {
	const char *role;            /* "system", "user", "assistant" (static) */
	char *content;               /* heap */
};

struct llm_episode {
	char *task;
	struct message *msgs;        /* msgs[0] system (when non-empty), then user first */
	size_t n, cap;
	size_t first_user;           /* index of the task prompt */
	uint64_t rng;                /* jitter */
};

/* ---- process-wide setup -------------------------------------------------- */

static pthread_once_t global_once = PTHREAD_ONCE_INIT;
static CURLcode global_rc = CURLE_OK;

/* curl_global_init once; SIGPIPE ignored (CURLOPT_NOSIGNAL leaves it to us)
 * unless someone installed a handler. */
static void global_init(void)
{
	struct sigaction old;

	global_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
	if (sigaction(SIGPIPE, NULL, &old) == 0 && old.sa_handler == SIG_DFL &&
	    !(old.sa_flags & SA_SIGINFO)) {
		struct sigaction ign = { .sa_handler = SIG_IGN };
		sigaction(SIGPIPE, &ign, NULL);
	}
}

/* ---- config -------------------------------------------------------------- */

/* Known fields, sorted; each validated in llm_init. */
static const char *const known_fields[] = {
	"api_key_env", "backoff_base_s", "backoff_max_s", "base_url", "connect_timeout_s",
	"context_budget_chars", "extra_body", "max_concurrent", "max_retries", "max_tokens",
	"model", "system_prompt", "temperature", "timeout_s", "turn_prompt",
};

static void agent_free(void *agent)
{
	struct llm_agent *a = agent;

	if (!a)
		return;
	free(a->url);
	free(a->model);
	if (a->api_key) {
		memset(a->api_key, 0, strlen(a->api_key));
		free(a->api_key);
	}
	cJSON_Delete(a->extra_body);
	free(a->system);
	free(a->turn);
	pthread_mutex_destroy(&a->load_mu);
	pthread_mutex_destroy(&a->mu);
	pthread_cond_destroy(&a->cv);
	free(a);
}

/* A number field in [lo, hi] (integral when `integer`); absent keeps *v. */
static bool num_field(const cJSON *config, const char *name, double lo, double hi,
                      bool integer, double *v, char *err, size_t errlen)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(config, name);

	if (!f)
		return true;
	if (!cJSON_IsNumber(f) || !isfinite(f->valuedouble) || f->valuedouble < lo ||
	    f->valuedouble > hi || (integer && f->valuedouble != floor(f->valuedouble))) {
		cua_errf(err, errlen, "llm config: %s: must be %s in [%g, %g]", name,
		         integer ? "an integer" : "a number", lo, hi);
		return false;
	}
	*v = f->valuedouble;
	return true;
}

/* A non-empty string field; absent leaves *v NULL (or required fails). */
static bool str_field(const cJSON *config, const char *name, bool required,
                      const char **v, char *err, size_t errlen)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(config, name);

	*v = NULL;
	if (!f && !required)
		return true;
	if (!f || !cJSON_IsString(f) || !*f->valuestring) {
		cua_errf(err, errlen, "llm config: %s: %s", name,
		         f ? "must be a non-empty string" : "required");
		return false;
	}
	*v = f->valuestring;
	return true;
}

static enum cua_status load_template(const char *field, const char *path, char **out,
                                     char *err, size_t errlen)
{
	char e[CUA_ERR_LEN];
	enum cua_status st = cua_read_file(path, PROMPT_FILE_MAX, out, NULL, e, sizeof e);

	if (st != CUA_OK)
		cua_errf(err, errlen, "llm config: %s: %s", field, e);
	return st;
}

/* Creates the agent from its config (required: base_url, model). */
static enum cua_status llm_init(const cJSON *config, void **agent, char *err,
                                size_t errlen)
{
	enum cua_status result = CUA_E_INVALID;
	struct llm_agent *a = NULL;
	const char *base_url, *model, *key_env, *sys_path, *turn_path;
	double max_tokens = 8192, max_concurrent = 4, max_retries = 6, budget = 200000;
	const cJSON *f;

	*agent = NULL;
	if (!cJSON_IsObject(config)) {
		cua_errf(err, errlen, "llm config: %s", config ? "must be a JSON object"
		                                       : "base_url: required (no config given)");
		return CUA_E_INVALID;
	}
	if (cua_config_check_fields(config, "llm config", known_fields,
	                            CUA_ARRAY_LEN(known_fields), err, errlen) != CUA_OK)
		return CUA_E_INVALID;
	pthread_once(&global_once, global_init);
	if (global_rc != CURLE_OK) {
		cua_errf(err, errlen, "llm: curl_global_init failed: %s",
		         curl_easy_strerror(global_rc));
		return CUA_E_SYSTEM;
	}
	a = cua_xcalloc(1, sizeof(*a));
	pthread_mutex_init(&a->load_mu, NULL);
	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->cv, NULL);
	a->temperature = 0.7;
	a->timeout_s = 600;
	a->connect_timeout_s = 10;
	a->backoff_base_s = 1.0;
	a->backoff_max_s = 60;

	if (!str_field(config, "base_url", true, &base_url, err, errlen) ||
	    !str_field(config, "model", true, &model, err, errlen) ||
	    !str_field(config, "api_key_env", false, &key_env, err, errlen) ||
	    !str_field(config, "system_prompt", false, &sys_path, err, errlen) ||
	    !str_field(config, "turn_prompt", false, &turn_path, err, errlen) ||
	    !num_field(config, "temperature", 0, 2, false, &a->temperature, err, errlen) ||
	    !num_field(config, "max_tokens", 1, 1e7, true, &max_tokens, err, errlen) ||
	    !num_field(config, "timeout_s", 0.001, 86400, false, &a->timeout_s, err, errlen) ||
	    !num_field(config, "connect_timeout_s", 0.001, 3600, false, &a->connect_timeout_s,
	               err, errlen) ||
	    !num_field(config, "max_concurrent", 1, 1024, true, &max_concurrent, err, errlen) ||
	    !num_field(config, "max_retries", 0, 100, true, &max_retries, err, errlen) ||
	    !num_field(config, "backoff_base_s", 0, 3600, false, &a->backoff_base_s, err,
	               errlen) ||
	    !num_field(config, "backoff_max_s", 0, 86400, false, &a->backoff_max_s, err,
	               errlen) ||
	    !num_field(config, "context_budget_chars", 1, 1e9, true, &budget, err, errlen))
		goto out;
	a->max_tokens = (long)max_tokens;
	a->max_concurrent = (int)max_concurrent;
	a->max_retries = (int)max_retries;
	a->context_budget = (long)budget;

	if (strncmp(base_url, "http://", 7) && strncmp(base_url, "https://", 8)) {
		cua_errf(err, errlen, "llm config: base_url: must start with http:// or https://");
		goto out;
	}
	size_t bl = strlen(base_url);
	while (bl > 0 && base_url[bl - 1] == '/')
		bl--;
	a->url = cua_xmalloc(bl + sizeof("/chat/completions"));
	a->model = cua_xstrdup(model);
	snprintf(a->url, bl + sizeof("/chat/completions"), "%.*s/chat/completions", (int)bl,
	         base_url);

	if (key_env) {
		const char *key = getenv(key_env);
		if (!key || !*key) {
			cua_errf(err, errlen, "llm config: api_key_env: the environment variable "
			         "%s is not set", key_env);
			goto out;
		}
		if (strpbrk(key, "\r\n")) {
			cua_errf(err, errlen, "llm config: api_key_env: the value of %s holds a "
			         "line break", key_env);
			goto out;
		}
		a->api_key = cua_xstrdup(key);
	}
	if ((f = cJSON_GetObjectItemCaseSensitive(config, "extra_body"))) {
		if (!cJSON_IsObject(f)) {
			cua_errf(err, errlen, "llm config: extra_body: must be an object");
			goto out;
		}
		if (cJSON_GetObjectItemCaseSensitive(f, "model") ||
		    cJSON_GetObjectItemCaseSensitive(f, "messages")) {
			cua_errf(err, errlen, "llm config: extra_body: must not set model or "
			         "messages");
			goto out;
		}
		a->extra_body = cua_xcheck(cJSON_Duplicate(f, true));
	}
	/* Named templates load now (relative to the current directory); the
	 * defaults load from the task root at the first begin(). */
	if ((sys_path && (result = load_template("system_prompt", sys_path, &a->system, err,
	                                         errlen)) != CUA_OK) ||
	    (turn_path && (result = load_template("turn_prompt", turn_path, &a->turn, err,
	                                          errlen)) != CUA_OK))
		goto out;
	*agent = a;
	a = NULL;
	result = CUA_OK;
out:
	agent_free(a);
	return result;
}

/* ---- episodes and the conversation --------------------------------------- */

static void episode_free(struct llm_episode *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->n; i++)
		free(e->msgs[i].content);
	free(e->msgs);
	free(e->task);
	free(e);
}

/* Appends a message; takes ownership of content. */
static void push(struct llm_episode *e, const char *role, char *content)
{
	if (e->n == e->cap) {
		size_t ncap = e->cap ? e->cap * 2 : 16;
		e->msgs = cua_xrealloc(e->msgs, ncap * sizeof(*e->msgs));
		e->cap = ncap;
	}
	e->msgs[e->n++] = (struct message){ .role = role, .content = content };
}

static void pop(struct llm_episode *e)
{
	if (e->n > 0)
		free(e->msgs[--e->n].content);
}

/* Drops the oldest (reply, feedback) pairs after the task prompt while the
 * conversation is over the budget; the system prompt, the task prompt, and
 * the newest reply and feedback always stay, so roles keep alternating. */
static void trim(struct llm_episode *e, long budget)
{
	size_t total = 0, first = e->first_user + 1;

	for (size_t i = 0; i < e->n; i++)
		total += strlen(e->msgs[i].content);
	while (total > (size_t)budget && e->n >= first + 4) {
		total -= strlen(e->msgs[first].content) + strlen(e->msgs[first + 1].content);
		free(e->msgs[first].content);
		free(e->msgs[first + 1].content);
		memmove(&e->msgs[first], &e->msgs[first + 2],
		        (e->n - first - 2) * sizeof(*e->msgs));
		e->n -= 2;
	}
}

/* Loads the default templates from cua_prompts_dir(root) once. */
static enum cua_status load_defaults(struct llm_agent *a, const char *root, char *err,
                                     size_t errlen)
{
	enum cua_status st = CUA_OK;
	char dir[CUA_PATH_LEN], path[CUA_PATH_BUF];

	pthread_mutex_lock(&a->load_mu);
	if (!a->system) {
		cua_prompts_dir(root, dir, sizeof dir);
		snprintf(path, sizeof path, "%s/system.md", dir);
		st = load_template("system_prompt", path, &a->system, err, errlen);
	}
	if (st == CUA_OK && !a->turn) {
		cua_prompts_dir(root, dir, sizeof dir);
		snprintf(path, sizeof path, "%s/turn.md", dir);
		st = load_template("turn_prompt", path, &a->turn, err, errlen);
	}
	pthread_mutex_unlock(&a->load_mu);
	return st;
}

static enum cua_status llm_begin(void *agent, const char *task_id, const char *root,
                                 void **episode, char *err, size_t errlen)
{
	struct llm_agent *a = agent;
	struct llm_episode *e;
	struct timespec ts;
	enum cua_status st;

	*episode = NULL;
	if ((st = load_defaults(a, root, err, errlen)) != CUA_OK)
		return st;
	e = cua_xcalloc(1, sizeof(*e));
	e->task = cua_xstrdup(task_id ? task_id : "");
	clock_gettime(CLOCK_REALTIME, &ts);
	e->rng = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ (uint64_t)(uintptr_t)e ^
	         ((uint64_t)getpid() << 40);
	if (*a->system)
		push(e, "system", cua_xstrdup(a->system));
	e->first_user = e->n;
	*episode = e;
	return CUA_OK;
}

static void llm_end(void *agent, void *episode)
{
	episode_free(episode);
}

/* ---- one HTTP request ------------------------------------------------------ */

/* How an attempt ended. */
enum outcome { DONE, TRANSIENT, FATAL };

struct body {
	char *buf;
	size_t len, cap;
	bool too_big;
};

static size_t on_data(char *p, size_t size, size_t nmemb, void *userdata)
{
	struct body *b = userdata;
	size_t n = size * nmemb;

	if (b->len + n > RESPONSE_MAX) {
		b->too_big = true;
		return 0;
	}
	if (b->len + n + 1 > b->cap) {
		size_t ncap = b->cap ? b->cap * 2 : 65536;
		while (ncap < b->len + n + 1)
			ncap *= 2;
		b->buf = cua_xrealloc(b->buf, ncap);
		b->cap = ncap;
	}
	memcpy(b->buf + b->len, p, n);
	b->len += n;
	b->buf[b->len] = '\0';
	return n;
}

/* Printable, one-line excerpt of s[0..n). */
static void excerpt(const char *s, size_t n, char *out, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < n && o + 4 < len && i < MESSAGE_SHOWN; i++) {
		unsigned char c = (unsigned char)s[i];
		out[o++] = c < 0x20 || c == 0x7f ? ' ' : (char)c;
	}
	if (n > MESSAGE_SHOWN && o + 4 < len) {
		memcpy(out + o, "...", 3);
		o += 3;
	}
	out[o] = '\0';
}

/* The server's own words from an error body: error.message, error, detail or
 * message, else the start of the body. */
static void server_message(const struct body *b, char *out, size_t len)
{
	cJSON *j = b->buf ? cJSON_ParseWithLength(b->buf, b->len) : NULL;
	const cJSON *m = NULL, *err = cJSON_GetObjectItemCaseSensitive(j, "error");

	if (cJSON_IsObject(err))
		m = cJSON_GetObjectItemCaseSensitive(err, "message");
	else if (cJSON_IsString(err))
		m = err;
	if (!cJSON_IsString(m))
		m = cJSON_GetObjectItemCaseSensitive(j, "detail");
	if (!cJSON_IsString(m))
		m = cJSON_GetObjectItemCaseSensitive(j, "message");
	if (cJSON_IsString(m))
		excerpt(m->valuestring, strlen(m->valuestring), out, len);
	else if (b->len)
		excerpt(b->buf, b->len, out, len);
	else
		snprintf(out, len, "(empty body)");
	cJSON_Delete(j);
}

/* What a successful attempt returns. */
struct answer {
	char *content;               /* heap */
	char finish[32];             /* finish_reason, "" if absent */
	int prompt_tokens, completion_tokens;
};

/* Parses a 2xx body. TRANSIENT when it is not what an OpenAI-compatible server
 * sends (a proxy's error page, a body cut off, a reply without content). */
static enum outcome parse_answer(const struct body *b, struct answer *ans, char *why,
                                 size_t whylen)
{
	enum outcome oc = TRANSIENT;
	cJSON *j = cJSON_ParseWithLength(b->buf ? b->buf : "", b->len);
	const cJSON *choice, *msg, *content, *usage, *fr, *t;
	char ex[MESSAGE_SHOWN + 8];

	if (!cJSON_IsObject(j)) {
		excerpt(b->buf ? b->buf : "", b->len, ex, sizeof ex);
		cua_errf(why, whylen, "the response is not valid JSON: %s", ex);
		goto out;
	}
	choice = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "choices"), 0);
	msg = cJSON_GetObjectItemCaseSensitive(choice, "message");
	content = cJSON_GetObjectItemCaseSensitive(msg, "content");
	if (!cJSON_IsString(content)) {
		const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "error");
		if (e) {
			server_message(b, ex, sizeof ex);
			cua_errf(why, whylen, "the response has no choices[0].message.content "
			         "but an error: %s", ex);
		} else {
			cua_errf(why, whylen, "the response has no choices[0].message.content");
		}
		goto out;
	}
	ans->content = cua_xstrdup(content->valuestring);
	fr = cJSON_GetObjectItemCaseSensitive(choice, "finish_reason");
	if (cJSON_IsString(fr))
		snprintf(ans->finish, sizeof ans->finish, "%s", fr->valuestring);
	usage = cJSON_GetObjectItemCaseSensitive(j, "usage");
	t = cJSON_GetObjectItemCaseSensitive(usage, "prompt_tokens");
	if (cJSON_IsNumber(t) && t->valuedouble >= 0 && t->valuedouble <= INT_MAX)
		ans->prompt_tokens = (int)t->valuedouble;
	t = cJSON_GetObjectItemCaseSensitive(usage, "completion_tokens");
	if (cJSON_IsNumber(t) && t->valuedouble >= 0 && t->valuedouble <= INT_MAX)
		ans->completion_tokens = (int)t->valuedouble;
	oc = DONE;
out:
	cJSON_Delete(j);
	return oc;
}

/* Whether a libcurl failure is worth another attempt. */
static bool curl_transient(CURLcode rc)
{
	switch (rc) {
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_CONNECT:
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_PARTIAL_FILE:
	case CURLE_GOT_NOTHING:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
	case CURLE_BAD_CONTENT_ENCODING:
		return true;
	default:
		return false;
	}
}

/* One POST. DONE fills ans; otherwise why says what went wrong and
 * *retry_after holds the server's Retry-After in seconds (0 if none). */
static enum outcome attempt(struct llm_agent *a, const char *req, struct answer *ans,
                            double *retry_after, char *why, size_t whylen)
{
	enum outcome oc = FATAL;
	CURL *h = curl_easy_init();
	struct curl_slist *hdrs = NULL, *nh;
	struct body b = {0};
	char cerr[CURL_ERROR_SIZE] = "", msg[MESSAGE_SHOWN + 8], *auth = NULL;
	long status = 0;
	CURLcode rc;

	*retry_after = 0;
	if (!h) {
		cua_errf(why, whylen, "curl_easy_init failed");
		return FATAL;
	}
	static const char *const fixed[] = { "Content-Type: application/json",
	                                     "Accept: application/json", "Expect:" };
	for (size_t i = 0; i < CUA_ARRAY_LEN(fixed); i++) {
		hdrs = cua_xcheck(curl_slist_append(hdrs, fixed[i]));
	}
	if (a->api_key) {
		size_t n = strlen(a->api_key) + sizeof("Authorization: Bearer ");
		auth = cua_xmalloc(n);
		snprintf(auth, n, "Authorization: Bearer %s", a->api_key);
		nh = curl_slist_append(hdrs, auth);
		memset(auth, 0, n);
		hdrs = cua_xcheck(nh);
	}
	curl_easy_setopt(h, CURLOPT_URL, a->url);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
	curl_easy_setopt(h, CURLOPT_POSTFIELDS, req);
	curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)strlen(req));
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &b);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, cerr);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)ceil(a->timeout_s * 1e3));
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, (long)ceil(a->connect_timeout_s * 1e3));
	curl_easy_setopt(h, CURLOPT_USERAGENT, "cuarena-llm/1");
	curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");

	rc = curl_easy_perform(h);
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
	if (rc != CURLE_OK) {
		if (rc == CURLE_WRITE_ERROR && b.too_big) {
			cua_errf(why, whylen, "the response is larger than %u MiB", RESPONSE_MAX >> 20);
		} else if (rc == CURLE_OPERATION_TIMEDOUT) {
			cua_errf(why, whylen, "the request timed out (timeout_s %g, "
			         "connect_timeout_s %g): %s", a->timeout_s, a->connect_timeout_s,
			         cerr[0] ? cerr : curl_easy_strerror(rc));
		} else if (rc == CURLE_PARTIAL_FILE) {
			cua_errf(why, whylen, "the response body was cut off: %s",
			         cerr[0] ? cerr : curl_easy_strerror(rc));
		} else {
			cua_errf(why, whylen, "%s: %s", curl_easy_strerror(rc),
			         cerr[0] ? cerr : "no detail");
		}
		oc = curl_transient(rc) ? TRANSIENT : FATAL;
		goto out;
	}
	if (status < 200 || status > 299) {
		curl_off_t ra = 0;
		if (curl_easy_getinfo(h, CURLINFO_RETRY_AFTER, &ra) == CURLE_OK && ra > 0)
			*retry_after = (double)ra;
		server_message(&b, msg, sizeof msg);
		cua_errf(why, whylen, "HTTP %ld: %s", status, msg);
		oc = status == 408 || status == 429 || status >= 500 ? TRANSIENT : FATAL;
		goto out;
	}
	oc = parse_answer(&b, ans, why, whylen);
out:
	free(auth);
	curl_slist_free_all(hdrs);
	curl_easy_cleanup(h);
	free(b.buf);
	return oc;
}

/* ---- one turn ------------------------------------------------------------ */

/* The request body for the conversation as it stands. Heap. */
static char *request_json(const struct llm_agent *a, const struct llm_episode *e)
{
	cJSON *o = cJSON_CreateObject(), *msgs, *m, *x;
	char *s = NULL;

	if (!o || !cJSON_AddStringToObject(o, "model", a->model) ||
	    !(msgs = cJSON_AddArrayToObject(o, "messages")))
		goto out;
	for (size_t i = 0; i < e->n; i++) {
		if (!(m = cJSON_CreateObject()) || !cJSON_AddItemToArray(msgs, m) ||
		    !cJSON_AddStringToObject(m, "role", e->msgs[i].role) ||
		    !cJSON_AddStringToObject(m, "content", e->msgs[i].content))
			goto out;
	}
	if (!cJSON_AddNumberToObject(o, "temperature", a->temperature) ||
	    !cJSON_AddNumberToObject(o, "max_tokens", (double)a->max_tokens))
		goto out;
	/* extra_body adds fields or replaces ours; a null removes one (e.g.
	 * "max_tokens": null for APIs that want max_completion_tokens). */
	cJSON_ArrayForEach(x, a->extra_body) {
		cJSON_DeleteItemFromObjectCaseSensitive(o, x->string);
		if (cJSON_IsNull(x))
			continue;
		cJSON *dup = cJSON_Duplicate(x, true);
		if (!dup)
			goto out;
		cJSON_AddItemToObject(o, x->string, dup);
	}
	s = cJSON_PrintUnformatted(o);
out:
	cJSON_Delete(o);
	return s;
}

static uint64_t next_random(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - floor(s)) * 1e9) };

	while (s > 0 && nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Replaces every occurrence of the API key in s with "***" (in place). */
static void redact(const struct llm_agent *a, char *s)
{
	size_t kl;
	char *p;

	if (!a->api_key || !s || (kl = strlen(a->api_key)) == 0)
		return;
	while ((p = strstr(s, a->api_key))) {
		memcpy(p, "***", 3);
		memmove(p + 3, p + kl, strlen(p + kl) + 1);
	}
}

static void sem_acquire(struct llm_agent *a)
{
	pthread_mutex_lock(&a->mu);
	while (a->in_flight >= a->max_concurrent)
		pthread_cond_wait(&a->cv, &a->mu);
	a->in_flight++;
	pthread_mutex_unlock(&a->mu);
}

static void sem_release(struct llm_agent *a)
{
	pthread_mutex_lock(&a->mu);
	a->in_flight--;
	pthread_cond_signal(&a->cv);
	pthread_mutex_unlock(&a->mu);
}

/* Appends a turn's user message: the turn template filled with the observation. */
static void push_turn(const struct llm_agent *a, struct llm_episode *e,
                      const struct cua_observation *obs)
{
	char turn[32], max_turns[32];
	snprintf(turn, sizeof turn, "%d", obs->turn);
	snprintf(max_turns, sizeof max_turns, "%d", obs->max_turns);
	const char *keys[] = { "observation", "turn", "max_turns", "task" };
	const char *vals[] = { obs->text ? obs->text : "", turn, max_turns,
	                       obs->task_id ? obs->task_id : e->task };
	push(e, "user", cua_prompts_fill(a->turn, keys, vals, CUA_ARRAY_LEN(keys)));
}

static enum cua_status llm_propose(void *agent, void *episode,
                                   const struct cua_observation *obs,
                                   struct cua_action *act, char *err, size_t errlen)
{
	struct llm_agent *a = agent;
	struct llm_episode *e = episode;
	enum cua_status result = CUA_E_SYSTEM;
	struct answer ans = {0};
	char why[CUA_ERR_LEN] = "", *req = NULL;
	double t0 = cua_now(), queued = 0;
	enum outcome oc = FATAL;
	int tries = 0;

	memset(act, 0, sizeof(*act));
	if (!e) {
		cua_errf(err, errlen, "llm: propose without begin");
		return CUA_E_USAGE;
	}
	push_turn(a, e, obs);
	trim(e, a->context_budget);
	req = cua_xcheck(request_json(a, e));

	for (tries = 1;; tries++) {
		double retry_after = 0, q0 = cua_now();

		sem_acquire(a);
		queued += cua_now() - q0;
		oc = attempt(a, req, &ans, &retry_after, why, sizeof why);
		sem_release(a);
		if (oc != TRANSIENT || tries > a->max_retries)
			break;
		double cap = a->backoff_base_s * pow(2.0, tries - 1);
		if (cap > a->backoff_max_s)
			cap = a->backoff_max_s;
		double wait = retry_after > 0
		              ? fmin(retry_after, a->backoff_max_s)
		              : cap * ((double)(next_random(&e->rng) >> 11) / 9007199254740992.0);
		sleep_s(wait);
	}
	if (oc != DONE) {
		redact(a, why);
		if (oc == TRANSIENT && tries > 1)
			cua_errf(err, errlen, "gave up after %d attempts: %s", tries, why);
		else
			cua_errf(err, errlen, "%s", why);
		pop(e);
		result = strstr(why, "timed out") ? CUA_E_TIMEOUT : CUA_E_SYSTEM;
		goto out;
	}

	act->code = cua_extract_code(ans.content, act->note, sizeof act->note);
	if (!act->code && !strcmp(ans.finish, "length")) {
		size_t nl = strlen(act->note);
		snprintf(act->note + nl, sizeof act->note - nl,
		         " (finish_reason \"length\": max_tokens %ld reached)", a->max_tokens);
	}
	act->reply = cua_xstrdup(ans.content);
	act->prompt_tokens = ans.prompt_tokens;
	act->completion_tokens = ans.completion_tokens;
	push(e, "assistant", ans.content);
	ans.content = NULL;                 /* the conversation's now */
	act->latency_s = cua_now() - t0 - queued;
	result = CUA_OK;
out:
	free(ans.content);
	cJSON_free(req);
	return result;
}

/* A turn from before a restart: the same user message propose built, then the
 * reply the model gave, so the conversation is what it was. */
static enum cua_status llm_restore(void *agent, void *episode,
                                   const struct cua_observation *obs, const char *reply,
                                   char *err, size_t errlen)
{
	struct llm_agent *a = agent;
	struct llm_episode *e = episode;

	if (!e) {
		cua_errf(err, errlen, "llm: restore without begin");
		return CUA_E_USAGE;
	}
	push_turn(a, e, obs);
	push(e, "assistant", cua_xstrdup(reply && reply[0] ? reply
	                                 : "(this reply was lost when the run was restarted)"));
	trim(e, a->context_budget);
	return CUA_OK;
}

const struct cua_agent_i cua_agent_llm = {
	.name = "llm",
	.version = "1",
	.init = llm_init,
	.begin = llm_begin,
	.propose = llm_propose,
	.restore = llm_restore,
	.end = llm_end,
	.free = agent_free,
};
CUA_AGENT_REGISTER(cua_agent_llm);
