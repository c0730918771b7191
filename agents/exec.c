/* exec.c — the `exec` agent backend: any program, one process per episode,
 * speaking JSON lines on its stdin/stdout (docs/AGENT-PROTOCOL.md).
 *
 * begin() starts the program in its own process group (harness/run-command.c,
 * with its three streams as pipes); propose() writes one
 * observation line and reads one action line within timeout_s; end() closes
 * the program's stdin, gives it a moment, then kills its process group and
 * reaps it. A crashing, silent or garbage-writing program ends its episode
 * with a reason; the harness never blocks on it past the deadline, never dies
 * of SIGPIPE, and leaves no zombie. */
#include "episode/agent.h"
#include "sandbox.h"
#include "run-command.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_TIMEOUT_S 300.0
#define DEFAULT_MAX_LINE (4u << 20)       /* one action line, bytes */
#define STDERR_KEEP 8192                  /* tail of the agent's stderr kept */
#define STDERR_SHOWN 360                  /* of which shown in an error */
#define EXCERPT_LEN 120                   /* of a bad line shown in an error */
#define READ_CHUNK 65536
#define TICK_MS 50                        /* poll tick: notice an exit without EOF */
#define EXIT_GRACE_S 0.2                  /* reading on after the agent exited */
#define END_GRACE_S 0.5                   /* end(): time to exit after stdin EOF */

struct exec_agent {
	char **argv;                 /* the command (heap, NULL-terminated) */
	char *path;                  /* argv[0] resolved in PATH when it has no '/' */
	char **envp;                 /* "K=V" (heap, NULL-terminated) */
	char *cwd;                   /* NULL: the harness's */
	double timeout_s;
	size_t max_line;
};

struct exec_episode {
	struct cua_child child;      /* the agent (pid -1 once reaped), our ends of its
	                              * stdin, stdout, stderr (non-blocking; -1 when
	                              * closed), how it ended */
	char *wbuf;                  /* observation bytes not yet written */
	size_t wlen, woff;
	char *obuf;                  /* stdout bytes read and not yet consumed */
	size_t olen, ocap, scanned;  /* scanned: prefix known to hold no '\n' */
	long lines;                  /* stdout lines consumed so far */
	char tail[STDERR_KEEP];      /* the last bytes of its stderr */
	size_t tail_len;
};

/* ---- small helpers ------------------------------------------------------- */

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void free_strv(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/* SIGPIPE must not kill the harness when an agent closes its stdin early:
 * ignore it unless someone installed a handler. */
static void ignore_sigpipe(void)
{
	struct sigaction old;

	if (sigaction(SIGPIPE, NULL, &old) == 0 && old.sa_handler == SIG_DFL &&
	    !(old.sa_flags & SA_SIGINFO)) {
		struct sigaction ign = { .sa_handler = SIG_IGN };
		sigaction(SIGPIPE, &ign, NULL);
	}
}

static pthread_once_t sigpipe_once = PTHREAD_ONCE_INIT;

/* The value of K in a "K=V" list, or NULL. */
static const char *env_get(char **envp, const char *k)
{
	size_t kl = strlen(k);

	for (size_t i = 0; envp && envp[i]; i++)
		if (!strncmp(envp[i], k, kl) && envp[i][kl] == '=')
			return envp[i] + kl + 1;
	return NULL;
}

/* name searched in the colon-separated path list; heap, or NULL if absent. */
static char *search_path(const char *name, const char *path)
{
	size_t nl = strlen(name);

	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *p = path;;) {
		const char *end = strchr(p, ':');
		size_t dl = end ? (size_t)(end - p) : strlen(p);
		char *cand = cua_xmalloc(dl + nl + 3);
		struct stat st;

		snprintf(cand, dl + nl + 3, "%.*s/%s", (int)(dl ? dl : 1), dl ? p : ".", name);
		if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0)
			return cand;
		free(cand);
		if (!end)
			return NULL;
		p = end + 1;
	}
}

/* ---- config -------------------------------------------------------------- */

static const char *const known_fields[] = {
	"command", "cwd", "env", "max_line_bytes", "timeout_s",
};

static void agent_free(void *agent)
{
	struct exec_agent *a = agent;

	if (!a)
		return;
	free_strv(a->argv);
	free(a->path);
	free_strv(a->envp);
	free(a->cwd);
	free(a);
}

