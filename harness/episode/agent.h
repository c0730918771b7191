/* agent.h — the agent backend interface: a table of function pointers plus a
 * context (the ggml backend pattern). One backend per file in agents/: everything
 * static but one `const struct cua_agent_i cua_agent_<name>`, registered by
 * CUA_AGENT_REGISTER(cua_agent_<name>) in the same file (a linker section, so
 * adding a backend edits no list). See docs/ADDING-AN-AGENT.md.
 *
 * The episode engine (harness/episode/episode.c) owns the loop: it builds observations,
 * calls propose(), evaluates the code, computes rewards. A backend only turns
 * an observation into an action. Backends may be called from several threads at
 * once for different episodes: everything per-episode lives in the episode
 * context that begin() returns, and shared state in the agent context must be
 * thread-safe. */
#ifndef CUA_AGENT_H
#define CUA_AGENT_H

#include "common.h"

struct cJSON;

/* What an agent sees at a turn. Borrowed: valid during the call only. */
struct cua_observation {
	const char *task_id;         /* "L1/019-relu" */
	int turn;                    /* 1-based */
	int max_turns;
	const char *text;            /* the prompt (turn 1) or the feedback (later turns) */
	const struct cJSON *json;    /* the same as structured data (exec/env protocol) */
};

/* What an agent answers. The backend fills it; the engine frees it with
 * cua_action_clear(). */
struct cua_action {
	bool stop;                   /* the agent is done with this task */
	char *code;                  /* CUDA source (heap), NULL when stop or on failure */
	char *reply;                 /* the raw reply text (heap, may be NULL) */
	int prompt_tokens, completion_tokens;   /* 0 when unknown */
	double latency_s;            /* wall time of the agent's answer */
	char note[256];              /* why there is no code, when the reply had none */
};

void cua_action_clear(struct cua_action *a);

/* Parses one line an external agent wrote (docs/AGENT-PROTOCOL.md): an action
 * {"type":"action","code":...} or {"type":"stop"} into act. A line that is not
 * such an action is CUA_E_PARSE with "line N of the agent's output is not a JSON
 * action: <why>: <excerpt>". Used by the exec backend; fuzzed by
 * tests/fuzz/fuzz-action.c. */
enum cua_status cua_action_parse(const char *line, size_t n, long lineno,
                                 struct cua_action *act, char *err, size_t errlen);

/* The backend table. Optional slots say "(optional)" and what NULL means. */
struct cua_agent_i {
	const char *name;            /* "reference", "replay", "exec", "llm" */
	const char *version;         /* the backend's own version, recorded in run.json */

	/* Creates the agent from its JSON config (NULL = defaults). The config may
	 * name files relative to the current directory. Errors name the config field. */
	enum cua_status (*init)(const struct cJSON *config, void **agent, char *err,
	                        size_t errlen);

	/* (optional) Starts an episode of one task; *episode is passed to propose and
	 * end. NULL: episodes need no state (episode is NULL). */
	enum cua_status (*begin)(void *agent, const char *task_id, const char *root,
	                         void **episode, char *err, size_t errlen);

	/* One turn: an action for the observation. An error return ends this episode
	 * with the message as its reason ("agent failed: ..."); the run goes on.
	 * CUA_E_INTERRUPTED says the agent was stopped from outside (its process
	 * died of SIGINT, SIGTERM or SIGHUP: Ctrl-C reaches the whole process group,
	 * Slurm signals every process of a job), which ends the episode
	 * "interrupted", for a resume to redo. A reply without code is not an error:
	 * return CUA_OK with code NULL and a note (the engine feeds the note back as
	 * the next observation). */
	enum cua_status (*propose)(void *agent, void *episode,
	                           const struct cua_observation *obs,
	                           struct cua_action *act, char *err, size_t errlen);

	/* (optional) Replays a turn taken before a restart (cuarena run --resume):
	 * once per such turn, in order, after begin and before the first propose,
	 * what the agent was shown and what it replied ("" when the reply was lost).
	 * A backend that keeps a conversation rebuilds it here, so a resumed episode
	 * goes on as if never stopped. An error ends the episode like propose's.
	 * NULL: the resumed episode goes on from the latest feedback alone. */
	enum cua_status (*restore)(void *agent, void *episode,
	                           const struct cua_observation *obs, const char *reply,
	                           char *err, size_t errlen);

	/* (optional) Ends an episode and frees its state. NULL: nothing to free. */
	void (*end)(void *agent, void *episode);

	/* (optional) Frees the agent. NULL: nothing to free. */
	void (*free)(void *agent);
};

/* Puts a backend in the registry (section "cua_agents"). The Makefile links
 * every agents/<name>.o into each binary directly, so no backend is dropped. */
#define CUA_AGENT_REGISTER(sym)                                                  \
	__attribute__((used, section("cua_agents"))) static const struct cua_agent_i \
		*const cua_agent_entry_##sym = &sym

/* Checks a backend's config object against its known field names: an unknown
 * field ("<who>: temprature: unknown field (known: ...)") or one given twice
 * ("<who>: model: given twice") is CUA_E_INVALID. `who` prefixes the message,
 * e.g. "llm config". */
enum cua_status cua_config_check_fields(const struct cJSON *config, const char *who,
                                        const char *const *known, size_t n_known,
                                        char *err, size_t errlen);

/* The registered backends, by name; NULL if unknown. */
const struct cua_agent_i *cua_agent_find(const char *name);

/* Every backend has a name of [a-z0-9_-] and no two share one (list[0..n)):
 * CUA_E_INVALID naming the culprit otherwise. cua_agent_registry_check applies
 * it to the backends linked in; the CLI refuses to start on a failure. */
enum cua_status cua_agent_check_names(const struct cua_agent_i *const *list, size_t n,
                                      char *err, size_t errlen);
enum cua_status cua_agent_registry_check(char *err, size_t errlen);

/* Names of all registered backends, NULL-terminated (for usage messages). */
const char *const *cua_agent_names(void);

#endif /* CUA_AGENT_H */
