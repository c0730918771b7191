/* serve.h — `cuarena serve`: the env protocol and one-shot evaluations over
 * HTTP/JSON (libmicrohttpd), for RL trainers on other nodes (docs/SERVE.md).
 * Requests wait in one bounded queue; builder threads compile in parallel on
 * the CPU; each GPU evaluates one kernel at a time, with the same episode code
 * as `run` and `env`. Every evaluation is appended (fsynced) to a results
 * folder in the usual format, through its one writer (results/writer.h), and
 * answered only once it is there; a harness failure is a 503, never a reward. A
 * server started again on that folder keeps its measured baselines and open
 * episodes. */
#ifndef CUA_SERVE_H
#define CUA_SERVE_H

#include "eval/eval.h"

struct cua_serve_opts {
	const char *root;
	const char *listen;         /* "HOST:PORT", "[V6]:PORT"; default 127.0.0.1:8177;
	                             * port 0 picks a free one (printed, and written to
	                             * port_file when set) */
	const char *port_file;      /* optional: the bound port, one line */
	const char *gpus;           /* "0,1" (CUDA devices, one worker each); NULL = the
	                             * one device this process sees */
	int queue;                  /* requests waiting, beyond those being worked on;
	                             * a full queue answers 429 (default 64) */
	int jobs;                   /* builder threads (default: CPU cores, >= GPUs) */
	const char *token_file;     /* bearer token; required unless listening on a
	                             * loopback address */
	const char *results;        /* results folder; NULL = root/results/serve-<time>.
	                             * One that has a run.json is continued */
	size_t max_body;            /* largest request body (default 1 MiB) */
	int max_episodes;           /* episodes kept open at once (default 1024) */
	int max_connections;        /* connections at once (0: 4096), held below the
	                             * descriptor limit */
	int max_per_client;         /* connections from one address (default 256) */
	int client_timeout_s;       /* a connection that sends nothing this long while
	                             * its request is read is closed (default 30) */
	struct cua_eval_opts eval;
};

void cua_serve_opts_init(struct cua_serve_opts *o, const char *root, const char *self_exe,
                         const char *cache_dir);

/* Runs the service until cua_serve_stop() (SIGINT / SIGTERM in the CLI). Errors
 * only when it cannot start (CUA_E_USAGE: a bad option, e.g. a public address
 * without a token; CUA_E_IO: the results folder; CUA_E_SYSTEM: cannot listen). */
enum cua_status cua_serve(const struct cua_serve_opts *o, char *err, size_t errlen);

/* Asks a running cua_serve to stop: no new request is taken, queued ones are
 * answered 503, builds are stopped, evaluations on a GPU finish and are kept.
 * Async-signal-safe. */
void cua_serve_stop(void);

/* Parses "HOST:PORT" / "[V6]:PORT" into host and port; -1 with err when bad. */
int cua_serve_parse_listen(const char *s, char *host, size_t hostlen, int *port, char *err,
                           size_t errlen);

#endif /* CUA_SERVE_H */