/* The minimal environment (PATH, HOME, LANG from ours) plus the config's env. */
static enum cua_status build_env(struct exec_agent *a, const cJSON *env, char *err,
                                 size_t errlen)
{
	static const char *const inherited[] = { "PATH", "HOME", "LANG" };
	size_t n = 0, cap = CUA_ARRAY_LEN(inherited) + (size_t)cJSON_GetArraySize(env) + 1;
	const cJSON *e;

	a->envp = cua_xcalloc(cap, sizeof(char *));
	for (size_t i = 0; i < CUA_ARRAY_LEN(inherited); i++) {
		const char *v = getenv(inherited[i]);
		if (!v || cJSON_GetObjectItemCaseSensitive(env, inherited[i]))
			continue;
		a->envp[n++] = cua_env_pair(inherited[i], v);
	}
	cJSON_ArrayForEach(e, env) {
		if (!cJSON_IsString(e)) {
			cua_errf(err, errlen, "exec config: env.%s: must be a string", e->string);
			return CUA_E_INVALID;
		}
		if (!*e->string || strchr(e->string, '=')) {
			cua_errf(err, errlen, "exec config: env: \"%s\" is not a variable name",
			         e->string);
			return CUA_E_INVALID;
		}
		a->envp[n++] = cua_env_pair(e->string, e->valuestring);
	}
	return CUA_OK;
}

/* Creates the agent from its config (required: command). */
static enum cua_status exec_init(const cJSON *config, void **agent, char *err,
                                 size_t errlen)
{
	enum cua_status result = CUA_E_INVALID;
	struct exec_agent *a = NULL;
	const cJSON *f, *cmd, *env = NULL;
	int argc;

	*agent = NULL;
	if (!cJSON_IsObject(config)) {
		cua_errf(err, errlen, "exec config: %s", config ? "must be a JSON object"
		                                        : "command: required (no config given)");
		return CUA_E_INVALID;
	}
	if (cua_config_check_fields(config, "exec config", known_fields,
	                            CUA_ARRAY_LEN(known_fields), err, errlen) != CUA_OK)
		return CUA_E_INVALID;
	a = cua_xcalloc(1, sizeof(*a));
	a->timeout_s = DEFAULT_TIMEOUT_S;
	a->max_line = DEFAULT_MAX_LINE;

	cmd = cJSON_GetObjectItemCaseSensitive(config, "command");
	if (!cmd) {
		cua_errf(err, errlen, "exec config: command: required (an array of strings)");
		goto out;
	}
	argc = cJSON_GetArraySize(cmd);
	if (!cJSON_IsArray(cmd) || argc < 1) {
		cua_errf(err, errlen, "exec config: command: must be a non-empty array of strings");
		goto out;
	}
	a->argv = cua_xcalloc((size_t)argc + 1, sizeof(char *));
	for (int i = 0; i < argc; i++) {
		const cJSON *s = cJSON_GetArrayItem(cmd, i);
		if (!cJSON_IsString(s) || (i == 0 && !*s->valuestring)) {
			cua_errf(err, errlen, "exec config: command[%d]: must be a %sstring", i,
			         i == 0 ? "non-empty " : "");
			goto out;
		}
		a->argv[i] = cua_xstrdup(s->valuestring);
	}

	if ((f = cJSON_GetObjectItemCaseSensitive(config, "timeout_s"))) {
		if (!cJSON_IsNumber(f) || !isfinite(f->valuedouble) || f->valuedouble <= 0 ||
		    f->valuedouble > 1e6) {
			cua_errf(err, errlen, "exec config: timeout_s: must be a number of seconds "
			         "in (0, 1e6]");
			goto out;
		}
		a->timeout_s = f->valuedouble;
	}
	if ((f = cJSON_GetObjectItemCaseSensitive(config, "max_line_bytes"))) {
		if (!cJSON_IsNumber(f) || f->valuedouble != floor(f->valuedouble) ||
		    f->valuedouble < 1024 || f->valuedouble > (double)(1u << 30)) {
			cua_errf(err, errlen, "exec config: max_line_bytes: must be an integer in "
			         "[1024, 2^30]");
			goto out;
		}
		a->max_line = (size_t)f->valuedouble;
	}
	if ((f = cJSON_GetObjectItemCaseSensitive(config, "cwd"))) {
		struct stat st;
		if (!cJSON_IsString(f) || !*f->valuestring) {
			cua_errf(err, errlen, "exec config: cwd: must be a non-empty string");
			goto out;
		}
		if (stat(f->valuestring, &st) != 0 || !S_ISDIR(st.st_mode)) {
			cua_errf(err, errlen, "exec config: cwd: %s: not a directory",
			         f->valuestring);
			goto out;
		}
		a->cwd = cua_xstrdup(f->valuestring);
	}
	if ((env = cJSON_GetObjectItemCaseSensitive(config, "env")) && !cJSON_IsObject(env)) {
		cua_errf(err, errlen, "exec config: env: must be an object of strings");
		goto out;
	}
	if ((result = build_env(a, env, err, errlen)) != CUA_OK)
		goto out;
	result = CUA_E_INVALID;

	if (strchr(a->argv[0], '/')) {
		a->path = cua_xstrdup(a->argv[0]);   /* relative: to the child's cwd */
	} else {
		a->path = search_path(a->argv[0], env_get(a->envp, "PATH"));
		if (!a->path) {
			cua_errf(err, errlen, "exec config: command[0]: %s: not found in PATH",
			         a->argv[0]);
			result = CUA_E_NOT_FOUND;
			goto out;
		}
	}
	pthread_once(&sigpipe_once, ignore_sigpipe);
	*agent = a;
	a = NULL;
	result = CUA_OK;
out:
	agent_free(a);
	return result;
}

/* ---- the child process --------------------------------------------------- */

static void episode_free(struct exec_episode *e)
{
	if (!e)
		return;
	cua_child_clear(&e->child);
	free(e->wbuf);
	free(e->obuf);
	free(e);
}

/* Starts the agent's process for one episode: its own process group, every
 * signal at its default, no descriptor of ours but its three pipes. */
static enum cua_status exec_begin(void *agent, const char *task_id, const char *root,
                                  void **episode, char *err, size_t errlen)
{
	struct exec_agent *a = agent;
	struct exec_episode *e;
	enum cua_status result;
	char why[CUA_ERR_LEN];

	*episode = NULL;
	e = cua_xcalloc(1, sizeof(*e));
	cua_child_init(&e->child);
	e->child.path = a->path;
	e->child.argv = a->argv;
	e->child.envp = a->envp;
	e->child.cwd = a->cwd;
	e->child.in = e->child.out = e->child.err = CUA_CHILD_PIPE;
	e->child.flags = CUA_CHILD_NEW_PGRP | CUA_CHILD_DEFAULT_SIG | CUA_CHILD_CLOSE_FDS |
	                 CUA_CHILD_NONBLOCK;
	if ((result = cua_child_start(&e->child, why, sizeof(why))) != CUA_OK) {
		cua_errf(err, errlen, "exec: %s", why);
		episode_free(e);
		return result;
	}
	*episode = e;
	return CUA_OK;
}

/* Closes the agent's stdin, waits briefly for it to exit, kills its process
 * group, reaps it and frees the episode. */
static void exec_end(void *agent, void *episode)
{
	struct exec_episode *e = episode;

	if (!e)
		return;
	close_fd(&e->child.to_child);
	if (e->child.pid > 0) {
		double until = cua_now() + END_GRACE_S;
		while (!cua_child_exited(&e->child) && cua_now() < until) {
			struct timespec ts = { 0, 10 * 1000000L };
			nanosleep(&ts, NULL);
		}
	}
	episode_free(e);
}

/* ---- one turn ------------------------------------------------------------ */

/* Keeps the last STDERR_KEEP bytes. */
static void tail_add(struct exec_episode *e, const char *p, size_t n)
{
	if (n > STDERR_KEEP) {
		p += n - STDERR_KEEP;
		n = STDERR_KEEP;
	}
	if (e->tail_len + n > STDERR_KEEP) {
		size_t drop = e->tail_len + n - STDERR_KEEP;
		memmove(e->tail, e->tail + drop, e->tail_len - drop);
		e->tail_len -= drop;
	}
	memcpy(e->tail + e->tail_len, p, n);
	e->tail_len += n;
}

/* Reads what its stderr holds now (bounded, so that a flood cannot hold us
 * past the deadline); closes it at EOF. */
static void drain_stderr(struct exec_episode *e)
{
	char buf[4096];

	for (int i = 0; i < 64 && e->child.from_err >= 0; i++) {
		ssize_t r = read(e->child.from_err, buf, sizeof buf);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == EAGAIN)
			return;
		if (r <= 0) {
			close_fd(&e->child.from_err);
			return;
		}
		tail_add(e, buf, (size_t)r);
	}
}

/* Reads what its stdout holds now (up to the line cap plus a chunk). Returns
 * false at EOF (out_fd closed). */
static bool read_stdout(struct exec_episode *e, size_t max_line)
{
	while (e->child.from_out >= 0) {
		if (e->olen > max_line + 1)
			return true;                 /* over the cap: the caller reports it */
		if (e->ocap - e->olen < READ_CHUNK) {
			size_t ncap = e->ocap ? e->ocap * 2 : 2 * READ_CHUNK;
			while (ncap - e->olen < READ_CHUNK)
				ncap *= 2;
			e->obuf = cua_xrealloc(e->obuf, ncap + 1);
			e->ocap = ncap;
		}
		ssize_t r = read(e->child.from_out, e->obuf + e->olen, e->ocap - e->olen);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == EAGAIN)
			return true;
		if (r <= 0) {
			close_fd(&e->child.from_out);
			return false;
		}
		e->olen += (size_t)r;
	}
	return false;
}

/* Writes pending observation bytes; on EPIPE (the agent closed its stdin or
 * died) drops them and closes our end. */
static void write_stdin(struct exec_episode *e)
{
	while (e->child.to_child >= 0 && e->woff < e->wlen) {
		ssize_t w = write(e->child.to_child, e->wbuf + e->woff, e->wlen - e->woff);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN)
			return;
		if (w <= 0) {
			close_fd(&e->child.to_child);
			break;
		}
		e->woff += (size_t)w;
	}
	if (e->woff >= e->wlen || e->child.to_child < 0)
		e->woff = e->wlen = 0;
}

/* ", stderr: <its last lines on one line>" into buf, or "" when it was silent. */
static void stderr_excerpt(const struct exec_episode *e, char *buf, size_t len)
{
	size_t n = e->tail_len, start;
	char *o = buf, *end = buf + len - 1;

	while (n > 0 && (e->tail[n - 1] == '\n' || e->tail[n - 1] == '\r' ||
	                 e->tail[n - 1] == ' ' || e->tail[n - 1] == '\t'))
		n--;
	buf[0] = '\0';
	if (n == 0)
		return;
	start = n > STDERR_SHOWN ? n - STDERR_SHOWN : 0;
	if (start > 0) {                 /* begin at a line if one starts nearby */
		const char *nl = memchr(e->tail + start, '\n', n - start);
		if (nl && (size_t)(nl - e->tail) < start + STDERR_SHOWN / 2)
			start = (size_t)(nl - e->tail) + 1;
	}
	o += snprintf(o, len, "; stderr: %s", start > 0 ? "..." : "");
	for (size_t i = start; i < n && o < end; i++) {
		unsigned char c = (unsigned char)e->tail[i];
		if (c == '\n') {
			if (end - o < 3)
				break;
			memcpy(o, " | ", 3);
			o += 3;
		} else if (c != '\r') {
			*o++ = c < 0x20 || c == 0x7f ? ' ' : (char)c;
		}
	}
	*o = '\0';
}

/* Replaces invalid UTF-8 in s[0..n) by U+FFFD (agents read their stdin as
 * UTF-8; compile logs may hold anything). Heap, NUL-terminated; *out_len set. */
static char *utf8_clean(const char *s, size_t n, size_t *out_len)
{
	char *out = cua_xmalloc(n * 3 + 2), *o = out;
	const unsigned char *p = (const unsigned char *)s, *end = p + n;

	while (p < end) {
		unsigned c = *p;
		size_t k = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
		bool ok = k > 0 && (size_t)(end - p) >= k;
		for (size_t i = 1; ok && i < k; i++)
			ok = (p[i] & 0xC0) == 0x80;
		if (ok && k > 1) {
			unsigned long cp = c & (0x7F >> k);
			for (size_t i = 1; i < k; i++)
				cp = (cp << 6) | (p[i] & 0x3F);
			ok = !(k == 2 && cp < 0x80) && !(k == 3 && cp < 0x800) &&
			     !(k == 4 && cp < 0x10000) && cp <= 0x10FFFF &&
			     !(cp >= 0xD800 && cp <= 0xDFFF);
		}
		if (ok) {
			memcpy(o, p, k);
			o += k;
			p += k;
		} else {
			memcpy(o, "\xEF\xBF\xBD", 3);
			o += 3;
			p++;
		}
	}
	*out_len = (size_t)(o - out);
	*o = '\0';
	return out;
}

/* The observation as one JSON line (heap, with its '\n'). */
static char *observation_line(const struct cua_observation *obs, size_t *len)
{
	cJSON *o = cJSON_CreateObject(), *data;
	char *txt = NULL, *clean = NULL;

	if (!o)
		return NULL;
	data = obs->json ? cJSON_Duplicate(obs->json, true) : cJSON_CreateNull();
	if (!cJSON_AddStringToObject(o, "type", "observation") ||
	    !cJSON_AddStringToObject(o, "task", obs->task_id ? obs->task_id : "") ||
	    !cJSON_AddNumberToObject(o, "turn", obs->turn) ||
	    !cJSON_AddNumberToObject(o, "max_turns", obs->max_turns) ||
	    !cJSON_AddStringToObject(o, "text", obs->text ? obs->text : "") || !data ||
	    !cJSON_AddItemToObject(o, "data", data)) {
		if (!cJSON_GetObjectItemCaseSensitive(o, "data"))
			cJSON_Delete(data);
		goto out;
	}
	if (!(txt = cJSON_PrintUnformatted(o)))
		goto out;
	size_t n = strlen(txt);
	if ((clean = utf8_clean(txt, n, len))) {
		clean[(*len)++] = '\n';
		clean[*len] = '\0';
	}
out:
	cJSON_free(txt);
	cJSON_Delete(o);
	return clean;
}

/* The next complete line in obuf: its offset and length, without the '\n' and
 * surrounding blanks (consume_line drops it). Blank lines are skipped. Returns
 * false when no complete line is buffered. */
static bool next_line(struct exec_episode *e, size_t *start, size_t *n)
{
	for (;;) {
		char *nl = e->olen > e->scanned
		           ? memchr(e->obuf + e->scanned, '\n', e->olen - e->scanned) : NULL;
		if (!nl) {
			e->scanned = e->olen;
			return false;
		}
		size_t len = (size_t)(nl - e->obuf);
		e->lines++;
		e->scanned = len + 1;
		size_t k = len;
		while (k > 0 && (e->obuf[k - 1] == '\r' || e->obuf[k - 1] == ' ' ||
		                 e->obuf[k - 1] == '\t'))
			k--;
		size_t s = 0;
		while (s < k && (e->obuf[s] == ' ' || e->obuf[s] == '\t'))
			s++;
		if (s == k) {                    /* blank: drop it and look again */
			memmove(e->obuf, e->obuf + len + 1, e->olen - len - 1);
			e->olen -= len + 1;
			e->scanned = 0;
			continue;
		}
		*start = s;
		*n = k - s;
		return true;
	}
}

/* Drops the line next_line returned (and its '\n'). */
static void consume_line(struct exec_episode *e)
{
	memmove(e->obuf, e->obuf + e->scanned, e->olen - e->scanned);
	e->olen -= e->scanned;
	e->scanned = 0;
}

/* Why the agent is gone: "the agent exited (status 3)" / "died of SIGSEGV". */
static void exit_reason(const struct exec_episode *e, char *buf, size_t len)
{
	if (WIFSIGNALED(e->child.wstatus))
		snprintf(buf, len, "the agent died of %s", cua_signal_desc(WTERMSIG(e->child.wstatus)));
	else
		snprintf(buf, len, "the agent exited (status %d)", WEXITSTATUS(e->child.wstatus));
}

/* Whether the agent was stopped from outside: a stop signal, which reaches the
 * run at about the same time (Ctrl-C, Slurm), not one of our SIGKILLs. */
static bool stopped_by_signal(const struct exec_episode *e)
{
	if (!WIFSIGNALED(e->child.wstatus))
		return false;
	int sig = WTERMSIG(e->child.wstatus);
	return sig == SIGINT || sig == SIGTERM || sig == SIGHUP;
}

static enum cua_status exec_propose(void *agent, void *episode,
                                    const struct cua_observation *obs,
                                    struct cua_action *act, char *err, size_t errlen)
{
	struct exec_agent *a = agent;
	struct exec_episode *e = episode;
	enum cua_status result = CUA_E_SYSTEM;
	char why[160], tail[STDERR_SHOWN * 3 + 32];
	double t0 = cua_now(), deadline = t0 + a->timeout_s, exited_at = 0;
	size_t ls, ln, len = 0;
	char *line;

	memset(act, 0, sizeof(*act));
	if (!e) {
		cua_errf(err, errlen, "exec: propose without begin");
		return CUA_E_USAGE;
	}
	line = cua_xcheck(observation_line(obs, &len));
	if (e->child.to_child >= 0) {
		/* Append to what an earlier turn left unwritten. */
		if (e->woff > 0) {
			memmove(e->wbuf, e->wbuf + e->woff, e->wlen - e->woff);
			e->wlen -= e->woff;
			e->woff = 0;
		}
		e->wbuf = cua_xrealloc(e->wbuf, e->wlen + len + 1);
		memcpy(e->wbuf + e->wlen, line, len);
		e->wlen += len;
	}
	free(line);

	for (;;) {
		write_stdin(e);
		drain_stderr(e);
		bool open = read_stdout(e, a->max_line);
		if (next_line(e, &ls, &ln)) {
			result = cua_action_parse(e->obuf + ls, ln, e->lines, act, err, errlen);
			consume_line(e);
			break;
		}
		if (e->olen > a->max_line) {
			result = CUA_E_INVALID;
			cua_errf(err, errlen, "line %ld of the agent's output is longer than the "
			         "limit of %zu bytes", e->lines + 1, a->max_line);
			break;
		}
		if (!open && e->olen > 0) {
			/* A last line without its '\n': take it as it is. */
			e->lines++;
			e->scanned = e->olen;
			result = cua_action_parse(e->obuf, e->olen, e->lines, act, err, errlen);
			consume_line(e);
			break;
		}
		double now = cua_now();
		if (e->child.pid > 0 && cua_child_exited(&e->child)) {
			/* Read on briefly: a descendant may still hold its stdout. */
			if (exited_at == 0)
				exited_at = now;
			if (!open || now - exited_at >= EXIT_GRACE_S)
				cua_child_kill(&e->child);
		} else if (e->child.pid > 0 && !open) {
			/* Its stdout is closed: it cannot answer. Give it a moment to
			 * exit, so that the reason can carry its status. */
			if (exited_at == 0)
				exited_at = now;
			if (now - exited_at >= 1.0) {
				cua_child_kill(&e->child);
				drain_stderr(e);
				stderr_excerpt(e, tail, sizeof tail);
				result = CUA_E_SYSTEM;
				cua_errf(err, errlen, "the agent closed its output before "
				         "answering%s", tail);
				break;
			}
		}
		if (e->child.pid <= 0) {
			drain_stderr(e);
			exit_reason(e, why, sizeof why);
			stderr_excerpt(e, tail, sizeof tail);
			result = stopped_by_signal(e) ? CUA_E_INTERRUPTED : CUA_E_SYSTEM;
			cua_errf(err, errlen, "%s before answering%s", why, tail);
			break;
		}
		if (now >= deadline) {
			cua_child_kill(&e->child);
			drain_stderr(e);
			stderr_excerpt(e, tail, sizeof tail);
			result = CUA_E_TIMEOUT;
			cua_errf(err, errlen, "no answer within %g s%s", a->timeout_s, tail);
			break;
		}

		struct pollfd pfd[3];
		nfds_t np = 0;
		if (e->child.from_out >= 0)
			pfd[np++] = (struct pollfd){ .fd = e->child.from_out, .events = POLLIN };
		if (e->child.from_err >= 0)
			pfd[np++] = (struct pollfd){ .fd = e->child.from_err, .events = POLLIN };
		if (e->child.to_child >= 0 && e->woff < e->wlen)
			pfd[np++] = (struct pollfd){ .fd = e->child.to_child, .events = POLLOUT };
		double wait_s = deadline - now;
		if (wait_s > TICK_MS / 1e3)
			wait_s = TICK_MS / 1e3;
		if (poll(pfd, np, (int)(wait_s * 1e3) + 1) < 0 && errno != EINTR) {
			struct timespec ts = { 0, TICK_MS * 1000000L };
			nanosleep(&ts, NULL);
		}
	}
	act->latency_s = cua_now() - t0;
	if (result != CUA_OK)
		cua_action_clear(act);
	return result;
}

const struct cua_agent_i cua_agent_exec = {
	.name = "exec",
	.version = "1",
	.init = exec_init,
	.begin = exec_begin,
	.propose = exec_propose,
	.end = exec_end,
	.free = agent_free,
};
CUA_AGENT_REGISTER(cua_agent_exec);
